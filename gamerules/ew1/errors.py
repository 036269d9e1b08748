"""Why an Eternal War One II action is refused. Each ``code`` is stable (the API returns it);
``MESSAGES`` holds the English template of each key (gamerules.errors explains the model)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gamerules.errors import ParameterConflict, RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "action_refused": gettext_noop("This action is refused."),
    "not_enough_pa": gettext_noop("This needs %(cost)s PA; you have %(pa)s."),
    "off_board": gettext_noop("That cell is off the board."),
    "cell_occupied": gettext_noop("That cell is occupied."),
    "not_adjacent": gettext_noop("The target must stand on an adjacent cell."),
    "cannot_act": gettext_noop("This character cannot act now."),
    "invalid_target": gettext_noop("Invalid target."),
    "target_protected": gettext_noop("A level 0 character is protected until its first action."),
    "friendly_fire": gettext_noop("Friendly fire is off in this campaign: allies cannot be attacked."),
    "invalid_direction": gettext_noop("Move one cell in one of the eight directions."),
    "move_somewhere": gettext_noop("Choose another cell than the one you stand on."),
    "cell_out_of_view": gettext_noop("That cell is out of view: move towards it first."),
    "no_free_path": gettext_noop("Pieces wall that cell off: no free path within view leads there."),
    "out_of_range": gettext_noop("The target is out of reach."),
    "item_missing": gettext_noop("Equip a %(kind)s weapon first."),
    "reincarnation_blocked": gettext_noop("Reincarnation possible in %(hours)s h %(minutes)s min."),
    "daily_pa_cap_reached": gettext_noop(
        "Daily PA cap reached: %(spent)s of %(cap)s PA spent today, this needs %(cost)s."),
    "invalid_redistribution": gettext_noop("This redistribution of points is not allowed."),
    "invalid_level_up": gettext_noop("This level-up choice is not allowed."),
    "characteristic_cannot_fall": gettext_noop("A characteristic cannot fall below 1."),
    "most_points_added": gettext_noop(
        "At most %(per_characteristic_max)s points added to or taken from one characteristic "
        "(%(too_far)s)."),
    "most_points_moved": gettext_noop("At most %(total_max)s points can be moved (here %(moved)s)."),
    "points_are_moved": gettext_noop(
        "Points are moved between characteristics: the changes must add up to 0."),
    "points_are_whole": gettext_noop("Points are whole numbers."),
    "unknown_characteristics": gettext_noop("Unknown characteristics: %(unknown)s."),
    "cannot_go_above": gettext_noop("%(name)s cannot go above %(maximum)s."),
    "most_points_skill": gettext_noop("At most %(cap)s points per skill at level %(level)s (%(name)s)."),
    "characteristic_points_spent": gettext_noop(
        "%(spent_chars)s characteristic points spent, %(characteristic_points)s available."),
    "skill_points_spent": gettext_noop(
        "%(spent_skills)s skill points spent, %(skill_points)s available."),
    "points_are_positive": gettext_noop("Points are positive whole numbers."),
    "choose_least_one": gettext_noop("Choose at least one point to spend."),
    "disincarnated_no_items": gettext_noop("A disincarnated character cannot use items."),
    "character_already_board": gettext_noop("This character is already on the board."),
    "character_not_board": gettext_noop("This character is not on the board."),
    "target_cells_away": gettext_noop("The target is %(cells)s cells away; the reach is %(reach)s."),
    "target_not_board": gettext_noop("The target is not on your board."),
    "character_cannot_attack": gettext_noop("A character cannot attack itself."),
    "unknown_attack_brawl": gettext_noop("Unknown attack %(kind)r: brawl, melee, ranged or throw."),
    "piece_took_turn": gettext_noop("This piece already took its turn."),
    "zero_pv": gettext_noop("At 0 PV a character cannot act until healed."),
    "no_such_target": gettext_noop("No such target."),
    "nobody_in_range": gettext_noop("Nobody in range (%(cells)s cells)."),
    "nobody_stands_where": gettext_noop("Nobody stands where this spell would land."),
    "spell_out_of_range": gettext_noop("That cell is out of the spell's range (%(reach)s)."),
    "unknown_skill": gettext_noop("Unknown skill: %(unknown)s."),
    "unknown_characteristic": gettext_noop("Unknown characteristic: %(unknown)s."),
    # A piece the game master places (ew1.selectors.cell_problems).
    "cell_needed": gettext_noop("A piece on the board needs its cell: give x and y."),
    "cell_without_board": gettext_noop(
        "Choose the board, or leave x and y empty for a character off the board."),
    "not_campaign_board": gettext_noop("Choose the board of the character's campaign."),
    # A sheet the game master writes (gamerules.ew1.sheet_limits).
    "invalid_sheet": gettext_noop("A value of this sheet is out of its limits."),
    "pv_above_max": gettext_noop("PV now (%(pv)s) is above the max PV (%(pv_max)s)."),
    "pa_above_max": gettext_noop("PA now (%(pa)s) is above the PA cap (%(pa_max)s)."),
    "pv_max_least_1": gettext_noop("The max PV is at least 1."),
    "characteristic_above_max": gettext_noop(
        "At most %(maximum)s in this campaign (here %(value)s): the campaign's highest "
        "characteristic."),
    "level_above_max": gettext_noop(
        "The level is at most %(maximum)s in this campaign (here %(value)s)."),
    "skill_above_max": gettext_noop(
        "At most %(maximum)s (here %(value)s): this skill's maximum in the rules."),
    "luck_players_only": gettext_noop(
        "Only player characters have LUK: leave it empty for a creature, a door or an object."),
    "luck_needed": gettext_noop("A player character needs LUK."),
    "reduction_pieces_only": gettext_noop(
        "A player character rolls DEF against damage: leave the fixed damage reduction empty."),
    "reduction_needed": gettext_noop(
        "A creature, a door or an object needs a fixed damage reduction (0 or more)."),
}


class ActionRefused(RuleError):
    code = "action_refused"
    messages = MESSAGES


class InvalidSheet(ActionRefused):
    """A sheet value the rules do not allow (gamerules.ew1.sheet_limits): the key names which."""

    code = "invalid_sheet"


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
    """The campaign's ``friendly_fire`` is off and the target is a member of the actor's faction."""

    code = "friendly_fire"


class InvalidDirection(ActionRefused):
    code = "invalid_direction"


class OutOfRange(ActionRefused):
    code = "out_of_range"


class ItemMissing(ActionRefused):
    """The attack needs a weapon that is not equipped."""

    code = "item_missing"


class ReincarnationBlocked(ActionRefused):
    """A suicide blocks reincarnation for a while; ``until`` says when it ends (``hours`` and
    ``minutes`` left are the message's params)."""

    code = "reincarnation_blocked"

    def __init__(self, key: str | None = None, /, *, until: datetime | None = None,
                 **params: Any) -> None:
        super().__init__(key, **params)
        self.until = until


class DailyPACapReached(ActionRefused):
    """The PA spent on this game day would pass the campaign's ``daily_pa_cap`` (params
    ``spent``, ``cap`` and ``cost``, in PA)."""

    code = "daily_pa_cap_reached"

    @property
    def spent(self) -> Any:
        return self.params.get("spent")

    @property
    def cap(self) -> Any:
        return self.params.get("cap")


# Rule parameters that leave an action out of every character's reach (EW1Parameters.conflicts).
PARAMETER_CONFLICTS: dict[str, str] = {
    "cost_above_pa_cap": gettext_noop(
        "%(cost)s PA is more than any character ever holds (a PA cap of %(cap)s at level "
        "%(level)s): lower this cost or raise the PA cap."),
    "cost_above_daily_cap": gettext_noop(
        "%(cost)s PA is more than the daily PA cap (%(cap)s): nobody could ever do this."),
}


class EW1ParameterConflict(ParameterConflict):
    messages = PARAMETER_CONFLICTS
