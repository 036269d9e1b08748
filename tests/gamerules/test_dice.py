"""gamerules.dice: notation, rolling with an injected source, bounds, exact distributions."""

import itertools
import random
from collections import Counter

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules import dice
from gamerules.dice import DiceNotationError
from tests.gamerules.fakes import FakeRandom

# Every expression the EW1 seed writes, with the same die built in icepool.
SEED_EXPRESSIONS = {
    "1d100": icepool.d100,
    "3d6": 3 @ icepool.d6,
    "2d6+6": 2 @ icepool.d6 + 6,
    "2d6+1": 2 @ icepool.d6 + 1,
    "-1d4": -icepool.d4,
    "1d3": icepool.d3,
    "+1d3+1": icepool.d3 + 1,
    "-1d6": -icepool.d6,
    "+2d6+4": 2 @ icepool.d6 + 4,
}

BAD_NOTATION = ["abc", "4d6kh3", "0d6", "1d1", "", "   ", None, "1d6*2", "1d6/2", "1.5",
                "1d6+1.5", "101d6", "1d1001", "1d6!", "1d6,2"]


# --- parsing and rolling -------------------------------------------------------------------

@pytest.mark.parametrize(("expression", "faces", "sides", "total"), [
    ("1d100", [37], [100], 37),
    ("3d6", [1, 2, 3], [6, 6, 6], 1 + 2 + 3),
    ("2d6+6", [6, 6], [6, 6], 6 + 6 + 6),
    ("2d6+1", [1, 1], [6, 6], 1 + 1 + 1),
    ("-1d4", [3], [4], -3),
    ("1d3", [2], [3], 2),
    ("+1d3+1", [3], [3], 3 + 1),
])
def test_roll_adds_signed_faces_and_constant(expression, faces, sides, total):
    rng = FakeRandom(*faces)
    result = dice.roll(expression, rng)
    assert result.total == total
    assert result.face_values == faces
    assert rng.calls == [(1, s) for s in sides]
    assert rng.exhausted


def test_negative_dice_keep_their_face_and_carry_the_sign():
    result = dice.roll("-1d4", FakeRandom(3))
    assert result.faces == (dice.DieFace(sides=4, face=3, sign=-1),)
    assert result.constant == 0


def test_constant_is_reported_apart_from_the_faces():
    result = dice.roll("2d6+6", FakeRandom(2, 5))
    assert result.constant == 6
    assert [f.sides for f in result.faces] == [6, 6]


def test_subtracted_constant_lowers_the_total():
    assert dice.roll("2d6-1", FakeRandom(1, 1)).total == 1


def test_roll_records_the_normalised_expression():
    assert dice.roll(" 2D6 + 6 ", FakeRandom(1, 1)).expression == "2d6+6"


def test_validate_returns_the_normalised_expression():
    assert dice.validate("1D8 + 2") == "1d8+2"


def test_d100_helper_rolls_one_percentile_die():
    rng = FakeRandom(100)
    assert dice.d100(rng).total == 100
    assert rng.calls == [(1, 100)]


@pytest.mark.parametrize("expression", BAD_NOTATION)
def test_bad_notation_raises_dice_notation_error(expression):
    with pytest.raises(DiceNotationError):
        dice.parse(expression)


@pytest.mark.parametrize("expression", BAD_NOTATION)
def test_bad_notation_is_refused_by_roll_bounds_and_validate(expression):
    for call in (lambda: dice.roll(expression, FakeRandom()), lambda: dice.bounds(expression),
                 lambda: dice.validate(expression)):
        with pytest.raises(DiceNotationError):
            call()


def test_dice_notation_error_is_a_value_error():
    assert issubclass(DiceNotationError, ValueError)


# --- bounds ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("expression", "expected"), [
    ("1d100", (1, 100)), ("3d6", (3, 18)), ("2d6+6", (8, 18)), ("2d6+1", (3, 13)),
    ("-1d4", (-4, -1)), ("1d3", (1, 3)), ("+1d3+1", (2, 4)), ("5", (5, 5)),
])
def test_bounds_are_the_smallest_and_largest_totals(expression, expected):
    assert dice.bounds(expression) == expected


@pytest.mark.parametrize("expression", SEED_EXPRESSIONS)
def test_bounds_match_icepool_min_and_max(expression):
    die = SEED_EXPRESSIONS[expression]
    assert dice.bounds(expression) == (die.min_outcome(), die.max_outcome())


# --- exact distributions -----------------------------------------------------------------------

@pytest.mark.parametrize("expression", SEED_EXPRESSIONS)
def test_every_face_combination_gives_icepool_distribution(expression):
    """Roll every possible sequence of faces once: the totals must have icepool's exact counts."""
    sides = [t.sides for t in dice.parse(expression) for _ in range(t.count)]
    totals = Counter(
        dice.roll(expression, FakeRandom(*faces)).total
        for faces in itertools.product(*(range(1, s + 1) for s in sides))
    )
    assert totals == dict(SEED_EXPRESSIONS[expression])


def test_d100_shows_each_face_1_to_100():
    assert [dice.d100(FakeRandom(face)).total for face in range(1, 101)] == list(range(1, 101))
    assert list(icepool.d100.outcomes()) == list(range(1, 101))


def test_d100_with_a_real_source_covers_exactly_faces_1_to_100():
    rng = random.Random(2024)
    seen = {dice.d100(rng).total for _ in range(5000)}
    assert seen == set(range(1, 101))


def test_3d6_sampled_frequencies_are_close_to_icepool():
    rng = random.Random(7)
    n = 20_000
    counts = Counter(dice.roll("3d6", rng).total for _ in range(n))
    die = 3 @ icepool.d6
    distance = sum(abs(counts[o] / n - die.probability(o)) for o in die.outcomes()) / 2
    assert distance < 0.02
    assert set(counts) <= set(die.outcomes())


# --- injected random source --------------------------------------------------------------------

def test_same_seed_gives_the_same_roll():
    assert dice.roll("3d6+2", random.Random(99)) == dice.roll("3d6+2", random.Random(99))


def test_rolling_never_touches_the_global_random_source(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the global random source was used")

    monkeypatch.setattr(random, "randint", forbidden)
    monkeypatch.setattr(random, "random", forbidden)
    assert dice.roll("2d6+6", random.Random(1)).total in range(8, 19)


@given(seed=st.integers(), expression=st.sampled_from(sorted(SEED_EXPRESSIONS)))
def test_seeded_totals_stay_within_bounds(seed, expression):
    low, high = dice.bounds(expression)
    result = dice.roll(expression, random.Random(seed))
    assert low <= result.total <= high
    assert result.total == sum(f.sign * f.face for f in result.faces) + result.constant


# Issue 8, item 9: a space may separate terms, never the digits or letters of one term.
@pytest.mark.parametrize("expression", ["1d20 5", "1d6 2", "1 d6", "1d 6", "2d6+1 0", "1d4\t1",
                                        " 1d6 +1 2"])
def test_a_space_inside_a_term_is_refused_not_glued(expression):
    with pytest.raises(DiceNotationError, match="splits a term") as refused:
        dice.parse(expression)
    assert refused.value.code == "invalid_dice"
    with pytest.raises(DiceNotationError):
        dice.roll(expression, FakeRandom())


@pytest.mark.parametrize("expression, normalised", [
    ("2d6 + 1", "2d6+1"), (" 1d20 ", "1d20"), ("- 1d4", "-1d4"), ("1d8 +2", "1d8+2"),
    ("3d6 - 2", "3d6-2"), ("( 1d6 + 1 )", "(1d6+1)"),
])
def test_spaces_between_terms_are_still_accepted(expression, normalised):
    assert dice.validate(expression) == normalised


@pytest.mark.django_db
def test_the_admin_validator_refuses_an_inner_space_with_the_reason():
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from ew1.models import ItemTemplate

    item = ItemTemplate(name="Typo sword", kind="melee", damage_dice="1d6 2")
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        item.full_clean()  # in the reader's language (issue 19): here English
    assert "splits a term" in str(refused.value.message_dict["damage_dice"])


# Issue 19, item 3: each refusal says what is wrong in the writer's terms, not the parser's.
@pytest.mark.parametrize("expression,key,params", [
    ("", "dice_empty", {}),
    ("2d6+", "dice_ends_early", {"expression": "2d6+", "last": "2d6+"}),
    ("2d6++", "dice_ends_early", {"expression": "2d6++", "last": "2d6++"}),
    ("2d", "dice_no_sides", {"expression": "2d"}),
    ("(1d6", "dice_unclosed", {"expression": "(1d6"}),
    ("1d6,2", "dice_stray_text", {"expression": "1d6,2", "text": ",", "position": 4}),
    ("abc", "dice_stray_text", {"expression": "abc", "text": "abc", "position": 1}),
    ("101d6", "dice_count_sides", {"expression": "101d6", "max_dice": 100, "max_sides": 1000}),
    ("4d6kh3", "dice_sums_only", {"expression": "4d6kh3"}),
    ("1d20 5", "dice_space_in_term", {"expression": "1d20 5", "before": "0", "after": "5"}),
])
def test_a_refusal_names_what_is_wrong(expression, key, params):
    with pytest.raises(DiceNotationError) as refused:
        dice.parse(expression)
    error = refused.value
    assert (error.code, error.key, error.params) == ("invalid_dice", key, params)
    for internal in ("Token", "$END", "expected", "RollSyntaxError", "col "):
        assert internal not in error.message, (expression, error.message)


@pytest.mark.parametrize("expression", BAD_NOTATION)
def test_every_bad_notation_is_a_rule_error_with_a_message(expression):
    from gamerules.errors import RuleError

    with pytest.raises(RuleError) as refused:
        dice.parse(expression)
    assert refused.value.code == "invalid_dice" and refused.value.message
