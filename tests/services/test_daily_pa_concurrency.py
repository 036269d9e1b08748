"""The daily PA cap under concurrency, on PostgreSQL (issue 8, item 22): the cap is checked in
the same locked spend as the PA, so two actions at once never pass it, and two reset beats at
once reset each sheet once. ``sheet_refresh`` is slowed so that the second thread surely
arrives while the first holds the lock (tests/services/test_concurrency.py does the same)."""

from datetime import datetime, timedelta, UTC
from decimal import Decimal

import pytest
from django.utils import timezone as dj_timezone

from campaigns.models import ActionRecord
from combat import services
from combat.services import action_move
from ew1.daily_pa import daily_pa_reset
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from tests import factories
from tests.concurrency import run_together, slow_sheet_refresh

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_refresh(monkeypatch):
    slow_sheet_refresh(monkeypatch, 0.3)


def test_two_moves_at_once_never_pass_the_daily_cap(alice, slow_refresh):
    now = dj_timezone.now()
    campaign = factories.campaign(name="Capped", daily_pa_cap=1)
    c = factories.character(owner=alice, campaign=campaign, name="Racer", at=(5, 5), now=now,
                            pa_spent_today=Decimal("0.5"), pa_spent_day=now.date())

    def move():
        return action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=now)

    results = run_together(move, move)

    done = [r for r in results if isinstance(r, services.ActionResult)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], errors.DailyPACapReached)
    sheet = EternalWarSheet.objects.select_related("character").get(pk=c.pk)
    assert (sheet.pa_spent_today, sheet.pa, sheet.character.x) == (1, Decimal("11.5"), 6)
    assert ActionRecord.objects.filter(actor_id=c.pk, kind="move").count() == 1


def test_many_moves_at_once_spend_exactly_the_cap(alice):
    now = dj_timezone.now() - timedelta(minutes=1)
    campaign = factories.campaign(name="Capped", daily_pa_cap=2)
    c = factories.character(owner=alice, campaign=campaign, name="Crowd", at=(0, 0), now=now)

    results = run_together(*[lambda: action_move(user=alice, character_id=c.pk, dx=1, dy=1,
                                                 now=now)] * 6)

    assert sum(isinstance(r, services.ActionResult) for r in results) == 4, results
    assert all(isinstance(r, (services.ActionResult, errors.DailyPACapReached)) for r in results)
    sheet = EternalWarSheet.objects.get(pk=c.pk)
    assert (sheet.pa_spent_today, sheet.pa) == (2, 10)


def test_two_beats_at_once_reset_each_sheet_once(alice):
    campaign = factories.campaign(name="Paris", game_day_time_zone="Europe/Paris")
    day = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
    for i in range(5):
        factories.character(owner=alice, campaign=campaign, name=f"C{i}", at=(i, 0),
                            pa_spent_today=Decimal("3"), pa_spent_day=day.date())
    midnight = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)

    results = run_together(lambda: daily_pa_reset(now=midnight),
                           lambda: daily_pa_reset(now=midnight))

    assert sum(results) == 5, results  # each sheet reset by one beat or the other, once
    assert set(EternalWarSheet.objects.values_list("pa_spent_today", "pa_spent_day")) == {
        (0, midnight.date() + timedelta(days=1))}
