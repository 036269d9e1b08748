"""Eternal War One II's notifications (issue 22, item 4): an attack on the board tells the
target's player who attacked, or killed, them; a level gained tells the player a level-up
waits. Stored once the action commits."""

from __future__ import annotations

import pytest
from django.utils import translation

from combat.services import action_brawl
from ew1.models import EternalWarSheet
from ew1.progression import grant_xp
from notifications.models import Notification
from notifications.selectors import page_of
from tests import factories
from tests.services.conftest import NOW, FakeRandom

pytestmark = pytest.mark.django_db


def told(user) -> list[str]:
    with translation.override("en"):
        return [n.text for n in page_of(user, 1).object_list]


@pytest.fixture
def fighters(alice, bob, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5), now=NOW,
                              FOR=10, TAI=10, DEF=10, LUK=10)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=2, DEF=10, LUK=10,
                                                      skills={"dodge": 0, "brawl": 90})
    return hero, foe


def test_a_killing_blow_tells_the_target_who_struck(alice, bob, fighters,
                                                    django_capture_on_commit_callbacks):
    hero, foe = fighters
    with django_capture_on_commit_callbacks(execute=True):
        # Hit (50), no dodge (99), 1d4 = 4, three failed DEF rolls: 2 PV -> -1, dead.
        action_brawl(user=bob, character_id=foe.pk, target_id=hero.pk,
                     rng=FakeRandom(50, 99, 4, 100, 100, 100), now=NOW)
    assert told(alice) == ["Foe killed Hero."]
    n = Notification.objects.get(user=alice)
    assert n.link == f"/characters/{hero.pk}/board/"
    assert not Notification.objects.filter(user=bob, kind__in=["attacked", "killed"]).exists()


def test_a_missed_attack_still_tells_the_target(alice, bob, fighters,
                                                django_capture_on_commit_callbacks):
    hero, foe = fighters
    with django_capture_on_commit_callbacks(execute=True):
        action_brawl(user=bob, character_id=foe.pk, target_id=hero.pk,
                     rng=FakeRandom(100, 100, 100, 100, 100, 100), now=NOW)
    assert told(alice) == ["Foe attacked Hero."]


def test_a_level_gained_tells_the_player_a_level_up_waits(alice, campaign,
                                                          django_capture_on_commit_callbacks):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", now=NOW)
    sheet = EternalWarSheet.objects.select_related("character").get(pk=hero.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert grant_xp(sheet, 0, campaign.parameters) == 0
        assert grant_xp(sheet, 100_000, campaign.parameters) > 0
    assert told(alice) == ["Hero has a level-up offer waiting."]
    assert Notification.objects.get(user=alice).link == f"/characters/{hero.pk}/level-up/"
