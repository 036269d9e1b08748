"""Errors of the core services (not tied to one rule system)."""

from gamerules.errors import RuleError


class NotFound(RuleError):
    """The object does not exist or the user may not see it (the two are not told apart)."""

    code = "not_found"


class SheetMissing(NotFound):
    """The character has no rule-system sheet (data saved around the admin, which always makes
    one): it cannot be shown nor played until the game master saves it in the admin."""

    code = "sheet_missing"


class Forbidden(RuleError):
    code = "forbidden"


class RuleSystemNotPlayable(RuleError):
    code = "rule_system_not_playable"


class CampaignClosed(RuleError):
    code = "campaign_closed"


class InvalidInput(RuleError):
    code = "invalid_input"


class BoardFull(RuleError):
    code = "board_full"
