"""Two players acting at the same moment, on PostgreSQL (SQLite serialises writers anyway).

Each thread has its own connection. ``sheet_refresh`` runs right after the sheets are locked; it is
slowed down here so that the second thread surely arrives while the first holds the lock: without
the lock both would read the same PA and both would spend it.
"""

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord
from combat import services
from combat.services import action_brawl, action_move
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from tests import factories
from tests.concurrency import run_together, slow_sheet_refresh

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_refresh(monkeypatch):
    slow_sheet_refresh(monkeypatch, 0.3)


def test_only_one_of_two_simultaneous_moves_spends_the_last_pa(alice, campaign, slow_refresh):
    now = timezone.now()
    c = factories.character(owner=alice, campaign=campaign, name="Racer", at=(5, 5), now=now,
                            pa=Decimal("0.5"))

    def move():
        return action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=now)

    results = run_together(move, move)

    refused = [r for r in results if isinstance(r, Exception)]
    done = [r for r in results if isinstance(r, services.ActionResult)]
    assert len(done) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], errors.NotEnoughPA)
    sheet = EternalWarSheet.objects.select_related("character").get(pk=c.pk)
    assert sheet.pa == Decimal("0.0")
    assert (sheet.character.x, sheet.character.y, sheet.xp) == (6, 5, 1)
    assert ActionRecord.objects.filter(actor_id=c.pk, kind="move").count() == 1


def test_two_characters_attacking_each_other_at_once_do_not_deadlock(alice, bob, campaign,
                                                                      slow_refresh):
    now = timezone.now()
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(5, 5), now=now)
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(6, 5), now=now)

    results = run_together(
        lambda: action_brawl(user=alice, character_id=a.pk, target_id=b.pk,
                             rng=random.Random(1), now=now),
        lambda: action_brawl(user=bob, character_id=b.pk, target_id=a.pk,
                             rng=random.Random(2), now=now),
    )

    assert all(isinstance(r, services.ActionResult) for r in results), results
    sheets = {s.pk: s for s in EternalWarSheet.objects.all()}
    # Each attacker spent 2 PA once; each took the other's damage (no update was lost).
    assert sheets[a.pk].pa == sheets[b.pk].pa == Decimal("10")
    assert sheets[b.pk].pv == 100 - results[0].outcome.pv_lost
    assert sheets[a.pk].pv == 100 - results[1].outcome.pv_lost
    assert sheets[a.pk].xp == results[0].outcome.attacker_xp + results[1].outcome.defender_xp
    assert ActionRecord.objects.filter(kind="brawl").count() == 2


def test_many_simultaneous_moves_never_overspend(alice, campaign):
    now = timezone.now() - timedelta(minutes=1)
    c = factories.character(owner=alice, campaign=campaign, name="Crowd", at=(0, 0), now=now,
                            pa=Decimal("1.5"))

    def move():
        return action_move(user=alice, character_id=c.pk, dx=1, dy=1, now=now)

    results = run_together(*[move] * 6)

    assert sum(isinstance(r, services.ActionResult) for r in results) == 3, results
    assert all(isinstance(r, (services.ActionResult, errors.NotEnoughPA)) for r in results)
    sheet = EternalWarSheet.objects.select_related("character").get(pk=c.pk)
    assert (sheet.pa, sheet.character.x, sheet.character.y) == (Decimal("0"), 3, 3)
