"""gamerules.ew1.characteristics: creation dice (seed, "Caractéristiques avec tirage aléatoire")."""

import random

from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1.characteristics import CODES, CREATION_DICE, roll_characteristics
from tests.gamerules.fakes import FakeRandom

SEED_DICE = {"FOR": "3d6", "DEF": "3d6", "TAI": "2d6+6", "INT": "2d6+6", "DEX": "3d6", "LUK": "3d6"}
SEED_RANGES = {"FOR": (3, 18), "DEF": (3, 18), "TAI": (8, 18), "INT": (8, 18), "DEX": (3, 18),
               "LUK": (3, 18)}


def test_creation_dice_are_the_seed_dice():
    assert CREATION_DICE == SEED_DICE
    assert CODES == ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")


def test_characteristics_are_rolled_in_order_from_the_source():
    # FOR 3d6, DEF 3d6, TAI 2d6+6, INT 2d6+6, DEX 3d6, LUK 3d6: 16 dice
    rng = FakeRandom(1, 2, 3,  6, 6, 6,  1, 1,  6, 5,  2, 2, 2,  4, 4, 5)
    values = roll_characteristics(rng).values
    assert values == {"FOR": 6, "DEF": 18, "TAI": 8, "INT": 17, "DEX": 6, "LUK": 13}
    assert rng.exhausted
    assert rng.calls == [(1, 6)] * 16


def test_each_characteristic_keeps_its_roll():
    rolls = roll_characteristics(FakeRandom(*[3] * 16)).rolls
    assert list(rolls) == list(CODES)
    assert rolls["TAI"].face_values == [3, 3]
    assert rolls["TAI"].constant == 6


@given(seed=st.integers())
def test_rolled_characteristics_are_within_the_seed_ranges(seed):
    values = roll_characteristics(random.Random(seed)).values
    for code, (low, high) in SEED_RANGES.items():
        assert low <= values[code] <= high


@given(seed=st.integers())
def test_same_seed_rolls_the_same_character(seed):
    assert (roll_characteristics(random.Random(seed)).values
            == roll_characteristics(random.Random(seed)).values)
