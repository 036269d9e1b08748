"""Why a faction operation is refused (stable codes for the API)."""

from gamerules.errors import RuleError


class FactionError(RuleError):
    code = "faction_error"


class AlreadyInFaction(FactionError):
    code = "already_in_faction"


class FactionNameTaken(FactionError):
    code = "faction_name_taken"


class RequestClosed(FactionError):
    """The request or invitation was answered or withdrawn already."""

    code = "request_closed"


class LeaderMustHandOver(FactionError):
    code = "leader_must_hand_over"


class NotAMember(FactionError):
    code = "not_a_member"
