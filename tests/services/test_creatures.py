"""Creatures act on their own: each brawls one adjacent player character, at most every 10 min.

docs/rules/eternal-war-one-ii.md, "Other targets".
"""

from datetime import timedelta

import pytest

from campaigns.models import ActionRecord
from characters.models import Character, EternalWarSheet
from characters.services import piece_create
from combat.creatures import INTERVAL, creatures_act
from tests import factories
from tests.services.conftest import NOW, FakeRandom

MISS = 95  # a creature's Bagarre is 90: one roll, nothing else


@pytest.fixture
def beast(campaign):
    return piece_create(campaign=campaign, kind="creature", name="Beast", x=5, y=5, pv=30,
                        fixed_reduction=2, now=NOW - timedelta(hours=1))


def brawls():
    return list(ActionRecord.objects.filter(kind="brawl")
                .values_list("actor_id", "target_id", "user_id", "created_at"))


def test_a_creature_brawls_the_adjacent_character_with_the_fewest_pv(alice, bob, campaign,
                                                                     beast):
    strong = factories.character(owner=alice, campaign=campaign, name="Strong", at=(6, 5),
                                 now=NOW)
    weak = factories.character(owner=bob, campaign=campaign, name="Weak", at=(4, 4), now=NOW)
    factories.character(owner=bob, campaign=campaign, name="Far", at=(8, 5), now=NOW)
    EternalWarSheet.objects.filter(pk=weak.pk).update(pv=60)
    EternalWarSheet.objects.filter(pk=strong.pk).update(pv=90)

    assert creatures_act(rng=FakeRandom(MISS), now=NOW) == 1

    assert brawls() == [(beast.pk, weak.pk, None, NOW)]
    beast = Character.objects.select_related("ew1").get(pk=beast.pk)
    assert (beast.last_action_at, beast.attacks, beast.ew1.pa) == (NOW, 1, 10)


def test_a_creature_acts_once_per_interval(alice, campaign, beast):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(6, 5), now=NOW)
    assert creatures_act(rng=FakeRandom(MISS), now=NOW) == 1
    assert creatures_act(rng=FakeRandom(), now=NOW) == 0  # a task delivered twice
    assert creatures_act(rng=FakeRandom(), now=NOW + INTERVAL - timedelta(seconds=1)) == 0
    assert len(brawls()) == 1
    assert creatures_act(rng=FakeRandom(MISS), now=NOW + INTERVAL) == 1
    assert len(brawls()) == 2


def test_protected_level_0_characters_are_left_alone(alice, campaign, beast, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Newborn", at=(6, 5), now=NOW,
                        acted=False)
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_a_creature_at_0_pv_does_nothing(alice, campaign, beast, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(6, 5), now=NOW)
    EternalWarSheet.objects.filter(pk=beast.pk).update(pv=0)
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_doors_and_other_creatures_are_not_prey(campaign, beast, unchanged):
    piece_create(campaign=campaign, kind="door", name="Door", x=6, y=5, pv=10, fixed_reduction=1,
                 now=NOW)
    piece_create(campaign=campaign, kind="creature", name="Other", x=4, y=5, pv=10,
                 fixed_reduction=1, now=NOW)
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_a_creature_without_pa_skips_its_turn(alice, campaign, beast, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(6, 5), now=NOW)
    EternalWarSheet.objects.filter(pk=beast.pk).update(pa=1, pa_anchor=int(NOW.timestamp()))
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_the_beat_schedule_runs_the_creatures_task():
    from config.settings.celery import CELERY_BEAT_SCHEDULE
    from combat.tasks import creatures_act_task

    tasks = {entry["task"]: entry for entry in CELERY_BEAT_SCHEDULE.values()}
    assert "combat.tasks.creatures_act" in tasks
    assert tasks["combat.tasks.creatures_act"]["schedule"] == INTERVAL
    assert creatures_act_task.name == "combat.tasks.creatures_act"
