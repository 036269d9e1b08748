"""Tests of a characteristic (1d100) and of a sub-characteristic (1d6).

Source: 002_80873c4f1892db54.txt, "Caractéristiques": "Les caractéristiques sont généralement
testées avec 1d100, et les sous-catégories avec 1d6, sauf pour un test particulièrement difficile
à l'appréciation du GM"; "Actions": "un personnage peut en assister un autre d'une quelconque
manière et un bonus pourra être accordé au jet de dé du personnage recevant l'aide".

- characteristic: 1d100 <= value + modifiers; 1-5 critical success and 96-100 critical failure
  whatever the target (``critical_success_max``, ``critical_failure_min``).
- sub: 1d6 <= value + modifiers (our choice: a sub of 0 never succeeds on its own, a sub of 6
  always does; no criticals on a d6). For "un test particulièrement difficile" the GM may use
  a larger die (``sides``, e.g. 1d10) or a malus.
- the GM's difficulty is one signed modifier (source "gm"); each assist one bonus (source
  "assist") named after the helper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamerules.d100 import CriticalBands, D100Result, Grade, d100_test
from gamerules.dice import MIN_SIDES, DiceRoll, RandomSource, roll
from gamerules.homebrew.params import HomebrewParameters
from gamerules.modifiers import Modifier, total

GM, ASSIST = "gm", "assist"


def critical_rule(params: HomebrewParameters) -> CriticalBands:
    return CriticalBands(success_max=params.critical_success_max,
                         failure_min=params.critical_failure_min)


def difficulty(value: int) -> tuple[Modifier, ...]:
    """The GM's difficulty modifier (negative: harder); none when 0."""
    return (Modifier("difficulty", value, GM),) if value else ()


def assist(helper: str, bonus: int) -> Modifier:
    """A bonus from ``helper`` helping the one who rolls."""
    return Modifier(f"assist: {helper}", bonus, ASSIST)


def build_modifiers(*, difficulty_value: int = 0, assists: Sequence[Modifier] = (),
                   extra: Sequence[Modifier] = ()) -> tuple[Modifier, ...]:
    return difficulty(difficulty_value) + tuple(assists) + tuple(extra)


def characteristic_test(value: int, rng: RandomSource, params: HomebrewParameters, *,
                        difficulty_value: int = 0, assists: Sequence[Modifier] = (),
                        extra: Sequence[Modifier] = ()) -> D100Result:
    """1d100 against a main characteristic (Physique, Perception, Mental) and modifiers."""
    mods = build_modifiers(difficulty_value=difficulty_value, assists=assists, extra=extra)
    return d100_test(value, rng, rule=critical_rule(params), modifiers=mods)


@dataclass(frozen=True)
class SubTestResult:
    """``roll`` is the die thrown; ``target`` = ``value`` + modifiers; success when the die is
    at most the target. ``result`` is the face (what a parry blocks)."""

    roll: DiceRoll
    value: int
    modifiers: tuple[Modifier, ...]
    target: int
    sides: int

    @property
    def result(self) -> int:
        return self.roll.total

    @property
    def success(self) -> bool:
        return self.roll.total <= self.target

    @property
    def grade(self) -> Grade:
        return Grade.SUCCESS if self.success else Grade.FAILURE


def sub_test(value: int, rng: RandomSource, params: HomebrewParameters, *,
             difficulty_value: int = 0, assists: Sequence[Modifier] = (),
             extra: Sequence[Modifier] = (), sides: int | None = None) -> SubTestResult:
    """1d``sides`` (default ``sub_test_sides``, 6) against a sub-characteristic (0-6) and
    modifiers. Raises ValueError for a die of fewer than 2 sides."""
    sides = params.sub_test_sides if sides is None else sides
    if sides < MIN_SIDES:
        raise ValueError("A sub test needs a die of at least 2 sides.")
    mods = build_modifiers(difficulty_value=difficulty_value, assists=assists, extra=extra)
    return SubTestResult(roll(f"1d{sides}", rng), value, mods, value + total(mods), sides)
