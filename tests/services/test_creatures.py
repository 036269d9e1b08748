"""Creatures act on their own: each brawls one adjacent player character, at most every 10 min.

docs/rules/eternal-war-one-ii.md, "Other targets".
"""

from datetime import timedelta

import pytest

from campaigns.models import ActionRecord
from characters.models import Character
from combat.creatures import INTERVAL, creatures_act
from ew1.models import EternalWarSheet
from ew1.services import piece_create
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


# --- issue 8, item 15: creatures move toward the nearest attackable player in view -------------

def moves():
    return list(ActionRecord.objects.filter(kind="move").order_by("id")
                .values_list("actor_id", "user_id", "summary"))


def where(piece):
    c = Character.objects.select_related("ew1").get(pk=piece.pk)
    return (c.x, c.y), c.ew1.pa


def test_a_creature_steps_toward_the_nearest_player_in_view_and_pays_the_move(alice, campaign,
                                                                              beast):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(8, 7), now=NOW)
    factories.character(owner=alice, campaign=campaign, name="Farther", at=(1, 1), now=NOW)

    assert creatures_act(rng=FakeRandom(), now=NOW) == 1

    assert where(beast) == ((6, 6), 12 - campaign.parameters.move_cost_pa)
    assert moves() == [(beast.pk, None, {"to": [6, 6], "xp": 0})]  # creatures gain no XP
    assert Character.objects.get(pk=beast.pk).ew1.xp == 0


def test_a_creature_walks_then_attacks_once_adjacent(alice, campaign, beast):
    prey = factories.character(owner=alice, campaign=campaign, name="Prey", at=(7, 5), now=NOW)
    assert creatures_act(rng=FakeRandom(), now=NOW) == 1  # one action per turn: the step
    assert where(beast)[0] == (6, 5) and not brawls()
    assert creatures_act(rng=FakeRandom(MISS), now=NOW + INTERVAL) == 1
    assert brawls() == [(beast.pk, prey.pk, None, NOW + INTERVAL)]


def test_at_six_cells_nobody_is_seen_and_the_creature_stays(alice, campaign, unchanged):
    beast = piece_create(campaign=campaign, kind="creature", name="Beast", x=0, y=0, pv=30,
                         fixed_reduction=2, now=NOW - timedelta(hours=1))
    factories.character(owner=alice, campaign=campaign, name="Far", at=(6, 6), now=NOW)
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0
    assert where(beast)[0] == (0, 0)


def test_a_protected_player_is_not_approached(alice, campaign, beast, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Newborn", at=(8, 5), now=NOW,
                        acted=False)
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_a_creature_without_the_pa_to_move_stays(alice, campaign, beast, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(8, 5), now=NOW)
    EternalWarSheet.objects.filter(pk=beast.pk).update(pa=0, pa_anchor=int(NOW.timestamp()))
    with unchanged():
        assert creatures_act(rng=FakeRandom(), now=NOW) == 0


def test_two_creatures_never_step_on_the_same_cell(alice, campaign, beast):
    other = piece_create(campaign=campaign, kind="creature", name="Other", x=5, y=7, pv=30,
                         fixed_reduction=2, now=NOW - timedelta(hours=1))
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(7, 6), now=NOW)
    assert creatures_act(rng=FakeRandom(), now=NOW) == 2
    # Both would rather stand on (6, 6); the first (lowest id) takes it, the other walks around.
    assert (where(beast)[0], where(other)[0]) == ((6, 6), (6, 7))


def test_a_creature_picks_up_no_scroll(alice, campaign, beast):
    from magic.models import KnownSpell, Scroll, Spell

    spell = Spell.objects.create(name="Météore", effect="damage", dice="2d6+2")
    Scroll.objects.create(board=campaign.board, x=6, y=5, spell=spell)
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(8, 5), now=NOW)
    assert creatures_act(rng=FakeRandom(), now=NOW) == 1
    assert where(beast)[0] == (6, 5)
    assert Scroll.objects.count() == 1 and not KnownSpell.objects.exists()


@pytest.mark.parametrize("crowd", [0, 15])
def test_creatures_act_query_count(alice, bob, campaign, beast, crowd, django_assert_num_queries):
    """The creatures; every piece on their boards; then the move: savepoint, sheet locked (with
    character, campaign, board; no equipped items since issue 10: a move reads no loadout), the
    cell check, character saved in its own savepoint, sheet saved, action, release. The same
    with 15 more pieces on the board."""
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(8, 5), now=NOW)
    for i in range(crowd):
        factories.character(owner=bob, campaign=campaign, name=f"C{i:02}", at=(i % 10, 9 - i // 10),
                            now=NOW, seed=i)
    with django_assert_num_queries(CREATURE_MOVE_QUERIES):
        assert creatures_act(rng=FakeRandom(), now=NOW) == 1


CREATURE_MOVE_QUERIES = 11


def test_a_creature_gains_no_xp_from_its_attacks(alice, campaign, beast):
    factories.character(owner=alice, campaign=campaign, name="Prey", at=(6, 5), now=NOW)
    assert creatures_act(rng=FakeRandom(MISS), now=NOW) == 1  # a miss: 1 XP for a player
    assert Character.objects.select_related("ew1").get(pk=beast.pk).ew1.xp == 0
