"""Why a magic action is refused (stable codes for the API)."""

from gamerules.ew1.errors import ActionRefused


class SpellUnknown(ActionRefused):
    code = "spell_unknown"


class SpellbookFull(ActionRefused):
    code = "spellbook_full"


class SpellAlreadyKnown(ActionRefused):
    code = "spell_already_known"


class OfferInvalid(ActionRefused):
    code = "invalid_offer"
