"""Two requests at once on the paths issue 8 and 9 added, on PostgreSQL: suicide racing an attack
on the same character, two notice dismisses, a manual reincarnation racing the cooldown beat, the
daily reset racing a spend. Each round: no unexpected exception (a 500), no double effect.
``sheet_refresh`` is slowed so the second thread surely arrives while the first holds its lock."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord
from characters.models import Character
from characters.services import cooldown_notice_dismiss
from combat.cooldowns import CooldownRelease, cooldowns_release
from combat.services import action_attack, action_move, character_reincarnate, character_suicide
from ew1.daily_pa import daily_pa_reset
from ew1.models import EternalWarSheet
from ew1.services import piece_create
from tests import factories
from tests.concurrency import refused_or_done, run_together, slow_sheet_refresh

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_refresh(monkeypatch):
    slow_sheet_refresh(monkeypatch, 0.2)


def test_suicide_racing_an_attack_on_the_same_character(alice, bob, slow_refresh):
    campaign = factories.campaign(width=10, height=10)
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(2, 2))
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(3, 2))

    results = run_together(
        lambda: action_attack(user=bob, character_id=b.pk, target_id=a.pk, kind="brawl",
                              rng=random.Random(1)),
        lambda: character_suicide(user=alice, character_id=a.pk))

    refused_or_done(results)
    a = Character.objects.get(pk=a.pk)
    assert (a.on_board, a.deaths) == (False, 1)
    assert ActionRecord.objects.filter(actor_id=a.pk, kind="suicide").count() == 1


def test_two_dismisses_at_once(alice):
    campaign = factories.campaign()
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(2, 2))
    Character.objects.filter(pk=a.pk).update(cooldown_notice="cooldown_over",
                                             cooldown_notice_at=timezone.now())

    results = run_together(lambda: cooldown_notice_dismiss(user=alice, character_id=a.pk),
                           lambda: cooldown_notice_dismiss(user=alice, character_id=a.pk))

    assert results == [None, None]
    assert Character.objects.get(pk=a.pk).cooldown_notice == ""


@pytest.mark.parametrize("round_", range(6))
def test_manual_reincarnation_racing_the_cooldown_beat(alice, round_):
    campaign = factories.campaign(width=10, height=10)
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(2, 2))
    character_suicide(user=alice, character_id=a.pk, reincarnate_asap=True,
                      now=timezone.now() - timedelta(hours=7))
    calls = [lambda: character_reincarnate(user=alice, character_id=a.pk,
                                           rng=random.Random(round_)),
             lambda: cooldowns_release(rng=random.Random(round_ + 100))]
    if round_ % 2:
        calls.reverse()

    results = run_together(*calls)

    refused_or_done(results)
    assert ActionRecord.objects.filter(actor_id=a.pk, kind="reincarnate").count() == 1, results
    a = Character.objects.get(pk=a.pk)
    assert a.on_board and a.suicided_at is None
    assert cooldowns_release() == CooldownRelease()


def test_the_daily_reset_racing_a_spend(alice, slow_refresh):
    now = timezone.now()
    yesterday = now.date() - timedelta(days=1)
    campaign = factories.campaign(daily_pa_cap=24)
    c = factories.character(owner=alice, campaign=campaign, name="C", at=(5, 5), now=now,
                            pa_spent_today=Decimal("20"), pa_spent_day=yesterday)

    results = run_together(lambda: action_move(user=alice, character_id=c.pk, dx=1, dy=0,
                                               now=now),
                           lambda: daily_pa_reset(now=now))

    refused_or_done(results)
    sheet = EternalWarSheet.objects.get(pk=c.pk)
    # The move's half PA counts for today whichever ran first; yesterday's 20 never do.
    assert (sheet.pa_spent_today, sheet.pa_spent_day) == (Decimal("0.5"), now.date())


@pytest.mark.parametrize("round_", range(3))
def test_two_creature_beats_at_once_give_a_creature_one_turn(alice, round_, slow_refresh):
    """Two beats (or a redelivered task next to a late one) run ``creatures_act`` together:
    each creature takes one turn per interval, not one per run."""
    from combat.creatures import creatures_act

    campaign = factories.campaign(width=10, height=10)
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(2, 2), level=1)
    wolf = piece_create(campaign=campaign, kind="creature", name="Wolf", x=3, y=2, pv=30,
                        fixed_reduction=0, skills={"brawl": 50, "dodge": 10})

    results = run_together(lambda: creatures_act(rng=random.Random(round_)),
                           lambda: creatures_act(rng=random.Random(round_ + 1)))

    refused_or_done(results)
    assert sum(results) == 1, results
    assert ActionRecord.objects.filter(actor_id=wolf.pk).count() == 1
    assert a.pk
