"""Tests. Seed 002, "Caractéristiques": "testées avec 1d100, et les sous-catégories avec 1d6";
"Critiques": 1-5 and 96-100; "Actions": an assist's bonus."""

import pytest

from gamerules.d100 import Grade
from gamerules.homebrew.checks import assist, characteristic_test, difficulty, sub_test
from gamerules.homebrew.params import HomebrewParameters
from gamerules.modifiers import Modifier
from tests.gamerules.fakes import FakeRandom

P = HomebrewParameters()


@pytest.mark.parametrize(("face", "grade"), [
    (5, Grade.CRITICAL_SUCCESS), (6, Grade.SUCCESS), (50, Grade.SUCCESS), (51, Grade.FAILURE),
    (95, Grade.FAILURE), (96, Grade.CRITICAL_FAILURE), (100, Grade.CRITICAL_FAILURE)])
def test_characteristic_test_at_50(face, grade):
    assert characteristic_test(50, FakeRandom(face), P).grade is grade


def test_95_vs_96_with_a_characteristic_of_100():
    assert characteristic_test(100, FakeRandom(95), P).grade is Grade.SUCCESS
    assert characteristic_test(100, FakeRandom(96), P).grade is Grade.CRITICAL_FAILURE


def test_5_vs_6_with_a_characteristic_of_3():
    assert characteristic_test(3, FakeRandom(5), P).grade is Grade.CRITICAL_SUCCESS
    assert characteristic_test(3, FakeRandom(6), P).grade is Grade.FAILURE


def test_gm_difficulty_and_assists_move_the_target():
    result = characteristic_test(50, FakeRandom(56), P, difficulty_value=-10,
                                 assists=[assist("Mira", 15), assist("Oro", 5)])
    assert result.target == 60 and result.success
    assert result.modifiers == (Modifier("difficulty", -10, "gm"),
                                Modifier("assist: Mira", 15, "assist"),
                                Modifier("assist: Oro", 5, "assist"))
    assert characteristic_test(50, FakeRandom(45), P, difficulty_value=-10).grade is Grade.FAILURE
    assert difficulty(0) == ()


def test_gm_bands_are_parameters():
    params = HomebrewParameters(critical_success_max=3, critical_failure_min=101)
    assert characteristic_test(50, FakeRandom(4), params).grade is Grade.SUCCESS
    assert characteristic_test(50, FakeRandom(100), params).grade is Grade.FAILURE


def test_sub_of_0_never_succeeds_alone_and_6_always():
    for face in range(1, 7):
        zero = sub_test(0, FakeRandom(face), P)
        six = sub_test(6, FakeRandom(face), P)
        assert (zero.success, six.success) == (False, True)
        assert (zero.grade, six.grade) == (Grade.FAILURE, Grade.SUCCESS)
        assert zero.roll.expression == "1d6" and zero.result == face


@pytest.mark.parametrize(("value", "face", "ok"), [(3, 3, True), (3, 4, False), (1, 1, True)])
def test_sub_test_is_d6_at_most_the_sub(value, face, ok):
    assert sub_test(value, FakeRandom(face), P).success is ok


def test_sub_test_with_an_assist_and_a_harder_die():
    helped = sub_test(0, FakeRandom(1), P, assists=[assist("Mira", 1)])
    assert helped.target == 1 and helped.success
    hard = sub_test(6, FakeRandom(7), P, sides=10)
    assert (hard.sides, hard.roll.expression, hard.success) == (10, "1d10", False)
    assert not sub_test(6, FakeRandom(6), P, difficulty_value=-1).success
    with pytest.raises(ValueError):
        sub_test(3, FakeRandom(), P, sides=1)
