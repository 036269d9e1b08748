"""Why a faction operation is refused (stable codes for the API), with the English messages."""

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "faction_error": gettext_noop("This faction action is not allowed."),
    "already_in_faction": gettext_noop("%(name)s already belongs to a faction."),
    "faction_name_taken": gettext_noop("A faction named %(name)r exists already."),
    "request_closed": gettext_noop("This request was answered or withdrawn already."),
    "leader_must_hand_over": gettext_noop("Hand the leadership to another member before leaving."),
    "not_a_member": gettext_noop("That character is not a member of the faction."),
    "not_member_faction": gettext_noop("%(name)s is not a member of this faction."),
    "new_leader_member": gettext_noop("The new leader must be a member."),
    "character_not_member": gettext_noop("That character is not a member."),
}


class FactionError(RuleError):
    code = "faction_error"
    messages = MESSAGES


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
