"""Percentile tests shared by every system: roll 1d100 against a target, grade the result.

A test's target is a base score plus modifiers. A *critical rule* says how a system reads the
die and grades it; the grade is a ``Grade`` (a str enum the journal stores as text):

- ``RollUnder``: success when the die is at most the target (``inclusive``) or strictly below
  it; no criticals (EW1's dodge, DEF and magic tests).
- ``PerfectBelow``: EW1's attacks, "perfect" when a success rolls strictly below ``threshold``
  (seed 000, "Mécanismes de combat": perfect below 5; ``EW1Parameters.perfect_below``).
- ``CriticalBands``: the homebrew's "de 1 à 5 ... réussite critique", "de 96 à 100 ... échec
  critique" (seed 002, "Critiques"): those bands win or lose whatever the target.
- ``EclipseDoubles``: Eclipse Phase (seed 001, "Succès / Échecs"): the die reads 00-99 (a face
  of 100 reads 00); "Un jet de 00 est toujours un succès critique, 99 est toujours un échec
  critique"; a double (11, 22 ... 88) is a critical success under the target and a critical
  failure above it. Success is "inférieur" (strictly below) unless ``inclusive``.

Rules take keyword arguments only (``PerfectBelow(threshold=5)``). ``d100_test`` rolls;
``grade_chances`` gives the exact chance of each grade (icepool); ``opposed`` and
``opposed_chances`` settle one character against another.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import ClassVar, Final, Literal, Protocol

import icepool

from gamerules.dice import DiceRoll, RandomSource, d100
from gamerules.modifiers import Modifier, total


class Grade(StrEnum):
    CRITICAL_SUCCESS = "critical_success"
    PERFECT = "perfect"  # EW1's critical success
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical_failure"

    @property
    def success(self) -> bool:
        return self in (Grade.CRITICAL_SUCCESS, Grade.PERFECT, Grade.SUCCESS)

    @property
    def critical(self) -> bool:
        return self in (Grade.CRITICAL_SUCCESS, Grade.PERFECT, Grade.CRITICAL_FAILURE)

    @property
    def rank(self) -> int:
        """Critical failure 0, failure 1, success 2, critical success or perfect 3."""
        return {Grade.CRITICAL_FAILURE: 0, Grade.FAILURE: 1, Grade.SUCCESS: 2}.get(self, 3)


class CriticalRule(Hashable, Protocol):
    """How a system reads a 1d100 face and grades it against a target."""

    name: ClassVar[str]

    def read(self, face: int) -> int:
        """The number the system reads on a face of 1 to 100."""
        ...

    def grade(self, reading: int, target: int) -> Grade: ...


@dataclass(frozen=True, kw_only=True)
class RollUnder:
    """Success when the die is <= target (``inclusive``) or < target; no criticals."""

    inclusive: bool = True
    name: ClassVar[str] = "roll_under"

    def read(self, face: int) -> int:
        return face

    def succeeds(self, reading: int, target: int) -> bool:
        return reading <= target if self.inclusive else reading < target

    def grade(self, reading: int, target: int) -> Grade:
        return Grade.SUCCESS if self.succeeds(reading, target) else Grade.FAILURE


@dataclass(frozen=True, kw_only=True)
class PerfectBelow(RollUnder):
    """EW1: a success rolled strictly below ``threshold`` (5) is perfect."""

    threshold: int = 5
    name: ClassVar[str] = "perfect_below"

    def grade(self, reading: int, target: int) -> Grade:
        if not self.succeeds(reading, target):
            return Grade.FAILURE
        return Grade.PERFECT if reading < self.threshold else Grade.SUCCESS


@dataclass(frozen=True, kw_only=True)
class CriticalBands(RollUnder):
    """Homebrew: at most ``success_max`` (5) is a critical success and at least
    ``failure_min`` (96) a critical failure, whatever the target; between, roll under."""

    success_max: int = 5
    failure_min: int = 96
    name: ClassVar[str] = "critical_bands"

    def grade(self, reading: int, target: int) -> Grade:
        if reading <= self.success_max:
            return Grade.CRITICAL_SUCCESS
        if reading >= self.failure_min:
            return Grade.CRITICAL_FAILURE
        return super().grade(reading, target)


# Seed 001, "Succès / Échecs": "Un jet de 00 est toujours un succès critique, 99 est toujours un
# échec critique" (the readings, whatever the target).
ECLIPSE_ALWAYS_CRITICAL_SUCCESS: Final = 0
ECLIPSE_ALWAYS_CRITICAL_FAILURE: Final = 99


@dataclass(frozen=True, kw_only=True)
class EclipseDoubles(RollUnder):
    """Eclipse Phase: reads 00-99; 00 always a critical success, 99 always a critical failure;
    doubles 11-88 critical, a success or a failure as the target says. ``inclusive`` False is
    the seed's "inférieur" (strictly below)."""

    inclusive: bool = False
    name: ClassVar[str] = "eclipse_doubles"

    def read(self, face: int) -> int:
        return face % 100

    def grade(self, reading: int, target: int) -> Grade:
        if reading == ECLIPSE_ALWAYS_CRITICAL_SUCCESS:
            return Grade.CRITICAL_SUCCESS
        if reading == ECLIPSE_ALWAYS_CRITICAL_FAILURE:
            return Grade.CRITICAL_FAILURE
        success = self.succeeds(reading, target)
        if reading % 11 == 0:  # 11, 22 ... 88
            return Grade.CRITICAL_SUCCESS if success else Grade.CRITICAL_FAILURE
        return Grade.SUCCESS if success else Grade.FAILURE


@dataclass(frozen=True)
class D100Result:
    """One graded test. ``roll`` is the 1d100 thrown (face 1-100, as journaled); ``reading``
    what the rule reads on it (Eclipse Phase: 0-99); ``target`` = ``base`` + the modifiers;
    ``margin`` = target - reading (negative on a failure); ``rule`` the rule's name."""

    roll: DiceRoll
    reading: int
    base: int
    modifiers: tuple[Modifier, ...]
    target: int
    grade: Grade
    rule: str

    @property
    def success(self) -> bool:
        return self.grade.success

    @property
    def critical(self) -> bool:
        return self.grade.critical

    @property
    def margin(self) -> int:
        return self.target - self.reading


def grade_face(face: int, target: int, rule: CriticalRule) -> Grade:
    """The grade of a face of 1 to 100 against ``target`` under ``rule`` (no dice rolled)."""
    return rule.grade(rule.read(face), target)


def d100_test(base: int, rng: RandomSource, *, rule: CriticalRule,
              modifiers: Sequence[Modifier] = ()) -> D100Result:
    """Roll 1d100 with ``rng`` against ``base`` + ``modifiers`` and grade it with ``rule``."""
    mods = tuple(modifiers)
    target = base + total(mods)
    thrown = d100(rng)
    reading = rule.read(thrown.total)
    return D100Result(thrown, reading, base, mods, target, rule.grade(reading, target), rule.name)


@lru_cache(maxsize=4096)
def _grade_die(target: int, rule: CriticalRule) -> icepool.Die:
    return icepool.d100.map(lambda face: grade_face(face, target, rule))


def grade_chances(target: int, rule: CriticalRule) -> dict[Grade, Fraction]:
    """The exact chance of every grade (each Grade a key, 0 when impossible), summing to 1."""
    die = _grade_die(target, rule)
    return {g: Fraction(die.probability(g)) for g in Grade}


def success_chance(target: int, rule: CriticalRule) -> Fraction:
    return sum((p for g, p in grade_chances(target, rule).items() if g.success), Fraction(0))


# --- opposed tests -------------------------------------------------------------------------

HIGHEST_ROLL: Final = "highest_roll"  # Eclipse Phase: "le jet le plus élevé, tout en restant inférieur"
LARGEST_MARGIN: Final = "largest_margin"  # target - roll: the success furthest under its target
OpposedOrder = Literal["highest_roll", "largest_margin"]


@dataclass(frozen=True)
class OpposedResult:
    """``winner`` is "first", "second" or None (both failed, or an exact tie: a deadlock)."""

    first: D100Result
    second: D100Result
    winner: Literal["first", "second"] | None
    order: str


def _key(grade: Grade, reading: int, target: int, order: str) -> tuple[int, int]:
    if not grade.success:
        return (grade.rank, 0)
    return (grade.rank, reading if order == HIGHEST_ROLL else target - reading)


def _winner(a: tuple[Grade, int, int], b: tuple[Grade, int, int], order: str
            ) -> Literal["first", "second"] | None:
    """Neither succeeding: no winner. Otherwise the better grade wins (critical success over
    success), then the higher roll (or the larger margin); equal keys are a deadlock."""
    if not a[0].success and not b[0].success:
        return None
    ka, kb = _key(*a, order), _key(*b, order)
    if ka == kb:
        return None
    return "first" if ka > kb else "second"


def opposed(first: D100Result, second: D100Result, *, order: OpposedOrder = HIGHEST_ROLL
            ) -> OpposedResult:
    """Settle two already rolled tests against each other."""
    winner = _winner((first.grade, first.reading, first.target),
                     (second.grade, second.reading, second.target), order)
    return OpposedResult(first, second, winner, order)


def opposed_chances(first_target: int, second_target: int, rule: CriticalRule, *,
                    order: OpposedOrder = HIGHEST_ROLL) -> dict[str | None, Fraction]:
    """Exact chances {"first": p, "second": q, None: deadlock} of an opposed test (icepool,
    over the 10,000 pairs of faces)."""
    def settle(fa: int, fb: int) -> str:
        ra, rb = rule.read(fa), rule.read(fb)
        w = _winner((rule.grade(ra, first_target), ra, first_target),
                    (rule.grade(rb, second_target), rb, second_target), order)
        return w or "deadlock"

    die = icepool.map(settle, icepool.d100, icepool.d100)
    return {"first": Fraction(die.probability("first")),
            "second": Fraction(die.probability("second")),
            None: Fraction(die.probability("deadlock"))}
