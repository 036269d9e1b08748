"""Tests read 00-99, success strictly below, doubles, 00 and 99, difficulty, wounds, margin,
Moxie, opposed tests (seed 001, "Succès / Échecs")."""

from collections import Counter
from fractions import Fraction

import pytest

from gamerules.d100 import Grade
from gamerules.eclipse_phase.checks import (Strain, flip, opposed_chances, opposed_test,
                                            skill_test, spend_moxie)
from gamerules.eclipse_phase.errors import InvalidModifier, NoMoxie
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from tests.gamerules.eclipse_phase.helpers import P
from tests.gamerules.fakes import FakeRandom

INCLUSIVE = EclipsePhaseParameters(success_inclusive=True)


def roll_test(base, face, params=P, **kw):
    return skill_test(base, FakeRandom(face), params, **kw)


def test_the_die_reads_00_to_99_and_a_face_of_100_is_00():
    assert roll_test(50, 100).reading == 0
    assert roll_test(50, 1).reading == 1
    assert roll_test(50, 99).reading == 99


@pytest.mark.parametrize("target", [13, 37, 50, 60, 81])
def test_a_roll_equal_to_the_target_fails_strictly_below_by_default(target):
    assert roll_test(target, target).grade is Grade.FAILURE
    assert roll_test(target, target - 1).grade is Grade.SUCCESS
    assert roll_test(target, target, INCLUSIVE).grade is Grade.SUCCESS  # parameter


@pytest.mark.parametrize("target", [-30, -1, *range(0, 101), 130])
def test_00_always_critical_success_and_99_always_critical_failure_at_every_target(target):
    assert roll_test(target, 100).grade is Grade.CRITICAL_SUCCESS
    assert roll_test(target, 99).grade is Grade.CRITICAL_FAILURE
    assert roll_test(target, 100, INCLUSIVE).grade is Grade.CRITICAL_SUCCESS
    assert roll_test(target, 99, INCLUSIVE).grade is Grade.CRITICAL_FAILURE


@pytest.mark.parametrize("double", [11, 22, 33, 44, 55, 66, 77, 88])
def test_doubles_on_both_sides_of_the_target(double):
    assert roll_test(double + 1, double).grade is Grade.CRITICAL_SUCCESS
    assert roll_test(double - 1, double).grade is Grade.CRITICAL_FAILURE
    assert roll_test(double, double).grade is Grade.CRITICAL_FAILURE  # not under: "inférieur"
    assert roll_test(double, double, INCLUSIVE).grade is Grade.CRITICAL_SUCCESS


def test_difficulty_from_minus_30_to_plus_30():
    assert roll_test(50, 75, difficulty_value=30).target == 80
    assert roll_test(50, 5, difficulty_value=-30).target == 20
    with pytest.raises(InvalidModifier) as info:
        roll_test(50, 5, difficulty_value=40)
    assert info.value.code == "ep_invalid_modifier" and info.value.params["max"] == 30


def test_every_wound_and_trauma_is_minus_10():
    result = roll_test(60, 30, strain=Strain(wounds=2, traumas=1))
    assert result.target == 30 and result.grade is Grade.FAILURE
    assert [(m.label, m.value) for m in result.modifiers] == [("wounds (2)", -20),
                                                             ("traumas (1)", -10)]


def test_margin_is_the_roll_a_higher_success_is_better():
    # "un jet de 58 sous une compétence de 60 est une meilleure réussite qu'un jet de 42"
    assert roll_test(60, 58).margin == 58 and roll_test(60, 42).margin == 42
    assert roll_test(60, 70).margin == 0
    assert roll_test(60, 42, EclipsePhaseParameters(margin_is_roll=False)).margin == 18


def test_moxie_flips_the_digits_and_spends_a_point():
    assert [flip(r) for r in (82, 54, 5, 0, 99, 33)] == [28, 45, 50, 0, 99, 33]
    failed = roll_test(40, 82)
    assert failed.grade is Grade.FAILURE
    flipped, left = spend_moxie(failed, 2, P)
    assert (flipped.reading, flipped.grade, flipped.margin, left) == (28, Grade.SUCCESS, 28, 1)
    assert flipped.flipped_from == 82 and flipped.result.roll.total == 82  # the journal's face
    with pytest.raises(NoMoxie):
        spend_moxie(flipped, 1, P)  # once per test
    with pytest.raises(NoMoxie) as info:
        spend_moxie(failed, 0, P)
    assert info.value.code == "ep_no_moxie"


def test_opposed_highest_success_wins_critical_beats_plain_and_ties_deadlock():
    a, b = roll_test(60, 50), roll_test(60, 40)
    assert opposed_test(a, b, P).winner == "first"
    assert opposed_test(b, a, P).winner == "second"
    assert opposed_test(roll_test(60, 22), roll_test(60, 58), P).winner == "first"  # critical 22 > 58
    plain_first = EclipsePhaseParameters(critical_beats_success=False)
    assert opposed_test(roll_test(60, 22), roll_test(60, 58), plain_first).winner == "second"
    assert opposed_test(roll_test(60, 50), roll_test(70, 50), P).winner is None  # tie: deadlock
    assert opposed_test(roll_test(60, 70), roll_test(60, 65), P).winner is None  # both fail
    assert opposed_test(roll_test(60, 70), roll_test(60, 5), P).winner == "second"


def test_opposed_chances_match_brute_force():
    targets = (45, 30)
    counts = Counter()
    for fa in range(1, 101):
        for fb in range(1, 101):
            counts[opposed_test(roll_test(targets[0], fa), roll_test(targets[1], fb), P).winner] += 1
    exact = opposed_chances(*targets, P)
    assert exact == {k: Fraction(counts[k], 10000) for k in ("first", "second", None)}
    assert sum(exact.values()) == 1
