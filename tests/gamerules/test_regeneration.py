"""gamerules.regeneration.accrue: PA and PV that come back with time, from a stored anchor."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules.regeneration import accrue

HOUR = 3600
PA_PERIOD = 2 * HOUR  # seed: 1 PA every 2 hours
PV_PERIOD = 6 * HOUR  # seed: 1 PV every 6 hours
T0 = 1_700_000_000


def test_gains_one_step_per_whole_period():
    result = accrue(value=5, cap=12, anchor=T0, now=T0 + 3 * PA_PERIOD, period=PA_PERIOD)
    assert result.value == 5 + 3
    assert result.gained == 3


def test_nothing_is_gained_before_a_whole_period():
    result = accrue(value=5, cap=12, anchor=T0, now=T0 + PA_PERIOD - 1, period=PA_PERIOD)
    assert (result.value, result.gained, result.anchor) == (5, 0, T0)
    assert result.next_at == T0 + PA_PERIOD


def test_anchor_moves_by_whole_periods_only_keeping_the_partial_period():
    partial = 25 * 60
    result = accrue(value=5, cap=12, anchor=T0, now=T0 + 2 * PA_PERIOD + partial, period=PA_PERIOD)
    assert result.anchor == T0 + 2 * PA_PERIOD
    assert result.next_at == T0 + 3 * PA_PERIOD


def test_never_regenerates_beyond_the_cap():
    result = accrue(value=10, cap=12, anchor=T0, now=T0 + 10 * PA_PERIOD, period=PA_PERIOD)
    assert result.value == 12
    assert result.gained == 2
    assert result.next_at is None


def test_anchor_still_moves_when_the_cap_is_reached():
    result = accrue(value=10, cap=12, anchor=T0, now=T0 + 10 * PA_PERIOD, period=PA_PERIOD)
    assert result.anchor == T0 + 10 * PA_PERIOD


def test_time_spent_at_the_cap_is_not_banked():
    full = accrue(value=12, cap=12, anchor=T0, now=T0 + 5 * PA_PERIOD, period=PA_PERIOD)
    # the player spends 1 PA right then; the next PA needs a whole new period
    later = accrue(value=full.value - 1, cap=12, anchor=full.anchor,
                   now=T0 + 6 * PA_PERIOD - 1, period=PA_PERIOD)
    assert later.value == 11
    assert later.next_at == T0 + 6 * PA_PERIOD


def test_value_above_the_cap_is_kept():
    result = accrue(value=15, cap=12, anchor=T0, now=T0 + 3 * PA_PERIOD, period=PA_PERIOD)
    assert (result.value, result.gained, result.next_at) == (15, 0, None)
    assert result.anchor == T0 + 3 * PA_PERIOD


def test_now_before_the_anchor_changes_nothing():
    result = accrue(value=5, cap=12, anchor=T0, now=T0 - 10 * PA_PERIOD, period=PA_PERIOD)
    assert (result.value, result.anchor, result.gained) == (5, T0, 0)


def test_pv_regenerates_one_point_every_six_hours():
    result = accrue(value=40, cap=100, anchor=T0, now=T0 + 24 * HOUR, period=PV_PERIOD)
    assert result.value == 40 + 24 // 6


def test_step_larger_than_one():
    result = accrue(value=0, cap=100, anchor=T0, now=T0 + 2 * PV_PERIOD, period=PV_PERIOD, step=5)
    assert result.value == 10


@pytest.mark.parametrize("period", [0, -1, -PA_PERIOD])
def test_period_not_positive_raises_value_error(period):
    with pytest.raises(ValueError):
        accrue(value=5, cap=12, anchor=T0, now=T0 + PA_PERIOD, period=period)


def test_decimal_pa_is_capped_after_one_period():
    result = accrue(value=Decimal("11.5"), cap=12, anchor=T0, now=T0 + PA_PERIOD, period=PA_PERIOD)
    assert result.value == Decimal("12")
    assert result.gained == Decimal("0.5")
    assert result.next_at is None


def test_decimal_pa_below_the_cap_keeps_its_half_point():
    result = accrue(value=Decimal("9.5"), cap=12, anchor=T0, now=T0 + PA_PERIOD, period=PA_PERIOD)
    assert result.value == Decimal("10.5")
    assert result.next_at == T0 + 2 * PA_PERIOD


values = st.integers(min_value=0, max_value=40) | st.decimals(
    min_value=0, max_value=40, places=1, allow_nan=False, allow_infinity=False)


@given(value=values, cap=st.integers(min_value=0, max_value=30),
       anchor=st.integers(min_value=0, max_value=2**40),
       period=st.integers(min_value=1, max_value=7 * 24 * HOUR),
       dt1=st.integers(min_value=0, max_value=60 * 24 * HOUR),
       dt2=st.integers(min_value=0, max_value=60 * 24 * HOUR),
       step=st.sampled_from([1, 2, Decimal("0.5")]))
def test_accruing_at_t1_then_t2_equals_accruing_once_at_t2(value, cap, anchor, period, dt1, dt2,
                                                           step):
    t1, t2 = anchor + dt1, anchor + dt1 + dt2
    first = accrue(value=value, cap=cap, anchor=anchor, now=t1, period=period, step=step)
    twice = accrue(value=first.value, cap=cap, anchor=first.anchor, now=t2, period=period, step=step)
    once = accrue(value=value, cap=cap, anchor=anchor, now=t2, period=period, step=step)
    assert (twice.value, twice.anchor, twice.next_at) == (once.value, once.anchor, once.next_at)
    assert first.gained + twice.gained == once.gained


@given(value=values, cap=st.integers(min_value=0, max_value=30),
       period=st.integers(min_value=1, max_value=10**6),
       dt=st.integers(min_value=0, max_value=10**8))
def test_accrue_invariants(value, cap, period, dt):
    result = accrue(value=value, cap=cap, anchor=T0, now=T0 + dt, period=period)
    assert result.value >= value
    assert result.value <= max(value, cap)
    assert (result.anchor - T0) % period == 0
    assert 0 <= T0 + dt - result.anchor < period
