"""Why a magic action is refused (stable codes for the API), with the English messages."""

from gamerules.errors import gettext_noop
from gamerules.ew1.errors import ActionRefused

MESSAGES: dict[str, str] = {
    "spell_unknown": gettext_noop("This character does not know that spell."),
    "spellbook_full": gettext_noop("A spellbook holds %(size)s spells: replace one."),
    "spell_already_known": gettext_noop("%(character)s already knows %(spell)s."),
    "invalid_offer": gettext_noop("This spell offer cannot be answered that way."),
    "spell_not_known": gettext_noop("This character does not know that spell."),
    "replaced_spell_unknown": gettext_noop("The spell to replace is not in the spellbook."),
    "spell_not_offered": gettext_noop("That spell is not part of this offer."),
    "offer_been_answered": gettext_noop("This offer has been answered already."),
    "spell_belongs_another": gettext_noop("This spell belongs to another campaign."),
}


class SpellError(ActionRefused):
    messages = MESSAGES


class SpellUnknown(SpellError):
    code = "spell_unknown"


class SpellbookFull(SpellError):
    code = "spellbook_full"


class SpellAlreadyKnown(SpellError):
    code = "spell_already_known"


class OfferInvalid(SpellError):
    code = "invalid_offer"
