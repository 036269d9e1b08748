import random
from decimal import Decimal

import pytest
from django.db import transaction

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_brawl, action_move
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW, FakeRandom

SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10, "throw": 25,
          "game": 30}
# The attacker's FOR + TAI = 20: no base damage dice (table row 17-24), so a hit rolls 1d4 only.
# The defender's dodge score is Esquive 10 + LUK 10 // 5 = 12; its DEF rolls succeed on <= 10.
ATTACKER = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10, "skills": SKILLS}
DEFENDER = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10, "skills": SKILLS}
MISS, HIT, NO_DODGE, DODGE, DEF_FAIL, DEF_OK = 91, 50, 12, 11, 11, 10


@pytest.fixture
def fighters(campaign, alice, bob):
    a = factories.character(owner=alice, campaign=campaign, name="Attacker", at=(5, 5), now=NOW,
                            **ATTACKER)
    b = factories.character(owner=bob, campaign=campaign, name="Defender", at=(6, 5), now=NOW,
                            **DEFENDER)
    return a, b


def fetch(c):
    return Character.objects.select_related("ew1").get(pk=c.pk)


def brawl(user, a, b, *faces, **kw):
    return action_brawl(user=user, character_id=a.pk, target_id=b.pk, rng=FakeRandom(*faces),
                        now=NOW, **kw)


def test_a_hit_that_is_not_dodged_deals_damage_minus_reduction(alice, fighters):
    a, b = fighters
    result = brawl(alice, a, b, HIT, NO_DODGE, 4, DEF_FAIL, DEF_OK, DEF_FAIL)

    o = result.outcome
    assert (o.hit, o.perfect, o.dodged, o.damage, o.reduction, o.pv_lost) == (
        True, False, False, 4, 2, 2)
    a, b = fetch(a), fetch(b)
    assert (a.ew1.pa, a.ew1.xp, a.ew1.level) == (Decimal("10"), 5, 1)
    assert (b.ew1.pv, b.ew1.xp, b.ew1.pa) == (98, 0, 12)
    assert (b.board_id, b.x, b.y, b.deaths, a.kills) == (a.board_id, 6, 5, 0, 0)
    assert a.first_action_at == a.last_action_at == NOW


def test_every_roll_of_a_hit_is_journaled_with_its_actor(alice, fighters):
    a, b = fighters
    result = brawl(alice, a, b, HIT, NO_DODGE, 4, DEF_FAIL, DEF_OK, DEF_FAIL)

    action = ActionRecord.objects.get(kind="brawl")
    assert action == result.action
    assert (action.actor_id, action.target_id, action.user_id, action.cost) == (
        a.pk, b.pk, alice.pk, Decimal("2"))
    rows = [(r.label, r.expression, r.faces, r.total, r.target_score, r.success, r.actor_id)
            for r in action.rolls.all()]
    assert rows == [
        ("attack", "1d100", [HIT], HIT, 90, True, a.pk),
        ("dodge", "1d100", [NO_DODGE], NO_DODGE, 12, False, b.pk),
        ("brawl_damage", "1d4", [4], 4, None, None, a.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, b.pk),
        ("damage_reduction", "1d100", [DEF_OK], DEF_OK, 10, True, b.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, b.pk),
    ]
    assert action.summary["pv_lost"] == 2 and action.summary["target_pv"] == 98


def test_base_damage_dice_are_rolled_and_journaled(alice, fighters):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(FOR=15, TAI=15)
    # FOR + TAI = 30: +1d4 base damage, rolled before the brawl 1d4.
    result = brawl(alice, a, b, HIT, NO_DODGE, 3, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert (result.outcome.damage, result.outcome.pv_lost) == (7, 6)
    labels = list(result.action.rolls.values_list("label", "expression", "total"))
    assert labels[2:4] == [("base_damage", "+1d4", 3), ("brawl_damage", "1d4", 4)]
    assert fetch(b).ew1.pv == 94


def test_a_perfect_hit_adds_1d3_damage_and_2_xp(alice, fighters):
    a, b = fighters
    result = brawl(alice, a, b, 4, NO_DODGE, 4, 3, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert (result.outcome.perfect, result.outcome.damage, result.outcome.pv_lost) == (True, 7, 6)
    assert result.action.rolls.filter(label="perfect_damage", expression="1d3", total=3).exists()
    assert (fetch(a).ew1.xp, fetch(b).ew1.pv) == (7, 94)


def test_a_miss_gives_1_xp_and_rolls_nothing_else(alice, fighters):
    a, b = fighters
    result = brawl(alice, a, b, MISS)

    assert (result.outcome.hit, result.outcome.pv_lost) == (False, 0)
    a, b = fetch(a), fetch(b)
    assert (a.ew1.pa, a.ew1.xp) == (Decimal("10"), 1)
    assert (b.ew1.pv, b.ew1.xp) == (100, 0)
    assert list(result.action.rolls.values_list("label", "faces", "success")) == [
        ("attack", [MISS], False)]


def test_a_dodge_gives_xp_to_both_and_no_damage(alice, fighters):
    a, b = fighters
    result = brawl(alice, a, b, HIT, DODGE)

    assert (result.outcome.hit, result.outcome.dodged, result.outcome.pv_lost) == (True, True, 0)
    a, b = fetch(a), fetch(b)
    assert (a.ew1.xp, a.ew1.pa) == (5, Decimal("10"))
    assert (b.ew1.pv, b.ew1.xp, b.ew1.level, b.ew1.pv_max) == (100, 2, 1, 102)
    assert list(result.action.rolls.values_list("label", "actor_id")) == [
        ("attack", a.pk), ("dodge", b.pk)]


def test_xp_raises_the_level_and_its_maximum_pv(alice, fighters):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(xp=99, level=1, pv_max=102)
    brawl(alice, a, b, HIT, NO_DODGE, 1, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    s = fetch(a).ew1
    assert (s.xp, s.level, s.pv_max, s.pa_max, s.pa) == (104, 2, 104, 12, 10)


def test_level_10_raises_the_pa_cap_to_13(alice, fighters):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(xp=1004, level=9, pv_max=118)
    brawl(alice, a, b, HIT, NO_DODGE, 1, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    s = fetch(a).ew1
    assert (s.xp, s.level, s.pa_max, s.pv_max, s.pa) == (1009, 10, 13, 120, 10)


def test_a_target_left_at_exactly_0_pv_stays_but_cannot_move(alice, bob, fighters, unchanged):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=b.pk).update(pv=3)
    result = brawl(alice, a, b, HIT, NO_DODGE, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    a, b = fetch(a), fetch(b)
    assert (result.outcome.pv_lost, b.ew1.pv) == (3, 0)
    assert (b.board_id, b.x, b.y, b.deaths, a.kills) == (a.board_id, 6, 5, 0, 0)
    assert result.action.summary["disincarnated"] is False
    with unchanged(), pytest.raises(errors.CannotAct):
        action_move(user=bob, character_id=b.pk, dx=1, dy=0, now=NOW)


def test_a_target_below_0_pv_is_disincarnated(alice, bob, fighters, unchanged):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=b.pk).update(pv=2)
    result = brawl(alice, a, b, HIT, NO_DODGE, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    a, b = fetch(a), fetch(b)
    assert b.ew1.pv == -1
    assert (b.board_id, b.x, b.y, b.deaths) == (None, None, None, 1)
    assert (a.kills, a.deaths, a.board_id) == (1, 0, b.campaign.board.pk)
    assert result.action.summary["disincarnated"] is True
    with unchanged(), pytest.raises(errors.CannotAct):
        action_move(user=bob, character_id=b.pk, dx=1, dy=0, now=NOW)
    with unchanged(), pytest.raises(errors.InvalidTarget):
        brawl(alice, a, b, HIT)


def test_a_target_that_is_not_adjacent(alice, bob, campaign, fighters, unchanged):
    a, _ = fighters
    far = factories.character(owner=bob, campaign=campaign, name="Far", at=(7, 5), now=NOW)
    with unchanged(), pytest.raises(errors.NotAdjacent) as exc:
        brawl(alice, a, far, HIT)
    assert exc.value.code == "not_adjacent"


def test_a_target_in_another_campaign(alice, bob, fighters, unchanged):
    a, _ = fighters
    elsewhere = factories.campaign(name="Elsewhere")
    other = factories.character(owner=bob, campaign=elsewhere, name="Other", at=(6, 5), now=NOW)
    with unchanged(), pytest.raises(errors.InvalidTarget) as exc:
        brawl(alice, a, other, HIT)
    assert exc.value.code == "invalid_target"


def test_a_missing_target(alice, fighters, unchanged):
    a, _ = fighters
    with unchanged(), pytest.raises(errors.InvalidTarget):
        action_brawl(user=alice, character_id=a.pk, target_id=987654, rng=FakeRandom(), now=NOW)


def test_no_attacking_oneself(alice, fighters, unchanged):
    a, _ = fighters
    with unchanged(), pytest.raises(errors.InvalidTarget):
        brawl(alice, a, a, HIT)


def test_a_level_0_target_is_protected_until_its_first_action(alice, bob, campaign, fighters,
                                                               unchanged):
    a, _ = fighters
    fresh = factories.character(owner=bob, campaign=campaign, name="Fresh", at=(4, 5), now=NOW,
                                acted=False)
    with unchanged(), pytest.raises(errors.TargetProtected) as exc:
        brawl(alice, a, fresh, HIT)
    assert exc.value.code == "target_protected"

    action_move(user=bob, character_id=fresh.pk, dx=0, dy=1, now=NOW)  # to (4, 6), still adjacent
    result = brawl(alice, a, fresh, MISS)
    assert result.outcome.hit is False


def test_too_few_pa_to_attack(alice, fighters, unchanged):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(pa=Decimal("1.5"))
    with unchanged(), pytest.raises(errors.NotEnoughPA):
        brawl(alice, a, b, HIT)


def test_an_attacker_at_0_pv_cannot_attack(alice, fighters, unchanged):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(pv=0)
    with unchanged(), pytest.raises(errors.CannotAct):
        brawl(alice, a, b, HIT)


def test_an_attacker_off_the_board_cannot_attack(alice, fighters, unchanged):
    a, b = fighters
    Character.objects.filter(pk=a.pk).update(board=None, x=None, y=None)
    with unchanged(), pytest.raises(errors.CannotAct):
        brawl(alice, a, b, HIT)


def test_only_the_owner_attacks_with_a_character(bob, campaign, fighters, unchanged):
    a, b = fighters
    with unchanged(), pytest.raises(NotFound):  # a stranger does not even see it
        action_brawl(user=bob, character_id=a.pk, target_id=b.pk, rng=FakeRandom(HIT), now=NOW)
    campaign.game_master = factories.user("gm")
    campaign.save()
    with unchanged(), pytest.raises(Forbidden):  # the game master sees it but does not play it
        action_brawl(user=campaign.game_master, character_id=a.pk, target_id=b.pk,
                     rng=FakeRandom(HIT), now=NOW)


def test_a_missing_attacker(alice, fighters, unchanged):
    _, b = fighters
    with unchanged(), pytest.raises(NotFound):
        action_brawl(user=alice, character_id=987654, target_id=b.pk, rng=FakeRandom(), now=NOW)


def test_seeded_attacks_journal_exactly_what_the_rules_rolled(alice, fighters):
    a, b = fighters
    seen = set()
    for seed in range(40):
        with transaction.atomic():
            result = action_brawl(user=alice, character_id=a.pk, target_id=b.pk,
                                  rng=random.Random(seed), now=NOW)
            o = result.outcome
            seen.add("miss" if not o.hit else "dodged" if o.dodged else "hit")
            stored = list(result.action.rolls.values_list("label", "expression", "faces", "total"))
            assert stored == [(r.label, r.roll.expression, r.roll.face_values, r.roll.total)
                              for r in o.rolls]
            assert fetch(b).ew1.pv == 100 - o.pv_lost
            assert fetch(a).ew1.xp == o.attacker_xp and fetch(b).ew1.xp == o.defender_xp
            transaction.set_rollback(True)
    assert seen == {"miss", "dodged", "hit"}


def test_a_seed_replays_the_same_attack(alice, fighters):
    a, b = fighters
    outcomes = []
    for _ in range(2):
        with transaction.atomic():
            outcomes.append(action_brawl(user=alice, character_id=a.pk, target_id=b.pk,
                                         rng=random.Random(2024), now=NOW).outcome)
            transaction.set_rollback(True)
    assert outcomes[0] == outcomes[1]
