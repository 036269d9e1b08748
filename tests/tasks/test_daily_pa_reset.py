"""The daily PA reset beat (issue 8, item 22): one reset per local day in the campaign's time
zone, never two, never none, across DST changes in Europe/Paris, after a beat down for a day,
and with two beats; a constant number of statements whatever the number of characters."""

from datetime import date, datetime, timedelta, UTC
from decimal import Decimal

import pytest
from django.conf import settings

from config.celery import app
from ew1.daily_pa import charge_pa, daily_pa_reset
from ew1.models import EternalWarSheet
from ew1.tasks import reset_daily_pa
from tests import factories

pytestmark = pytest.mark.django_db

UTC = UTC
TICK = timedelta(minutes=10)
TASK = "characters.tasks.reset_daily_pa"


def spend(sheet_pk: int, now: datetime, cost=Decimal("0.5")) -> EternalWarSheet:
    """A spend through the service's own path (charge_pa on the row, then saved)."""
    sheet = EternalWarSheet.objects.select_related("character__campaign").get(pk=sheet_pk)
    charge_pa(sheet, cost, params=sheet.character.campaign.parameters, now=now)
    sheet.save(update_fields=["pa", "pa_spent_today", "pa_spent_day"])
    return sheet


def play_through(sheet_pk: int, start: datetime, end: datetime):
    """Every 10 minutes from ``start`` to ``end``: the beat runs, then the character spends
    0.5 PA. Returns (instant, count before the reset) for each tick where the beat reset."""
    resets, now = [], start
    while now <= end:
        before = EternalWarSheet.objects.get(pk=sheet_pk).pa_spent_today
        if daily_pa_reset(now=now):
            resets.append((now, before))
        spend(sheet_pk, now)
        now += TICK
    return resets


@pytest.fixture
def paris_sheet(alice):
    paris = factories.campaign(name="Paris", daily_pa_cap=1000, game_day_time_zone="Europe/Paris")
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0),
                               pa=Decimal("9999"))
    return hero.pk


def test_spring_forward_a_23_hour_day_is_reset_once_at_each_local_midnight(paris_sheet):
    # 29 March 2026: Paris goes from UTC+1 to UTC+2 at 02:00 local.
    resets = play_through(paris_sheet, datetime(2026, 3, 28, 11, 0, tzinfo=UTC),
                          datetime(2026, 3, 30, 11, 0, tzinfo=UTC))
    assert resets == [
        (datetime(2026, 3, 28, 23, 0, tzinfo=UTC), Decimal("36")),  # 00:00 CET, 12 h of ticks
        (datetime(2026, 3, 29, 22, 0, tzinfo=UTC), Decimal("69")),  # 00:00 CEST: 23 h x 3 PA
    ]
    assert EternalWarSheet.objects.get(pk=paris_sheet).pa_spent_day == date(2026, 3, 30)


def test_fall_back_a_25_hour_day_is_reset_once_at_each_local_midnight(paris_sheet):
    # 25 October 2026: Paris goes from UTC+2 to UTC+1 at 03:00 local (02:00-03:00 twice).
    resets = play_through(paris_sheet, datetime(2026, 10, 24, 10, 0, tzinfo=UTC),
                          datetime(2026, 10, 26, 10, 0, tzinfo=UTC))
    assert resets == [
        (datetime(2026, 10, 24, 22, 0, tzinfo=UTC), Decimal("36")),  # 00:00 CEST
        (datetime(2026, 10, 25, 23, 0, tzinfo=UTC), Decimal("75")),  # 00:00 CET: 25 h x 3 PA
    ]


def test_a_beat_down_for_a_day_resets_once_when_it_comes_back(paris_sheet):
    spend(paris_sheet, datetime(2026, 3, 27, 12, 0, tzinfo=UTC))
    back = datetime(2026, 3, 29, 9, 0, tzinfo=UTC)  # two local midnights later
    assert daily_pa_reset(now=back) == 1
    assert daily_pa_reset(now=back + TICK) == 0
    sheet = EternalWarSheet.objects.get(pk=paris_sheet)
    assert (sheet.pa_spent_today, sheet.pa_spent_day) == (0, date(2026, 3, 29))


def test_a_spend_before_the_late_beat_is_kept_by_it(paris_sheet):
    spend(paris_sheet, datetime(2026, 3, 28, 12, 0, tzinfo=UTC))
    spend(paris_sheet, datetime(2026, 3, 29, 8, 0, tzinfo=UTC), cost=Decimal("2"))  # new day
    assert daily_pa_reset(now=datetime(2026, 3, 29, 9, 0, tzinfo=UTC)) == 0
    sheet = EternalWarSheet.objects.get(pk=paris_sheet)
    assert (sheet.pa_spent_today, sheet.pa_spent_day) == (2, date(2026, 3, 29))


def test_two_beats_reset_each_sheet_once(paris_sheet):
    spend(paris_sheet, datetime(2026, 3, 28, 12, 0, tzinfo=UTC))
    now = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)
    assert [daily_pa_reset(now=now), daily_pa_reset(now=now)] == [1, 0]
    # A beat whose clock lags (still the day before, locally) changes nothing either.
    assert daily_pa_reset(now=now - timedelta(minutes=1)) == 0


def test_each_campaign_resets_at_its_own_midnight(alice, paris_sheet):
    utc = factories.campaign(name="London", daily_pa_cap=1000)
    other = factories.character(owner=alice, campaign=utc, name="Other", at=(0, 0)).pk
    day_before = datetime(2026, 7, 14, 12, 0, tzinfo=UTC)
    spend(paris_sheet, day_before)
    spend(other, day_before)
    assert daily_pa_reset(now=datetime(2026, 7, 14, 22, 0, tzinfo=UTC)) == 1  # Paris only
    assert EternalWarSheet.objects.get(pk=other).pa_spent_today == Decimal("0.5")
    assert daily_pa_reset(now=datetime(2026, 7, 15, 0, 0, tzinfo=UTC)) == 1  # then UTC
    assert EternalWarSheet.objects.get(pk=other).pa_spent_today == 0


def test_a_sheet_that_never_spent_is_left_alone(paris_sheet):
    assert daily_pa_reset(now=datetime(2026, 3, 29, 9, 0, tzinfo=UTC)) == 0
    assert EternalWarSheet.objects.get(pk=paris_sheet).pa_spent_day is None


@pytest.mark.parametrize("size", [2, 20])
def test_the_reset_runs_a_fixed_number_of_statements(alice, size, django_assert_num_queries):
    zones = {"Paris": "Europe/Paris", "Tokyo": "Asia/Tokyo"}
    for name, zone in zones.items():
        campaign = factories.campaign(name=name, game_day_time_zone=zone, width=30, height=30)
        for i in range(size):
            c = factories.character(owner=alice, campaign=campaign, name=f"{name}{i}",
                                    at=(i, 0))
            spend(c.pk, datetime(2026, 3, 27, 12, 0, tzinfo=UTC))
    factories.campaign(name="Empty")  # UTC, nobody in it
    # One SELECT of the campaigns, one UPDATE per time zone in use.
    with django_assert_num_queries(1 + 3):
        assert daily_pa_reset(now=datetime(2026, 3, 29, 9, 0, tzinfo=UTC)) == 2 * size


def test_the_task_is_scheduled_with_time_limits_and_runs_the_reset(paris_sheet):
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == TASK]
    assert len(entries) == 1 and entries[0]["schedule"] <= timedelta(minutes=30)
    assert entries[0]["options"]["expires"] <= entries[0]["schedule"].total_seconds()
    app.loader.import_default_modules()
    assert 0 < app.tasks[TASK].soft_time_limit < app.tasks[TASK].time_limit
    spend(paris_sheet, datetime(2026, 3, 27, 12, 0, tzinfo=UTC))
    assert reset_daily_pa.run() == 1
    assert reset_daily_pa.run() == 0
