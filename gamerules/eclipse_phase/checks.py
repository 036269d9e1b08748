"""Skill tests: 1d100 read 00-99 against a skill plus modifiers, criticals, the margin of
success, Moxie, opposed tests.

Source: 001_e6266c120d4801b4.txt, "Succès / Échecs": "Un jet de D100 inférieur au score de la
compétence/aptitude est un succès"; "Plus le jet de D100 est élevé, tout en restant inférieur à
la compétence, plus la marge de succès est importante. (Ainsi un jet de 58 sous une compétence
de 60 est une meilleure réussite qu'un jet de 42.)"; "en cas de jet opposé [...] celui qui
obtient le jet le plus élevé, tout en restant inférieur à sa compétence, l'emporte"; "En cas de
double (11, 22, 33, 44, etc.), le jet est un succès critique si il est inférieur à la
compétence ; un échec critique si il lui est supérieur. Un jet de 00 est toujours un succès
critique, 99 est toujours un échec critique"; "un modificateur de +/-10 à +/-30"; "Un
personnage peut utiliser un point de MOXie (chance) pour inverser son jet de dé. Ainsi, un jet
de 82 devient un 28"; "Dommages": "Chaque blessure subie impose un malus de 10 cumulatif à
toutes les compétences du personnage"; "Traumas (équivalent mental des Blessures physiques)".

Choices (docs/rules/eclipse-phase.md): strictly below (``success_inclusive`` off); the margin
of success is the roll itself (``margin_is_roll``), 0 on a failure; in an opposed test a
critical success beats a plain success (``critical_beats_success``), then the higher roll wins,
and the same roll with the same grade is a deadlock (None); a double equal to the target is a
failure (not under it) and so a critical failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

import icepool

from gamerules.d100 import D100Result, EclipseDoubles, Grade, d100_test
from gamerules.dice import RandomSource
from gamerules.eclipse_phase.errors import InvalidModifier, NoMoxie
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.modifiers import Modifier


def critical_rule(params: EclipsePhaseParameters) -> EclipseDoubles:
    return EclipseDoubles(inclusive=params.success_inclusive)


def difficulty(value: int, params: EclipsePhaseParameters) -> tuple[Modifier, ...]:
    """The GM's difficulty (-30 to +30; none when 0). Raises InvalidModifier beyond."""
    if abs(value) > params.difficulty_max:
        raise InvalidModifier("difficulty_between", max=params.difficulty_max, value=value)
    return (Modifier("difficulty", value, "gm"),) if value else ()


@dataclass(frozen=True)
class Strain:
    """What weighs on the one who tests (condition_modifiers): their ``wounds`` and
    ``traumas`` (each a malus), and whether a ``pain_filter`` ignores one wound's."""

    wounds: int = 0
    traumas: int = 0
    pain_filter: bool = False


def condition_modifiers(params: EclipsePhaseParameters, *, wounds: int = 0, traumas: int = 0,
                        pain_filter: bool = False) -> tuple[Modifier, ...]:
    """-10 per wound and per trauma (one modifier each, none when 0); a ``pain_filter``
    ignores one wound's malus (the modifier says so, at 0 for a single wound)."""
    mods: list[Modifier] = []
    if wounds:
        felt = max(0, wounds - 1) if pain_filter else wounds
        if pain_filter:
            mods.append(Modifier(f"wounds ({wounds}, pain filter: 1 ignored)",
                                 -params.wound_malus * felt, "pain_filter"))
        else:
            mods.append(Modifier(f"wounds ({wounds})", -params.wound_malus * wounds, "wounds"))
    if traumas:
        mods.append(Modifier(f"traumas ({traumas})", -params.trauma_malus * traumas, "traumas"))
    return tuple(mods)


def flip(reading: int) -> int:
    """The two digits swapped: 82 -> 28, 5 (05) -> 50, 00, 99 and doubles unchanged."""
    return (reading % 10) * 10 + reading // 10


@dataclass(frozen=True)
class SkillTest:
    """One test. ``result`` is the shared d100 result (``roll`` the face thrown, ``reading``
    00-99, ``target`` = base + modifiers, ``grade``); ``margin`` the margin of success as the
    seed reads it (the roll, or target - roll with ``margin_is_roll`` off; 0 on a failure);
    ``flipped_from`` the reading before a Moxie flip (None: not flipped)."""

    label: str
    result: D100Result
    margin: int
    flipped_from: int | None = None

    @property
    def grade(self) -> Grade:
        return self.result.grade

    @property
    def success(self) -> bool:
        return self.result.success

    @property
    def critical(self) -> bool:
        return self.result.critical

    @property
    def reading(self) -> int:
        return self.result.reading

    @property
    def target(self) -> int:
        return self.result.target

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return self.result.modifiers


def margin_of(reading: int, target: int, grade: Grade, params: EclipsePhaseParameters) -> int:
    if not grade.success:
        return 0
    return reading if params.margin_is_roll else max(0, target - reading)


def graded(label: str, result: D100Result, params: EclipsePhaseParameters) -> SkillTest:
    return SkillTest(label, result, margin_of(result.reading, result.target, result.grade, params))


def skill_test(base: int, rng: RandomSource, params: EclipsePhaseParameters, *,
               label: str = "test", modifiers: Sequence[Modifier] = (), difficulty_value: int = 0,
               strain: Strain = Strain()) -> SkillTest:
    """1d100 read 00-99 against ``base`` (a skill or an aptitude x n) + difficulty + the
    ``strain``'s wound and trauma maluses (one wound's ignored with a pain filter) +
    ``modifiers``. Raises InvalidModifier for a difficulty beyond 30."""
    mods = (difficulty(difficulty_value, params) + condition_modifiers(
        params, wounds=strain.wounds, traumas=strain.traumas, pain_filter=strain.pain_filter)
        + tuple(modifiers))
    return graded(label, d100_test(base, rng, rule=critical_rule(params), modifiers=mods), params)


def spend_moxie(test: SkillTest, moxie: int, params: EclipsePhaseParameters
                ) -> tuple[SkillTest, int]:
    """Flip the test's digits for one Moxie point: (the test re-graded, the points left).
    Raises NoMoxie with an empty pool, or when the test was flipped already."""
    if moxie < 1:
        raise NoMoxie("no_moxie_point", moxie=moxie)
    if test.flipped_from is not None:
        raise NoMoxie("test_was_flipped", moxie=moxie)
    reading = flip(test.reading)
    rule = critical_rule(params)
    result = replace(test.result, reading=reading, grade=rule.grade(reading, test.target))
    flipped = SkillTest(test.label, result, margin_of(reading, test.target, result.grade, params),
                        flipped_from=test.reading)
    return flipped, moxie - 1


Side = Literal["first", "second"]


def settle(first: tuple[Grade, int], second: tuple[Grade, int], params: EclipsePhaseParameters
           ) -> Side | None:
    """Who wins between two (grade, reading): None when neither succeeds or on a deadlock."""
    (ga, ra), (gb, rb) = first, second
    if not ga.success and not gb.success:
        return None
    if ga.success != gb.success:
        return "first" if ga.success else "second"
    ka = (ga is Grade.CRITICAL_SUCCESS and params.critical_beats_success, ra)
    kb = (gb is Grade.CRITICAL_SUCCESS and params.critical_beats_success, rb)
    if ka == kb:
        return None
    return "first" if ka > kb else "second"


@dataclass(frozen=True)
class Opposed:
    """``winner`` "first", "second" or None (both failed, or a deadlock)."""

    first: SkillTest
    second: SkillTest
    winner: Side | None


def opposed_test(first: SkillTest, second: SkillTest, params: EclipsePhaseParameters) -> Opposed:
    return Opposed(first, second, settle((first.grade, first.reading),
                                         (second.grade, second.reading), params))


def opposed_chances(first_target: int, second_target: int, params: EclipsePhaseParameters
                    ) -> dict[Side | None, Fraction]:
    """Exact chances of an opposed test, {"first", "second", None} (icepool, 10,000 pairs)."""
    rule = critical_rule(params)

    def outcome(fa: int, fb: int) -> str:
        ra, rb = rule.read(fa), rule.read(fb)
        won = settle((rule.grade(ra, first_target), ra), (rule.grade(rb, second_target), rb),
                     params)
        return won or "none"

    die = icepool.map(outcome, icepool.d100, icepool.d100)
    return {"first": Fraction(die.probability("first")),
            "second": Fraction(die.probability("second")),
            None: Fraction(die.probability("none"))}
