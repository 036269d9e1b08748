"""gamerules.d100: grades under each system's critical rule, exact chances, opposed tests."""

import json
from fractions import Fraction

import pytest

from gamerules.d100 import (HIGHEST_ROLL, LARGEST_MARGIN, CriticalBands, EclipseDoubles, Grade,
                            PerfectBelow, RollUnder, d100_test, grade_chances, grade_face,
                            opposed, opposed_chances, success_chance)
from gamerules.modifiers import Modifier
from tests.gamerules.fakes import FakeRandom

ALL_FACES = range(1, 101)


def test_grades_are_strings_the_journal_can_store():
    assert json.dumps([Grade.CRITICAL_SUCCESS, Grade.PERFECT]) == '["critical_success", "perfect"]'
    assert Grade("critical_failure") is Grade.CRITICAL_FAILURE
    assert [g for g in Grade if g.success] == [Grade.CRITICAL_SUCCESS, Grade.PERFECT, Grade.SUCCESS]
    assert [g for g in Grade if g.critical] == [Grade.CRITICAL_SUCCESS, Grade.PERFECT,
                                                Grade.CRITICAL_FAILURE]


# --- EW1: perfect strictly below 5 (seed 000, "Mécanismes de combat") ---------------------------

@pytest.mark.parametrize("target", [3, 50, 100])
def test_perfect_below_every_face(target):
    rule = PerfectBelow(threshold=5)
    for face in ALL_FACES:
        expected = (Grade.FAILURE if face > target else
                    Grade.PERFECT if face < 5 else Grade.SUCCESS)
        assert grade_face(face, target, rule) is expected, face


def test_perfect_below_4_and_5_boundary():
    rule = PerfectBelow(threshold=5)
    assert grade_face(4, 60, rule) is Grade.PERFECT
    assert grade_face(5, 60, rule) is Grade.SUCCESS
    assert grade_face(4, 3, rule) is Grade.FAILURE  # a perfect must hit first


def test_roll_under_strict_is_ew1_dodge():
    assert grade_face(14, 14, RollUnder(inclusive=False)) is Grade.FAILURE
    assert grade_face(13, 14, RollUnder(inclusive=False)) is Grade.SUCCESS
    assert grade_face(14, 14, RollUnder()) is Grade.SUCCESS
    assert grade_face(1, 14, RollUnder()) is Grade.SUCCESS  # no criticals at all


# --- homebrew: 1-5 and 96-100 (seed 002, "Critiques") ---------------------------------------------

@pytest.mark.parametrize(("face", "target", "grade"), [
    (5, 50, Grade.CRITICAL_SUCCESS), (6, 50, Grade.SUCCESS),
    (95, 95, Grade.SUCCESS), (96, 100, Grade.CRITICAL_FAILURE), (95, 50, Grade.FAILURE),
    (4, 3, Grade.CRITICAL_SUCCESS),  # 1-5 wins whatever the target
    (100, 100, Grade.CRITICAL_FAILURE),
    (50, 50, Grade.SUCCESS), (51, 50, Grade.FAILURE),
])
def test_critical_bands(face, target, grade):
    assert grade_face(face, target, CriticalBands()) is grade


# --- Eclipse Phase: 00-99, doubles (seed 001, "Succès / Échecs") ----------------------------------

@pytest.mark.parametrize(("face", "target", "reading", "grade"), [
    (100, 0, 0, Grade.CRITICAL_SUCCESS),  # 00 always a critical success
    (99, 100, 99, Grade.CRITICAL_FAILURE),  # 99 always a critical failure
    (33, 50, 33, Grade.CRITICAL_SUCCESS),  # a double under the skill
    (66, 50, 66, Grade.CRITICAL_FAILURE),  # a double above it
    (58, 60, 58, Grade.SUCCESS), (42, 60, 42, Grade.SUCCESS),
    (60, 60, 60, Grade.FAILURE),  # "inférieur": strictly below
    (61, 60, 61, Grade.FAILURE), (1, 60, 1, Grade.SUCCESS), (10, 60, 10, Grade.SUCCESS),
])
def test_eclipse_doubles(face, target, reading, grade):
    rule = EclipseDoubles()
    assert rule.read(face) == reading
    assert grade_face(face, target, rule) is grade


def test_eclipse_inclusive_variant_counts_the_target_as_success():
    assert grade_face(60, 60, EclipseDoubles(inclusive=True)) is Grade.SUCCESS
    assert grade_face(55, 55, EclipseDoubles(inclusive=True)) is Grade.CRITICAL_SUCCESS


def test_eclipse_has_ten_criticals_on_100_faces():
    rule = EclipseDoubles()
    criticals = [rule.read(f) for f in ALL_FACES if grade_face(f, 50, rule).critical]
    assert sorted(criticals) == [0, 11, 22, 33, 44, 55, 66, 77, 88, 99]


# --- rolling -------------------------------------------------------------------------------------

def test_d100_test_adds_the_modifiers_and_says_everything():
    mods = (Modifier("difficulty", -10, "gm"), Modifier("assist: Mira", 5, "assist"))
    result = d100_test(60, FakeRandom(55), rule=CriticalBands(), modifiers=mods)
    assert (result.base, result.target, result.reading, result.margin) == (60, 55, 55, 0)
    assert result.grade is Grade.SUCCESS and result.success and not result.critical
    assert result.modifiers == mods
    assert result.rule == "critical_bands"
    assert (result.roll.expression, result.roll.total) == ("1d100", 55)


def test_d100_test_journals_the_face_and_reads_it_for_eclipse():
    result = d100_test(40, FakeRandom(100), rule=EclipseDoubles())
    assert (result.roll.face_values, result.reading) == ([100], 0)
    assert result.grade is Grade.CRITICAL_SUCCESS


def test_d100_test_with_a_seeded_source_is_replayable(rng):
    import random
    first = d100_test(50, rng, rule=CriticalBands())
    again = d100_test(50, random.Random(1234), rule=CriticalBands())
    assert first == again


# --- exact chances -------------------------------------------------------------------------------

RULES = [RollUnder(), RollUnder(inclusive=False), PerfectBelow(), CriticalBands(), EclipseDoubles()]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("target", [-5, 0, 1, 5, 6, 50, 95, 96, 100, 130])
def test_grade_chances_are_the_count_of_faces(rule, target):
    chances = grade_chances(target, rule)
    assert set(chances) == set(Grade)
    assert sum(chances.values()) == 1
    for grade in Grade:
        count = sum(1 for f in ALL_FACES if grade_face(f, target, rule) is grade)
        assert chances[grade] == Fraction(count, 100)


def test_success_chance_examples():
    assert success_chance(50, CriticalBands()) == Fraction(1, 2)
    assert success_chance(0, CriticalBands()) == Fraction(5, 100)  # only the criticals
    assert success_chance(100, CriticalBands()) == Fraction(95, 100)
    assert success_chance(60, EclipseDoubles()) == Fraction(60, 100)  # 00-59
    assert success_chance(60, PerfectBelow()) == Fraction(60, 100)


# --- opposed tests -------------------------------------------------------------------------------

def rolled(face, target, rule=EclipseDoubles()):
    return d100_test(target, FakeRandom(face), rule=rule)


def test_opposed_highest_successful_roll_wins_the_seeds_example():
    # Seed 001: "un jet de 58 sous une compétence de 60 est une meilleure réussite qu'un jet de 42".
    assert opposed(rolled(58, 60), rolled(42, 60)).winner == "first"
    assert opposed(rolled(42, 60), rolled(58, 60)).winner == "second"


def test_opposed_a_critical_beats_a_higher_success_and_a_success_beats_a_failure():
    assert opposed(rolled(33, 60), rolled(58, 60)).winner == "first"
    assert opposed(rolled(70, 60), rolled(10, 60)).winner == "second"


def test_opposed_both_failing_or_an_exact_tie_is_a_deadlock():
    assert opposed(rolled(70, 60), rolled(80, 60)).winner is None
    assert opposed(rolled(42, 60), rolled(42, 50)).winner is None


def test_opposed_by_largest_margin():
    rule = CriticalBands()
    result = opposed(rolled(30, 40, rule), rolled(50, 80, rule), order=LARGEST_MARGIN)
    assert result.winner == "second" and result.order == LARGEST_MARGIN
    assert opposed(rolled(30, 40, rule), rolled(50, 80, rule), order=HIGHEST_ROLL).winner == "second"
    assert opposed(rolled(45, 60, rule), rolled(50, 60, rule), order=LARGEST_MARGIN).winner == "first"


@pytest.mark.parametrize(("a", "b"), [(60, 60), (30, 70)])
def test_opposed_chances_are_exact(a, b):
    rule = EclipseDoubles()
    chances = opposed_chances(a, b, rule)
    counts = {"first": 0, "second": 0, None: 0}
    for fa in ALL_FACES:
        for fb in ALL_FACES:
            counts[opposed(rolled(fa, a), rolled(fb, b)).winner] += 1
    assert chances == {k: Fraction(v, 10_000) for k, v in counts.items()}
    if a == b:
        assert chances["first"] == chances["second"]


class FirstFace:
    """Gives ``face`` to the first throw, the lowest face to every later one."""

    def __init__(self, face):
        self.face = face

    def randint(self, a, b):
        face, self.face = (self.face if self.face is not None else a), None
        return face


def test_perfect_below_grades_as_ew1_attacks_resolve_on_every_face():
    from gamerules.ew1.attacks import BRAWL, Combatant, resolve_attack
    from gamerules.ew1.params import EW1Parameters

    params = EW1Parameters()
    chars = {"FOR": 10, "TAI": 10, "DEX": 10, "DEF": 10, "INT": 10, "LUK": 10}
    attacker = Combatant(chars, {"brawl": 40}, level=1, luck=10)
    door = Combatant(chars, {}, level=0, fixed_reduction=0)
    rule = PerfectBelow(threshold=params.perfect_below)
    for face in ALL_FACES:
        outcome = resolve_attack(BRAWL, attacker, door, FirstFace(face), params)
        grade = grade_face(face, outcome.attack_score, rule)
        assert (outcome.hit, outcome.perfect) == (grade.success, grade is Grade.PERFECT), face


def test_rules_take_keywords_only():
    with pytest.raises(TypeError):
        PerfectBelow(5)
    assert PerfectBelow(threshold=3).grade(3, 50) is Grade.SUCCESS
