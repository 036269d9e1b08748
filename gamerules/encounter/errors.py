"""Why an encounter step is refused. ``MESSAGES`` holds the English template of each key
(gamerules.errors explains the model); the French is in locale/fr/LC_MESSAGES/django.po."""

from __future__ import annotations

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "encounter_refused": gettext_noop("This encounter step is not allowed."),
    "no_living_combatant": gettext_noop("No combatant left who can take a turn."),
    "not_in_order": gettext_noop("That combatant is not in the order."),
    "already_in_order": gettext_noop("That combatant is already in the order."),
    "delay_after_self": gettext_noop("A combatant cannot delay after itself."),
    "delay_target_passed": gettext_noop(
        "Delay only after a combatant whose turn is still to come this round."),
    "no_current_turn": gettext_noop("No turn is being played."),
    "reorder_mismatch": gettext_noop(
        "The new round's order must hold the same combatants as the last one."),
    "reaction_not_pending": gettext_noop("This reaction is no longer waiting for an answer."),
    "reaction_expired": gettext_noop(
        "Too late: the time to react is over and no reaction counts."),
    "unknown_reaction_option": gettext_noop("%(choice)r is not one of this reaction's choices."),
    "invalid_duration": gettext_noop("An effect lasts 1 round or more (%(rounds)s)."),
    "duration_too_long": gettext_noop("An effect lasts at most %(most)s rounds (%(rounds)s)."),
}


class EncounterError(RuleError):
    code = "encounter_refused"
    messages = MESSAGES


class OrderError(EncounterError):
    """The order cannot be changed that way (delay, removal, re-adding)."""

    code = "not_in_order"


class NoLivingCombatant(EncounterError):
    code = "no_living_combatant"
    status = 409


class ReactionNotPending(EncounterError):
    """The reaction was answered or defaulted already: a stale answer changes nothing."""

    code = "reaction_not_pending"
    status = 409


class ReactionExpired(ReactionNotPending):
    code = "reaction_expired"


class UnknownReactionOption(EncounterError):
    code = "unknown_reaction_option"


class InvalidDuration(EncounterError):
    code = "invalid_duration"
