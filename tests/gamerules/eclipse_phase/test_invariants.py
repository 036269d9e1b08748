"""Invariants over many inputs (Hypothesis): flips, armour, wounds, monotony of the odds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from gamerules.d100 import Grade
from gamerules.eclipse_phase.checks import critical_rule, flip, skill_test, spend_moxie
from gamerules.eclipse_phase.gear import DamageType
from gamerules.eclipse_phase.health import through_armour, wounds_from
from tests.gamerules.eclipse_phase.helpers import P
from tests.gamerules.fakes import FakeRandom


@given(st.integers(0, 99))
def test_flipping_twice_gives_the_roll_back_and_keeps_doubles(reading):
    assert flip(flip(reading)) == reading
    assert (flip(reading) == reading) == (reading % 11 == 0)


@given(st.integers(1, 100), st.integers(-50, 150))
def test_a_moxie_flip_grades_the_flipped_reading_and_keeps_the_target(face, target):
    test = skill_test(target, FakeRandom(face), P)
    flipped, left = spend_moxie(test, 1, P)
    assert left == 0 and flipped.target == test.target
    assert flipped.grade is critical_rule(P).grade(flip(test.reading), target)


@given(st.integers(1, 100), st.integers(-50, 150))
def test_margin_is_the_roll_on_success_zero_otherwise(face, target):
    test = skill_test(target, FakeRandom(face), P)
    assert test.margin == (test.reading if test.success else 0)
    if test.success and test.grade is not Grade.CRITICAL_SUCCESS:
        assert test.reading < target


@given(st.integers(0, 80), st.integers(0, 30), st.integers(-20, 20), st.booleans(),
       st.sampled_from(list(DamageType)))
def test_damage_after_armour_never_negative_never_above_dv(dv, armour, ap, ignore, kind):
    step = through_armour(dv, kind, armour, ap, ignore_armour=ignore)
    assert 0 <= step.damage <= dv
    assert step.damage >= through_armour(dv, kind, armour, 0, ignore_armour=ignore).damage


@settings(max_examples=200)
@given(st.integers(0, 100), st.integers(1, 20))
def test_wounds_grow_with_damage_one_step_at_a_time(damage, wt):
    assert 0 <= wounds_from(damage + 1, wt, P) - wounds_from(damage, wt, P) <= 1
    assert wounds_from(damage, wt, P) * wt < max(damage, 1)
