"""English messages of the errors raised by the characters app (ItemError, RerollLimited):
key -> template, as gamerules.errors explains."""

from gamerules.errors import gettext_noop

MESSAGES: dict[str, str] = {
    "invalid_item": gettext_noop("This item cannot be used that way."),
    "reroll_limited": gettext_noop("No reroll left this minute: wait %(seconds)s s."),
    "item_not_usable": gettext_noop("This item cannot be used."),
    "consumable_not_equipped": gettext_noop("A consumable is used, not equipped."),
    "item_belongs_another": gettext_noop("This item belongs to another campaign."),
}

# NotEternalWar's (ew1.actors): the shared core's RuleSystemNotPlayable names no system, so the
# message that names this one stays here.
NOT_EW1_MESSAGES: dict[str, str] = {
    "not_ew1": gettext_noop("This campaign does not play the Eternal War One II rules."),
}
