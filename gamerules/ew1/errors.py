"""Why an Eternal War One II action is refused. Each ``code`` is stable: the API returns it."""

from datetime import datetime

from gamerules.errors import RuleError


class ActionRefused(RuleError):
    code = "action_refused"


class NotEnoughPA(ActionRefused):
    code = "not_enough_pa"


class OffBoard(ActionRefused):
    code = "off_board"


class CellOccupied(ActionRefused):
    code = "cell_occupied"


class NotAdjacent(ActionRefused):
    code = "not_adjacent"


class CannotAct(ActionRefused):
    """The actor is at 0 PV or off the board."""

    code = "cannot_act"


class InvalidTarget(ActionRefused):
    code = "invalid_target"


class TargetProtected(ActionRefused):
    """Level 0 characters are protected until their first action."""

    code = "target_protected"


class FriendlyFire(ActionRefused):
    """The campaign's ``friendly_fire`` is 0 and the target is a member of the actor's faction."""

    code = "friendly_fire"


class InvalidDirection(ActionRefused):
    code = "invalid_direction"


class OutOfRange(ActionRefused):
    code = "out_of_range"


class ItemMissing(ActionRefused):
    """The attack needs a weapon that is not equipped."""

    code = "item_missing"


class ReincarnationBlocked(ActionRefused):
    """A suicide blocks reincarnation for a while; ``until`` says when it ends."""

    code = "reincarnation_blocked"

    def __init__(self, message: str, *, until: datetime | None = None):
        super().__init__(message)
        self.until = until


class DailyPACapReached(ActionRefused):
    """The PA spent on this game day would pass the campaign's ``daily_pa_cap``."""

    code = "daily_pa_cap_reached"

    def __init__(self, message: str, *, spent: object = None, cap: object = None) -> None:
        super().__init__(message)
        self.spent, self.cap = spent, cap
