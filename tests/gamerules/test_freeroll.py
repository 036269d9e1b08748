"""The chat's free rolls (gamerules.freeroll): sums of dice, and a d100 test graded by each
system's rule, checked on all 100 faces against the rule the system's own tests use."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules import freeroll
from gamerules.d100 import CriticalBands, EclipseDoubles, Grade, RollUnder, grade_face
from gamerules.dice import DiceNotationError
from gamerules.eclipse_phase.checks import critical_rule as eclipse_rule
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.errors import RuleError
from gamerules.ew1.game import GAME_RULE
from gamerules.homebrew.checks import critical_rule as homebrew_rule
from gamerules.homebrew.params import HomebrewParameters


class Faces:
    """A random source that shows the given faces in turn."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def test_a_sum_of_dice_shows_every_die_and_its_total():
    thrown = freeroll.free_roll("/roll 2d6+3", Faces(4, 6), rule=RollUnder(), max_dice=50)
    assert (thrown.expression, [f.face for f in thrown.roll.faces], thrown.total) == (
        "2d6+3", [4, 6], 13)
    assert thrown.test is None and thrown.grade is None


@pytest.mark.parametrize("text", ["/roll d100 <= 55", "/roll 1d100<=55", "/ROLL  D100 <=  55 "])
def test_a_test_is_graded_against_its_target(text):
    thrown = freeroll.free_roll(text, Faces(40), rule=RollUnder(), max_dice=50)
    assert (thrown.test.target, thrown.total, thrown.grade) == (55, 40, Grade.SUCCESS)


RULES = {
    "ew1": GAME_RULE,
    "homebrew": homebrew_rule(HomebrewParameters()),
    "eclipse_phase": eclipse_rule(EclipsePhaseParameters()),
}


@pytest.mark.parametrize("system", sorted(RULES))
@pytest.mark.parametrize("target", [0, 1, 55, 99, 100])
def test_each_system_grades_all_100_faces_as_its_own_tests(system, target):
    rule = RULES[system]
    for face in range(1, 101):
        thrown = freeroll.free_roll(f"/roll d100 <= {target}", Faces(face), rule=rule,
                                    max_dice=50)
        assert thrown.grade == grade_face(face, target, rule), (system, face)


def test_the_systems_rules_are_the_seeds():
    """EW1: d100 <= N, no criticals; homebrew 1-5 / 96-100; Eclipse Phase 00-99 and doubles."""
    assert RULES["ew1"] == RollUnder()
    assert RULES["homebrew"] == CriticalBands(success_max=5, failure_min=96)
    assert RULES["eclipse_phase"] == EclipseDoubles(inclusive=False)
    grade = lambda system, face: freeroll.free_roll(  # noqa: E731
        "/roll d100 <= 55", Faces(face), rule=RULES[system], max_dice=50).grade
    assert [grade("ew1", f) for f in (3, 55, 56, 100)] == [
        Grade.SUCCESS, Grade.SUCCESS, Grade.FAILURE, Grade.FAILURE]
    assert [grade("homebrew", f) for f in (5, 55, 60, 96)] == [
        Grade.CRITICAL_SUCCESS, Grade.SUCCESS, Grade.FAILURE, Grade.CRITICAL_FAILURE]
    # Eclipse Phase: 100 reads 00 (critical success), 57 is not under 55, 55 (a double) not under
    # it either: a critical failure; 33 a double under it,
    # 66 a double over it, 99 always a critical failure
    assert [grade("eclipse_phase", f) for f in (100, 57, 55, 33, 66, 99, 54)] == [
        Grade.CRITICAL_SUCCESS, Grade.FAILURE, Grade.CRITICAL_FAILURE, Grade.CRITICAL_SUCCESS,
        Grade.CRITICAL_FAILURE, Grade.CRITICAL_FAILURE, Grade.SUCCESS]
    eclipse = freeroll.free_roll("/roll d100 <= 55", Faces(100), rule=RULES["eclipse_phase"],
                                 max_dice=50)
    assert (eclipse.total, eclipse.test.reading) == (100, 0)


@pytest.mark.parametrize(("text", "code", "key"), [
    ("/roll", "invalid_roll", "roll_empty"),
    ("/roll    ", "invalid_roll", "roll_empty"),
    ("/roll 60d6", "invalid_roll", "roll_too_many_dice"),
    ("/roll 1000d1000000", "invalid_dice", "dice_count_sides"),
    ("/roll 2d6 <= 7", "invalid_roll", "roll_test_d100_only"),
    ("/roll d100+5 <= 55", "invalid_roll", "roll_test_d100_only"),
    ("/roll d100 <= -3", "invalid_roll", "roll_bad_target"),
    ("/roll d100 <= 5000", "invalid_roll", "roll_bad_target"),
    ("/roll d100 <= fifty", "invalid_roll", "roll_bad_target"),
    ("/roll d100 <= ²", "invalid_roll", "roll_bad_target"),  # a digit to str.isdigit, not to int
    ("/roll d100 <= \u0665\u0665", "invalid_roll", "roll_bad_target"),  # Arabic-Indic digits
    ("/roll 4d6kh3", "invalid_dice", "dice_sums_only"),
    ("/roll banana", "invalid_dice", "dice_stray_text"),
])
def test_a_roll_that_cannot_be_thrown_is_refused_with_its_reason(text, code, key):
    with pytest.raises((freeroll.FreeRollError, DiceNotationError)) as refused:
        freeroll.free_roll(text, random.Random(1), rule=RollUnder(), max_dice=50)
    assert (refused.value.code, refused.value.key) == (code, key)
    assert refused.value.message  # the writer's words, with the limit where there is one


def test_the_limit_on_dice_is_the_callers():
    assert freeroll.parse("/roll 3d6", max_dice=3) == ("3d6", None)
    with pytest.raises(freeroll.FreeRollError) as refused:
        freeroll.parse("/roll 4d6", max_dice=3)
    assert refused.value.params == {"expression": "4d6", "count": 4, "max_dice": 3}


@pytest.mark.parametrize(("text", "command"), [
    ("/roll 1d6", True), ("  /roll 1d6", True), ("/roll", True), ("/rolling", False),
    ("roll 1d6", False), ("hello /roll 1d6", False)])
def test_what_is_a_command(text, command):
    assert freeroll.is_command(text) is command


@given(st.text(max_size=80))
def test_any_text_after_roll_is_thrown_or_refused_in_words(tail):
    """Whatever is typed after /roll: a throw within the limits, or a named refusal."""
    try:
        thrown = freeroll.free_roll("/roll " + tail, random.Random(0), rule=RollUnder(),
                                    max_dice=50)
    except RuleError as refused:
        assert refused.code in ("invalid_roll", "invalid_dice") and refused.message
        return
    assert len(thrown.roll.faces) <= 50
    assert thrown.test is None or 0 <= thrown.test.target <= freeroll.MAX_TARGET
