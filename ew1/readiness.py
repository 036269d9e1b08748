"""Whether a character can take an action now, as an error (or None): what the services raise
when they refuse, and what the board shows on a disabled button before the click. No query."""

from __future__ import annotations

from decimal import Decimal

from gamerules.ew1 import errors
from gamerules.errors import RuleError


def cannot_act(character, sheet) -> errors.CannotAct | None:
    """Off the board, or at 0 PV or below (seed 000, "Distribution des dégâts reçue")."""
    if not character.on_board:
        return errors.CannotAct("character_not_board")
    if sheet.pv <= 0:
        return errors.CannotAct("zero_pv")
    return None


def pa_shortfall(sheet, cost: Decimal) -> errors.NotEnoughPA | None:
    """``cost`` PA is more than the sheet holds (PA as brought up to date by the caller)."""
    if sheet.pa < cost:
        return errors.NotEnoughPA(cost=cost, pa=sheet.pa)
    return None


def refusal(character, sheet, cost: Decimal) -> RuleError | None:
    """The first reason an action costing ``cost`` PA is refused (state first, then PA)."""
    return cannot_act(character, sheet) or pa_shortfall(sheet, cost)
