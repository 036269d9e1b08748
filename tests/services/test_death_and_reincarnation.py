"""Suicide, the 6-hour block, reincarnation; death in combat.

docs/rules/eternal-war-one-ii.md, "Death", "Suicide", "Reincarnation".
"""

from datetime import timedelta
from decimal import Decimal

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_brawl, character_reincarnate, character_suicide
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW, FakeRandom

SIX_HOURS = timedelta(hours=6)


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW)


def fetch(c):
    return Character.objects.select_related("ew1").get(pk=c.pk)


def suicide(user, c, at=NOW):
    return character_suicide(user=user, character_id=c.pk, now=at)


def reincarnate(user, c, at, *cells):
    return character_reincarnate(user=user, character_id=c.pk, rng=FakeRandom(*cells), now=at)


def test_a_suicide_leaves_the_board_counts_a_death_and_blocks_for_6_hours(alice, hero):
    result = suicide(alice, hero)

    hero = fetch(hero)
    assert (hero.board_id, hero.x, hero.y, hero.deaths, hero.kills) == (None, None, None, 1, 0)
    assert hero.ew1.reincarnation_blocked_until == NOW + SIX_HOURS
    assert hero.last_action_at == NOW
    assert (result.action.kind, result.action.actor_id, result.action.user) == (
        "suicide", hero.pk, alice)
    assert result.action.summary == {"blocked_until": (NOW + SIX_HOURS).isoformat()}


def test_reincarnation_is_refused_at_5h59_and_allowed_at_6h(alice, hero, unchanged):
    suicide(alice, hero)
    with unchanged(), pytest.raises(errors.ReincarnationBlocked) as exc:
        reincarnate(alice, hero, NOW + timedelta(hours=5, minutes=59), 2, 2)
    assert exc.value.code == "reincarnation_blocked"
    assert exc.value.until == NOW + SIX_HOURS
    assert exc.value.message == "Reincarnation possible in 0 h 1 min."
    with pytest.raises(errors.ReincarnationBlocked) as exc:
        reincarnate(alice, hero, NOW + timedelta(minutes=1), 2, 2)
    assert exc.value.message == "Reincarnation possible in 5 h 59 min."

    result = reincarnate(alice, hero, NOW + SIX_HOURS, 2, 2)

    hero = fetch(hero)
    assert (hero.board_id, hero.x, hero.y) == (hero.campaign.board.pk, 2, 2)
    assert hero.ew1.reincarnation_blocked_until is None
    assert (result.action.kind, result.action.summary) == (
        "reincarnate", {"at": [2, 2], "pv": 100})


def test_a_suicide_can_be_made_shorter_by_the_campaign(alice):
    quick = factories.campaign(name="Quick", suicide_cooldown_hours=1)
    hero = factories.character(owner=alice, campaign=quick, name="Hero", at=(1, 1), now=NOW)
    suicide(alice, hero)
    reincarnate(alice, hero, NOW + timedelta(hours=1), 3, 3)
    assert fetch(hero).board_id is not None


def test_reincarnation_restores_full_pv_on_a_free_cell_and_keeps_the_pa(alice, bob, campaign,
                                                                        hero):
    factories.character(owner=bob, campaign=campaign, name="Squatter", at=(6, 5), now=NOW)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=40, pa=Decimal("4"))
    suicide(alice, hero)

    reincarnate(alice, hero, NOW + SIX_HOURS, 6, 5, 7, 7)  # (6, 5) is taken: the next try

    hero = fetch(hero)
    assert (hero.x, hero.y) == (7, 7)
    # PA are kept (4, plus the 3 regained in 6 hours at 1 PA every 2 hours); PV are full.
    assert (hero.ew1.pa, hero.ew1.pv, hero.ew1.pv_max) == (Decimal("7"), 100, 100)


def test_the_campaign_sets_the_pv_on_reincarnation(alice):
    half = factories.campaign(name="Half", reincarnation_pv_percent=50)
    hero = factories.character(owner=alice, campaign=half, name="Hero", at=(1, 1), now=NOW)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=-4)  # killed
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    reincarnate(alice, hero, NOW, 3, 3)
    assert fetch(hero).ew1.pv == 50


def test_a_character_on_the_board_cannot_reincarnate(alice, hero, unchanged):
    with unchanged(), pytest.raises(errors.CannotAct):
        reincarnate(alice, hero, NOW, 2, 2)


def test_no_second_suicide_off_the_board(alice, hero, unchanged):
    suicide(alice, hero)
    with unchanged(), pytest.raises(errors.CannotAct):
        suicide(alice, hero, NOW + timedelta(hours=1))


def test_a_character_killed_in_combat_reincarnates_at_once(alice, bob, campaign, hero):
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5), now=NOW,
                              FOR=10, TAI=10, DEF=10, LUK=10)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=2, DEF=10, LUK=10,
                                                      skills={"dodge": 0, "brawl": 90})
    # Hit (50), no dodge (99), 1d4 = 4, three failed DEF rolls: 4 - 1 = 3 PV lost, 2 -> -1.
    action_brawl(user=bob, character_id=foe.pk, target_id=hero.pk,
                 rng=FakeRandom(50, 99, 4, 100, 100, 100), now=NOW)
    hero = fetch(hero)
    assert (hero.ew1.pv, hero.board_id, hero.deaths, hero.ew1.reincarnation_blocked_until) == (
        -1, None, 1, None)

    reincarnate(alice, hero, NOW, 2, 2)

    hero = fetch(hero)
    assert (hero.board_id, hero.x, hero.y, hero.ew1.pv, hero.deaths) == (
        campaign.board.pk, 2, 2, 100, 1)
    assert ActionRecord.objects.filter(kind="reincarnate", actor=hero).count() == 1


def test_only_the_owner_dies_and_comes_back(alice, bob, campaign, hero, unchanged):
    with unchanged(), pytest.raises(NotFound):
        suicide(bob, hero)
    suicide(alice, hero)
    with unchanged(), pytest.raises(NotFound):
        reincarnate(bob, hero, NOW + SIX_HOURS, 2, 2)
    campaign.game_master = factories.user("gm")
    campaign.save()
    with unchanged(), pytest.raises(Forbidden):
        reincarnate(campaign.game_master, hero, NOW + SIX_HOURS, 2, 2)
