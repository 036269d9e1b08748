"""gamerules.ew1.daily: the game day in the campaign's time zone and the daily PA cap."""

from datetime import date, datetime, timedelta, UTC
from decimal import Decimal

import pytest

from gamerules.ew1.daily import daily_spend, game_day, spent_on
from gamerules.ew1.errors import DailyPACapReached
from gamerules.ew1.params import EW1Parameters

UTC = UTC


def test_the_default_cap_is_the_seed_example_day_of_24_pa_in_utc():
    # "12 PA par jour" in the pool, 1 PA every 2 hours: the seed's example day "avec 24 PA".
    params = EW1Parameters()
    assert params.daily_pa_cap == 24 == params.pa_base + 24 // params.pa_regen_hours
    assert params.game_day_time_zone == "UTC"


@pytest.mark.parametrize(("instant", "zone", "day"), [
    (datetime(2026, 3, 28, 22, 59, tzinfo=UTC), "Europe/Paris", date(2026, 3, 28)),  # 23:59 CET
    (datetime(2026, 3, 28, 23, 0, tzinfo=UTC), "Europe/Paris", date(2026, 3, 29)),   # midnight
    (datetime(2026, 3, 29, 21, 59, tzinfo=UTC), "Europe/Paris", date(2026, 3, 29)),  # 23:59 CEST
    (datetime(2026, 3, 29, 22, 0, tzinfo=UTC), "Europe/Paris", date(2026, 3, 30)),
    (datetime(2026, 10, 24, 22, 0, tzinfo=UTC), "Europe/Paris", date(2026, 10, 25)),
    (datetime(2026, 10, 25, 22, 59, tzinfo=UTC), "Europe/Paris", date(2026, 10, 25)),  # 23:59 CET
    (datetime(2026, 10, 25, 23, 0, tzinfo=UTC), "Europe/Paris", date(2026, 10, 26)),
    (datetime(2026, 3, 28, 23, 30, tzinfo=UTC), "UTC", date(2026, 3, 28)),
])
def test_the_game_day_is_the_local_date(instant, zone, day):
    assert game_day(instant, zone) == day


def test_a_naive_instant_is_refused():
    with pytest.raises(ValueError):
        game_day(datetime(2026, 3, 28, 12, 0), "UTC")


def test_another_days_count_is_zero_today():
    today = date(2026, 3, 29)
    assert spent_on(today, spent=Decimal("7.5"), spent_day=today) == Decimal("7.5")
    assert spent_on(today, spent=Decimal("7.5"), spent_day=today - timedelta(days=1)) == 0
    assert spent_on(today, spent=Decimal("7.5"), spent_day=None) == 0


def test_a_spend_that_fits_exactly_is_allowed_and_counted():
    today = date(2026, 3, 29)
    spend = daily_spend(cost=Decimal("0.5"), spent=Decimal("23.5"), spent_day=today,
                        today=today, cap=24)
    assert (spend.day, spend.before, spend.after, spend.cap) == (today, Decimal("23.5"), 24, 24)


def test_a_spend_past_the_cap_is_refused_with_the_numbers():
    today = date(2026, 3, 29)
    with pytest.raises(DailyPACapReached) as info:
        daily_spend(cost=Decimal("1"), spent=Decimal("23.5"), spent_day=today, today=today,
                    cap=24)
    assert info.value.code == "daily_pa_cap_reached"
    assert (info.value.spent, info.value.cap) == (Decimal("23.5"), 24)


def test_yesterdays_full_count_does_not_limit_today():
    today = date(2026, 3, 29)
    spend = daily_spend(cost=Decimal("2"), spent=Decimal("24"), spent_day=date(2026, 3, 28),
                        today=today, cap=24)
    assert (spend.day, spend.before, spend.after) == (today, 0, 2)


def test_a_cap_of_zero_is_no_cap():
    today = date(2026, 3, 29)
    spend = daily_spend(cost=Decimal("2"), spent=Decimal("999"), spent_day=today, today=today,
                        cap=0)
    assert spend.after == Decimal("1001")


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/New_York", "UTC", "Asia/Kolkata"])
def test_a_known_time_zone_is_accepted(zone):
    assert EW1Parameters.from_overrides({"game_day_time_zone": zone}).game_day_time_zone == zone


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", " UTC", "../etc/passwd", "/etc/localtime",
                                  3, None, "Europe/Paris\x00"])
def test_an_unknown_time_zone_is_refused(zone):
    from gamerules.errors import ParameterError

    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({"game_day_time_zone": zone})
    assert set(info.value.errors) == {"game_day_time_zone"}


@pytest.mark.parametrize(("raw", "ok"), [(0, True), (1000, True), (1001, False), (-1, False)])
def test_the_daily_cap_bounds(raw, ok):
    from gamerules.errors import ParameterError

    if ok:
        assert EW1Parameters.from_overrides({"daily_pa_cap": raw}).daily_pa_cap == raw
    else:
        with pytest.raises(ParameterError):
            EW1Parameters.from_overrides({"daily_pa_cap": raw})
