"""The daily PA cap (issue 8, item 22) as the actions meet it: every PA spend counts against the
campaign's ``daily_pa_cap`` for the game day in ``game_day_time_zone``; a refused spend changes
nothing; a new local day starts from 0 even before the reset beat runs; players see the count."""

from datetime import datetime, timedelta, UTC
from decimal import Decimal

import pytest

from combat.services import action_attack, action_game, action_move
from ew1.equipment import item_grant, item_use
from ew1.models import EternalWarSheet, ItemTemplate
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import FakeRandom

pytestmark = pytest.mark.django_db

UTC = UTC
# Europe/Paris, summer time (UTC+2): 21:30 UTC is 23:30 local, 22:10 UTC is 00:10 the next day.
LATE = datetime(2026, 7, 14, 21, 30, tzinfo=UTC)
AFTER_MIDNIGHT = datetime(2026, 7, 14, 22, 10, tzinfo=UTC)


def sheet_of(character) -> EternalWarSheet:
    return EternalWarSheet.objects.get(pk=character.pk)


@pytest.fixture
def paris(db):
    return factories.campaign(name="Paris", daily_pa_cap=3, game_day_time_zone="Europe/Paris")


def test_moves_stop_at_the_daily_cap_with_pa_left(alice, paris, unchanged):
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0), now=LATE)
    for step in range(6):  # 6 x 0.5 PA = the cap of 3
        action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=LATE)
    sheet = sheet_of(hero)
    assert (sheet.pa, sheet.pa_spent_today, str(sheet.pa_spent_day)) == (9, 3, "2026-07-14")

    with unchanged(), pytest.raises(errors.DailyPACapReached) as info:
        action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=LATE)
    assert info.value.code == "daily_pa_cap_reached"
    assert (info.value.spent, info.value.cap) == (3, 3)


def test_a_new_local_day_starts_from_zero_before_any_reset(alice, paris):
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0), now=LATE,
                               pa_spent_today=Decimal("3"), pa_spent_day="2026-07-14")
    with pytest.raises(errors.DailyPACapReached):
        action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=LATE)
    # 00:10 in Paris (still 14 July in UTC): a new game day, no beat has run.
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=AFTER_MIDNIGHT)
    sheet = sheet_of(hero)
    assert (sheet.pa_spent_today, str(sheet.pa_spent_day)) == (Decimal("0.5"), "2026-07-15")


def test_the_game_day_follows_the_campaign_time_zone(alice, campaign):
    # The default zone is UTC: 22:10 UTC on 14 July is still 14 July, the count goes on.
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(0, 0), now=LATE,
                               pa_spent_today=Decimal("23.5"), pa_spent_day="2026-07-14")
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=AFTER_MIDNIGHT)
    assert sheet_of(hero).pa_spent_today == 24
    with pytest.raises(errors.DailyPACapReached):
        action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=AFTER_MIDNIGHT)


def test_an_attack_that_would_pass_the_cap_is_refused_before_any_roll(alice, bob, paris,
                                                                      unchanged):
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(1, 1), now=LATE,
                               pa_spent_today=Decimal("2"), pa_spent_day="2026-07-14")
    foe = factories.character(owner=bob, campaign=paris, name="Foe", at=(1, 2), now=LATE)
    with unchanged(), pytest.raises(errors.DailyPACapReached):  # 2 + 2 > 3
        action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, rng=FakeRandom(),
                      now=LATE)
    action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, kind="throw",
                  rng=FakeRandom(*[50] * 40), now=LATE)  # 2 + 1 = 3: allowed
    assert sheet_of(hero).pa_spent_today == 3


def test_not_enough_pa_is_said_first(alice, paris):
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0), now=LATE,
                               pa=Decimal("0"), pa_spent_today=Decimal("3"),
                               pa_spent_day="2026-07-14")
    with pytest.raises(errors.NotEnoughPA):
        action_game(user=alice, character_id=hero.pk, rng=FakeRandom(50), now=LATE)


def test_drinking_a_potion_counts_and_is_refused_past_the_cap(alice, paris, unchanged):
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0), now=LATE,
                               pv=50, pa_spent_today=Decimal("2"), pa_spent_day="2026-07-14")
    potion = ItemTemplate.objects.create(name="Potion", kind="misc", heal_dice="1d4")
    first = item_grant(character=hero, template=potion, rng=FakeRandom())
    second = item_grant(character=hero, template=potion, rng=FakeRandom())
    item_use(user=alice, character_id=hero.pk, item_id=first.pk, rng=FakeRandom(2), now=LATE)
    assert sheet_of(hero).pa_spent_today == 3
    with unchanged(), pytest.raises(errors.DailyPACapReached):
        item_use(user=alice, character_id=hero.pk, item_id=second.pk, rng=FakeRandom(2),
                 now=LATE)


def test_a_cap_of_zero_never_refuses(alice):
    free = factories.campaign(name="Free", daily_pa_cap=0)
    hero = factories.character(owner=alice, campaign=free, name="Hero", at=(0, 0), now=LATE,
                               pa_spent_today=Decimal("500"), pa_spent_day="2026-07-14")
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=LATE)
    assert sheet_of(hero).pa_spent_today == Decimal("500.5")


# --- what players see -----------------------------------------------------------------------

@pytest.mark.parametrize("page", ["characters:detail", "combat:board"])
def test_sheet_and_board_show_pa_spent_today(client, alice, paris, page):
    from django.urls import reverse
    from django.utils import timezone as dj_timezone

    now = dj_timezone.now()
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0), now=now)
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=now)
    client.force_login(alice)
    html = client.get(reverse(page, args=[hero.pk])).content.decode()
    assert 'data-testid="pa-today">PA spent today: 0.5 / 3</small>' in html


def test_yesterdays_count_shows_as_zero_before_the_reset(client, alice, paris):
    from django.utils import timezone as dj_timezone

    yesterday = dj_timezone.now() - timedelta(days=2)
    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0),
                               pa_spent_today=Decimal("2.5"), pa_spent_day=yesterday.date())
    client.force_login(alice)
    html = client.get(f"/characters/{hero.pk}/").content.decode()
    assert "PA spent today: 0 / 3" in html


def test_the_sheet_shows_the_count_in_french(client, alice, paris):
    from django.utils import timezone as dj_timezone

    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0))
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=dj_timezone.now())
    client.force_login(alice)
    html = client.get(f"/characters/{hero.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "PA dépensés aujourd'hui : 0,5 / 3" in html


def test_the_api_sheet_gives_the_count_and_the_cap(alice, paris):
    from django.utils import timezone as dj_timezone
    from rest_framework.test import APIClient

    hero = factories.character(owner=alice, campaign=paris, name="Hero", at=(0, 0))
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=dj_timezone.now())
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get(f"/api/characters/{hero.pk}/").json()
    assert (body["pa_spent_today"], body["daily_pa_cap"], body["cooldown_notice"]) == (0.5, 3, "")
