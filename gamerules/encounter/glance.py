"""A combatant's state in words (issue 21, item 2): what a player reads of an enemy when the
game master shows enemies "described" (docs/encounters.md, "State at a glance").

Four words, worst last: ``UNHURT`` (nothing lost), ``WOUNDED`` (something lost),
``BADLY_WOUNDED`` (at least ``badly_wounded_percent`` per cent of the maximum lost: the
campaign's parameter of each system, 50 by default), ``DOWN`` (out of the fight: unconscious,
dead, destroyed, at 0 HP or below). ``level_of(lost, maximum, down=, wounds=, badly_wounded_
percent=)``: ``lost`` what the gauge lost (damage taken, HP below the maximum; never below 0),
``maximum`` its size (DUR, max HP); ``wounds`` (Eclipse Phase) makes unhurt "wounded" even
without damage. Exact integers, no rounding: badly wounded when ``lost * 100 >=
badly_wounded_percent * maximum``.

Worked examples (tests/gamerules/encounter/test_glance.py): DUR 30, 50 %: 0 damage unhurt, 14
wounded, 15 badly wounded, unconscious down; max HP 20: 10 HP (10 lost) badly wounded, 11 HP
wounded.
"""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    UNHURT = "unhurt"
    WOUNDED = "wounded"
    BADLY_WOUNDED = "badly_wounded"
    DOWN = "down"


def level_of(lost: int, maximum: int, *, down: bool = False, wounds: int = 0,
             badly_wounded_percent: int = 50) -> Level:
    """The word for a gauge that lost ``lost`` of ``maximum`` (see the module's docstring). A
    maximum of 0 or less reads "wounded" once anything is lost (no share to take)."""
    if down:
        return Level.DOWN
    lost = max(0, lost)
    if lost == 0 and wounds <= 0:
        return Level.UNHURT
    if maximum > 0 and lost * 100 >= badly_wounded_percent * maximum:
        return Level.BADLY_WOUNDED
    return Level.WOUNDED
