"""gamerules.ew1.creation: steered rerolls and the 5-point redistribution.

Seed, "Distribution des caracs": weak sets are rerolled, "un écart type est appliqué pour
équilibrer le jeu", the band widens with each reroll; then "redistribuer jusqu'à 5 points entre
les caractéristiques, avec un maximum de 2 points ajoutés ou retirés d'une caractéristique
donnée". Creation sets are 16 d6 in the order FOR 3d6, DEF 3d6, TAI 2d6+6, INT 2d6+6, DEX 3d6,
LUK 3d6.
"""

import math
import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules.errors import RuleError
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.creation import (
    MAX_STEERING_ATTEMPTS, RedistributionError, band, steered_roll, sum_moments,
    validate_redistribution,
)
from gamerules.ew1.params import EW1Parameters
from tests.gamerules.fakes import FakeRandom

P = EW1Parameters()
BAND = {"band_sd": P.creation_band_sd, "band_step": P.creation_band_step}
SEED_RANGES = {"FOR": (3, 18), "DEF": (3, 18), "TAI": (8, 18), "INT": (8, 18), "DEX": (3, 18),
               "LUK": (3, 18)}
# Computed by hand, not by icepool: a d6 has mean 7/2 and variance 35/12.
# 4 x 3d6: mean 4 x 21/2 = 42, variance 4 x 35/4 = 35; 2 x (2d6+6): mean 2 x 13 = 26,
# variance 2 x 35/6 = 35/3.
SUM_MEAN = 68
SUM_SD = math.sqrt(35 + 35 / 3)  # sqrt(46.666...) ~ 6.83

LIMITS = {"total_max": P.redistribute_total, "per_characteristic_max":
          P.redistribute_per_characteristic}
VALUES = {"FOR": 12, "DEF": 10, "TAI": 14, "INT": 13, "DEX": 9, "LUK": 11}

ALL_ONES = [1] * 16  # 3 + 3 + 8 + 8 + 3 + 3 = 28: far below any band
ALL_THREES = [3] * 16  # 9 + 9 + 12 + 12 + 9 + 9 = 60: outside mean ± 1 sd, inside ± 1.5 sd
ALL_FOURS = [4] * 16  # 12 + 12 + 14 + 14 + 12 + 12 = 76: outside ± 1 sd, inside ± 1.5 sd
MIDDLE_SET = [3, 4, 4, 3, 4, 4, 3, 4, 3, 4, 3, 4, 4, 3, 4, 4]  # 11+11+13+13+11+11 = 70


def steer(*faces, reroll=0):
    rng = FakeRandom(*faces)
    result = steered_roll(rng, reroll=reroll, **BAND)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return result


def creation_values(draw_value):
    return {code: draw_value(st.integers(low, high)) for code, (low, high) in SEED_RANGES.items()}


# --- moments and band -------------------------------------------------------------------------

def test_sum_moments_are_68_and_the_square_root_of_46_and_two_thirds():
    mean, sd = sum_moments()
    assert mean == pytest.approx(SUM_MEAN)
    assert sd == pytest.approx(SUM_SD)


def test_first_roll_band_is_mean_plus_or_minus_one_sd():
    assert band(0, **BAND) == pytest.approx((1.0, SUM_MEAN - SUM_SD, SUM_MEAN + SUM_SD))


def test_each_reroll_widens_the_band_by_half_a_sd():
    assert band(2, **BAND) == pytest.approx((2.0, SUM_MEAN - 2 * SUM_SD, SUM_MEAN + 2 * SUM_SD))


@given(reroll=st.integers(min_value=0, max_value=10))
def test_the_band_widens_with_each_reroll(reroll):
    _, low, high = band(reroll, **BAND)
    _, next_low, next_high = band(reroll + 1, **BAND)
    assert next_low < low and high < next_high


def test_band_parameters_come_from_the_campaign():
    k, low, high = band(1, band_sd=Decimal(2), band_step=Decimal(1))
    assert (k, low, high) == pytest.approx((3.0, SUM_MEAN - 3 * SUM_SD, SUM_MEAN + 3 * SUM_SD))


# --- steered roll, scripted ---------------------------------------------------------------------

def test_a_set_inside_the_band_is_kept_at_once():
    result = steer(*MIDDLE_SET)
    assert result.values == {"FOR": 11, "DEF": 11, "TAI": 13, "INT": 13, "DEX": 11, "LUK": 11}
    assert (result.total, result.attempts) == (70, 1)


def test_a_set_outside_the_band_is_thrown_again():
    result = steer(*ALL_ONES, *MIDDLE_SET)
    assert result.attempts == 2
    assert result.total == 70


def test_a_set_of_76_is_refused_on_the_first_roll_and_kept_on_the_first_reroll():
    assert steer(*ALL_FOURS, *MIDDLE_SET, reroll=0).total == 70
    assert steer(*ALL_FOURS, reroll=1).total == 76


def test_a_set_of_60_is_refused_on_the_first_roll_and_kept_on_the_first_reroll():
    assert steer(*ALL_THREES, *MIDDLE_SET, reroll=0).total == 70
    assert steer(*ALL_THREES, reroll=1).total == 60


def test_the_accepted_set_keeps_its_rolls_and_band():
    result = steer(*MIDDLE_SET)
    assert list(result.rolls) == list(CODES)
    assert result.rolls["FOR"].face_values == [3, 4, 4]
    assert (result.k, result.low, result.high) == pytest.approx(
        (1.0, SUM_MEAN - SUM_SD, SUM_MEAN + SUM_SD))


def test_steering_stops_after_max_attempts_and_keeps_the_last_set():
    result = steer(*ALL_ONES * MAX_STEERING_ATTEMPTS)
    assert result.attempts == MAX_STEERING_ATTEMPTS
    assert result.total == 28


# --- steered roll, seeded -----------------------------------------------------------------------

@given(seed=st.integers(), reroll=st.integers(min_value=0, max_value=10))
def test_steered_values_stay_within_their_dice_ranges(seed, reroll):
    values = steered_roll(random.Random(seed), reroll=reroll, **BAND).values
    for code, (low, high) in SEED_RANGES.items():
        assert low <= values[code] <= high


@given(seed=st.integers(), reroll=st.integers(min_value=0, max_value=10))
def test_steered_sum_lies_within_the_band(seed, reroll):
    result = steered_roll(random.Random(seed), reroll=reroll, **BAND)
    assert result.total == sum(result.values.values())
    if result.attempts < MAX_STEERING_ATTEMPTS:
        assert result.low <= result.total <= result.high


@given(seed=st.integers(), reroll=st.integers(min_value=0, max_value=10))
def test_same_seed_steers_to_the_same_character(seed, reroll):
    first = steered_roll(random.Random(seed), reroll=reroll, **BAND)
    assert steered_roll(random.Random(seed), reroll=reroll, **BAND) == first


# --- redistribution: explicit cases -------------------------------------------------------------

def redistribute(deltas, values=VALUES, **limits):
    return validate_redistribution(values, deltas, **{**LIMITS, **limits})


def test_moving_2_from_for_to_dex_is_allowed():
    result = redistribute({"FOR": -2, "DEX": 2})
    assert result == {**VALUES, "FOR": 10, "DEX": 11}


def test_no_change_keeps_the_values():
    assert redistribute({}) == VALUES


def test_moving_5_points_in_total_is_allowed():
    result = redistribute({"FOR": -2, "DEF": -2, "TAI": -1, "DEX": 2, "LUK": 2, "INT": 1})
    assert sum(result.values()) == sum(VALUES.values())


def test_taking_3_from_one_characteristic_is_refused():
    with pytest.raises(RedistributionError, match="At most 2 points"):
        redistribute({"FOR": -3, "DEX": 2, "LUK": 1})


def test_adding_3_to_one_characteristic_is_refused():
    with pytest.raises(RedistributionError, match="At most 2 points"):
        redistribute({"FOR": 3, "DEX": -2, "LUK": -1})


def test_moving_6_points_in_total_is_refused():
    with pytest.raises(RedistributionError, match="At most 5 points"):
        redistribute({"FOR": -2, "DEF": -2, "TAI": -2, "INT": 2, "DEX": 2, "LUK": 2})


def test_unbalanced_changes_are_refused():
    with pytest.raises(RedistributionError, match="add up to 0"):
        redistribute({"DEX": 2})


def test_an_unknown_code_is_refused():
    with pytest.raises(RedistributionError, match="Unknown characteristics: STR"):
        redistribute({"STR": -1, "DEX": 1})


@pytest.mark.parametrize("deltas", [{"FOR": True, "DEX": -1}, {"FOR": 1.0, "DEX": -1.0},
                                    {"FOR": "1", "DEX": -1}])
def test_points_that_are_not_whole_numbers_are_refused(deltas):
    with pytest.raises(RedistributionError, match="whole numbers"):
        redistribute(deltas)


def test_a_characteristic_cannot_fall_below_1():
    with pytest.raises(RedistributionError, match="below 1"):
        redistribute({"FOR": -2, "DEX": 2}, values={**VALUES, "FOR": 2})


def test_limits_come_from_the_campaign():
    with pytest.raises(RedistributionError):
        redistribute({"FOR": -2, "DEX": 2}, per_characteristic_max=1)
    assert redistribute({"FOR": -3, "DEX": 3}, per_characteristic_max=3)["DEX"] == 12


def test_the_error_is_a_rule_error_with_a_stable_code():
    with pytest.raises(RuleError) as caught:
        redistribute({"DEX": 2})
    assert caught.value.code == "invalid_redistribution"


# --- redistribution: properties -----------------------------------------------------------------

DELTAS = st.dictionaries(st.sampled_from(CODES), st.integers(min_value=-5, max_value=5))


def within_the_rules(deltas):
    """The seed's limits, restated without the code under test."""
    moved = sum(d for d in deltas.values() if d > 0)
    return (sum(deltas.values()) == 0 and moved <= 5
            and all(abs(d) <= 2 for d in deltas.values()))


@given(data=st.data(), deltas=DELTAS)
def test_redistribution_never_breaks_the_limits(data, deltas):
    values = creation_values(data.draw)
    try:
        result = redistribute(deltas, values=values)
    except RedistributionError:
        return
    changes = {code: result[code] - values[code] for code in CODES}
    assert all(abs(c) <= 2 for c in changes.values())
    assert sum(c for c in changes.values() if c > 0) <= 5
    assert sum(result.values()) == sum(values.values())
    for code, (low, high) in SEED_RANGES.items():
        assert result[code] >= 1
        assert low - 2 <= result[code] <= high + 2


@given(data=st.data(), deltas=DELTAS)
def test_redistribution_refuses_exactly_what_the_rules_forbid(data, deltas):
    values = creation_values(data.draw)  # 3 or more each, so 2 taken never goes below 1
    if within_the_rules(deltas):
        assert redistribute(deltas, values=values) == {
            code: values[code] + deltas.get(code, 0) for code in CODES}
    else:
        with pytest.raises(RedistributionError):
            redistribute(deltas, values=values)
