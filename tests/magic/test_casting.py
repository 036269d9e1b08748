"""magic.casting.spell_cast: the test, damage through the target's reduction, zones, heals, the
refusals, kills and XP.

Seed, "Utilisation de la magie" ("Les sorts sont soumis à un jet de compétence"; "Un bonus de
magie est accordé pour les personnages dans une faction"), "Contre de la magie" ("Les sorts
peuvent ne peuvent être contrés") and "Répartition des gains d'XP par action" ("Magie : 2 PA =
10 XP"). Choices: docs/rules/eternal-war-one-ii.md, "Magic".
"""

from decimal import Decimal

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from ew1.models import EternalWarSheet
from ew1.services import piece_create
from gamerules.ew1 import errors
from gamerules.ew1.presence import FactionBonus
from magic.casting import spell_cast
from magic.errors import SpellUnknown
from tests.gamerules.fakes import FakeRandom
from tests.magic.conftest import (DEF_FAIL, DEF_OK, NOW, ally, character, fetch,
                                  set_parameters, teach)

HIT = 55  # the mage's magic skill: a roll equal to the score succeeds
MISS = 56


def cast(user, caster, spell, x, y, *faces, **kw):
    rng = FakeRandom(*faces)
    result = spell_cast(user=user, character_id=caster.pk, spell_id=spell.pk, x=x, y=y, rng=rng,
                        now=NOW, **kw)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return result, rng


@pytest.fixture
def fireball(mage, spells):
    teach(mage, spells["Boule de feu"])
    return spells["Boule de feu"]


# --- damage --------------------------------------------------------------------------------------

def test_a_damage_spell_hits_an_adjacent_target_through_its_reduction(alice, mage, foe, fireball):
    # 1d6+1 = 6; reduction 1 + one DEF roll won of three = 2; 4 PV lost.
    result, rng = cast(alice, mage, fireball, 6, 5, HIT, 5, DEF_FAIL, DEF_OK, DEF_FAIL)

    assert rng.calls == [(1, 100), (1, 6), (1, 100), (1, 100), (1, 100)]
    assert result.outcome.success and result.outcome.power == 6
    assert result.targets == [{"id": foe.pk, "name": "Foe", "reduction": 2, "pv_lost": 4,
                               "pv": 96}]
    assert fetch(foe).ew1.pv == 96
    m = fetch(mage)
    assert (m.ew1.pa, m.ew1.xp) == (Decimal("10"), 10)
    assert m.first_action_at == NOW and m.last_action_at == NOW


def test_a_damage_spell_reaches_a_remote_target_within_range(alice, mage, bob, campaign,
                                                           fireball):
    far = character(bob, campaign, "Far", (10, 9))  # 5 cells: the spell's range

    result, _ = cast(alice, mage, fireball, 10, 9, HIT, 6, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert result.targets[0]["pv_lost"] == 7 - 1
    assert fetch(far).ew1.pv == 94


def test_armour_and_fixed_reduction_count(alice, mage, campaign, fireball):
    wolf = piece_create(campaign=campaign, kind="creature", name="Wolf", x=5, y=7, pv=30,
                        fixed_reduction=3, now=NOW)

    result, _rng = cast(alice, mage, fireball, 5, 7, HIT, 6)  # no DEF roll: fixed reduction

    assert result.targets == [{"id": wolf.pk, "name": "Wolf", "reduction": 3, "pv_lost": 4,
                               "pv": 26}]


def test_a_spell_cannot_be_dodged(alice, mage, foe, fireball):
    EternalWarSheet.objects.filter(pk=foe.pk).update(skills={"dodge": 95, "magic": 0})

    result, _rng = cast(alice, mage, fireball, 6, 5, HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    labels = list(result.action.rolls.values_list("label", flat=True))
    assert labels == ["cast", "spell_power"] + ["damage_reduction"] * 3
    assert "dodge" not in labels
    assert fetch(foe).ew1.pv == 95 and fetch(foe).dodges == 0


def test_every_roll_is_journaled_with_its_actor(alice, mage, foe, fireball):
    result, _ = cast(alice, mage, fireball, 6, 5, HIT, 5, DEF_FAIL, DEF_OK, DEF_FAIL)

    action = ActionRecord.objects.get(kind="cast")
    assert action == result.action
    assert (action.actor_id, action.target_id, action.user_id, action.cost) == (
        mage.pk, foe.pk, alice.pk, Decimal("2"))
    rows = [(r.label, r.expression, r.faces, r.total, r.target_score, r.success, r.actor_id)
            for r in action.rolls.all()]
    assert rows == [
        ("cast", "1d100", [HIT], HIT, 55, True, mage.pk),
        ("spell_power", "1d6+1", [5], 6, None, None, mage.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, foe.pk),
        ("damage_reduction", "1d100", [DEF_OK], DEF_OK, 10, True, foe.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, foe.pk),
    ]
    assert action.summary == {
        "spell": "Boule de feu", "effect": "damage", "cell": [6, 5], "roll": HIT, "score": 55,
        "success": True, "power": 6, "xp": 10,
        "targets": [{"id": foe.pk, "name": "Foe", "reduction": 2, "pv_lost": 4, "pv": 96}]}


def test_a_failed_cast_rolls_nothing_more_and_gives_miss_xp(alice, mage, foe, fireball):
    result, rng = cast(alice, mage, fireball, 6, 5, MISS)

    assert not result.outcome.success and result.targets == []
    assert rng.calls == [(1, 100)]
    assert fetch(foe).ew1.pv == 100
    m = fetch(mage)
    assert (m.ew1.pa, m.ew1.xp) == (Decimal("10"), 1)
    assert result.action.summary["success"] is False and result.action.summary["xp"] == 1


def test_the_evolution_bonuses_add_to_the_damage(alice, mage, foe, fireball):
    EternalWarSheet.objects.filter(pk=mage.pk).update(
        level=20, xp=2000, skills={"magic": 70})

    result, _ = cast(alice, mage, fireball, 6, 5, 70, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert result.outcome.power == 6 + 2 + 2  # level 20: +2; magic 70: +2
    spell_roll = result.action.rolls.get(label="spell_power")
    assert spell_roll.modifiers == [{"label": "level", "value": 2, "source": "level"},
                                    {"label": "magic skill", "value": 2, "source": "magic skill"}]


def test_a_target_below_0_pv_is_disincarnated_with_a_kill_for_the_caster(alice, mage, foe,
                                                                      fireball):
    EternalWarSheet.objects.filter(pk=foe.pk).update(pv=3)

    result, _ = cast(alice, mage, fireball, 6, 5, HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert result.targets[0]["disincarnated"] is True
    f, m = fetch(foe), fetch(mage)
    assert (f.ew1.pv, f.board_id, f.x, f.y, f.deaths) == (-2, None, None, None, 1)
    assert m.kills == 1


def test_a_target_left_at_0_pv_stays_on_the_board(alice, mage, foe, fireball):
    EternalWarSheet.objects.filter(pk=foe.pk).update(pv=5)

    cast(alice, mage, fireball, 6, 5, HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    f = fetch(foe)
    assert (f.ew1.pv, f.board_id is not None, f.deaths, fetch(mage).kills) == (0, True, 0, 0)


def test_a_protected_level_0_character_cannot_be_hurt_by_a_spell(alice, mage, bob, campaign,
                                                                fireball, unchanged):
    newbie = character(bob, campaign, "Newbie", (6, 6), acted=False)
    assert newbie.ew1.is_protected

    with unchanged(), pytest.raises(errors.TargetProtected):
        cast(alice, mage, fireball, 6, 6)


# --- faction bonus -------------------------------------------------------------------------------

def test_allies_in_view_give_the_faction_magic_bonus(alice, bob, mage, campaign, foe, fireball):
    friends = [character(bob, campaign, f"Friend {i}", (4, 4 + i)) for i in range(3)]
    ally(mage, *friends)

    result, _ = cast(alice, mage, fireball, 6, 5, 99)

    # faction_magic_factor 2 x log2(3 allies) = 3.17, rounded down
    assert result.outcome.score == 55 + 3
    test = result.action.rolls.get(label="cast")
    assert test.modifiers == [
        {"label": "faction (3 allies)", "value": 3, "source": "faction (3 allies)"}]


def test_with_a_magic_factor_of_0_the_score_is_the_magic_skill(alice, bob, mage, campaign, foe,
                                                               fireball):
    set_parameters(mage, faction_magic_factor=0)
    friends = [character(bob, campaign, f"Friend {i}", (4, 4 + i)) for i in range(3)]
    ally(mage, *friends)

    result, _ = cast(alice, mage, fireball, 6, 5, MISS)

    assert result.outcome.score == 55
    assert result.action.rolls.get(label="cast").modifiers == []


def test_the_faction_magic_bonus_comes_from_the_faction_hook(alice, mage, foe, fireball,
                                                             monkeypatch):
    asked = []

    def hook(character, pieces, params):
        asked.append((character.pk, sorted(p.pk for p in pieces)))
        return FactionBonus(allies=4, attack=0, dodge=4, magic=7)

    monkeypatch.setattr("magic.casting.combat_bonus", hook)

    result, _ = cast(alice, mage, fireball, 6, 5, 62, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert asked == [(mage.pk, sorted([mage.pk, foe.pk]))]
    assert result.outcome.score == 62 and result.outcome.success
    test = result.action.rolls.get(label="cast")
    assert (test.target_score, test.modifiers) == (62, [{"label": "faction (4 allies)",
                                                         "value": 7, "source": "faction (4 allies)"}])


# --- refusals ------------------------------------------------------------------------------------

def test_out_of_range_is_refused(alice, mage, bob, campaign, fireball, unchanged):
    character(bob, campaign, "Far", (11, 5))  # 6 cells

    with unchanged(), pytest.raises(errors.OutOfRange) as refused:
        cast(alice, mage, fireball, 11, 5)
    assert refused.value.code == "out_of_range"


def test_an_unknown_spell_is_refused(alice, mage, foe, spells, unchanged):
    with unchanged(), pytest.raises(SpellUnknown) as refused:
        cast(alice, mage, spells["Météore"], 6, 5)
    assert refused.value.code == "spell_unknown"


def test_not_enough_pa_is_refused(alice, mage, foe, fireball, unchanged):
    EternalWarSheet.objects.filter(pk=mage.pk).update(pa=Decimal("1.5"))

    with unchanged(), pytest.raises(errors.NotEnoughPA):
        cast(alice, mage, fireball, 6, 5)


def test_a_caster_at_0_pv_cannot_cast(alice, mage, foe, fireball, unchanged):
    EternalWarSheet.objects.filter(pk=mage.pk).update(pv=0)

    with unchanged(), pytest.raises(errors.CannotAct):
        cast(alice, mage, fireball, 6, 5)


def test_a_disincarnated_caster_cannot_cast(alice, mage, foe, fireball, unchanged):
    type(mage).objects.filter(pk=mage.pk).update(board=None, x=None, y=None)

    with unchanged(), pytest.raises(errors.CannotAct):
        cast(alice, mage, fireball, 6, 5)


def test_an_empty_cell_is_refused(alice, mage, fireball, unchanged):
    with unchanged(), pytest.raises(errors.InvalidTarget):
        cast(alice, mage, fireball, 7, 7)


def test_a_cell_off_the_board_is_refused(alice, mage, fireball, unchanged):
    with unchanged(), pytest.raises(errors.OffBoard):
        cast(alice, mage, fireball, 5, 20)


def test_another_players_character_cannot_cast(bob, mage, foe, fireball, unchanged):
    with unchanged(), pytest.raises(NotFound):
        cast(bob, mage, fireball, 6, 5)


def test_the_game_master_cannot_cast_with_a_player_character(mage, foe, fireball, unchanged):
    from tests import factories

    gm = factories.user("gm", is_staff=True, is_superuser=True)
    with unchanged(), pytest.raises(Forbidden):
        cast(gm, mage, fireball, 6, 5)


# --- zones ---------------------------------------------------------------------------------------

def test_a_zone_damage_spell_hits_everyone_in_the_radius_caster_included(
        alice, bob, carol, mage, campaign, spells):
    teach(mage, spells["Explosion"])
    near = character(bob, campaign, "Near", (8, 6))     # 1 from (7, 5)
    edge = character(carol, campaign, "Edge", (9, 7))   # 2
    own = character(alice, campaign, "Twin", (7, 3))    # 2: one's own characters too
    out = character(bob, campaign, "Out", (10, 5))      # 3: outside
    inside = [mage, near, edge, own]
    reductions = [DEF_FAIL] * 3 * len(inside)

    result, _ = cast(alice, mage, spells["Explosion"], 7, 5, HIT, 5, *reductions)

    assert [t["id"] for t in result.targets] == sorted(c.pk for c in inside)
    assert {t["pv_lost"] for t in result.targets} == {6 - 1}
    assert [fetch(c).ew1.pv for c in inside] == [95] * 4
    assert fetch(out).ew1.pv == 100
    assert result.action.target is None  # several targets: see the summary


def test_a_zone_rolls_its_dice_once_for_every_target(alice, bob, mage, campaign, spells):
    teach(mage, spells["Explosion"])
    character(bob, campaign, "A", (8, 8))
    character(bob, campaign, "B", (9, 9))

    result, _ = cast(alice, mage, spells["Explosion"], 9, 9, HIT, 5, *[DEF_FAIL] * 6)

    assert result.action.rolls.filter(label="spell_power").count() == 1


def test_a_zone_heal_reaches_allies_only(alice, bob, carol, mage, campaign, spells):
    teach(mage, spells["Guérison de groupe"])
    friend = character(bob, campaign, "Friend", (6, 5), pv=90)
    twin = character(alice, campaign, "Twin", (4, 5), pv=99)
    enemy = character(carol, campaign, "Enemy", (5, 6), pv=50)
    rival = character(carol, campaign, "Rival", (6, 6), pv=50)
    ally(mage, friend)
    ally(rival)
    EternalWarSheet.objects.filter(pk=mage.pk).update(pv=50)

    result, _ = cast(alice, mage, spells["Guérison de groupe"], 5, 5, HIT, 6)  # 7 PV

    assert sorted(t["id"] for t in result.targets) == sorted([mage.pk, friend.pk, twin.pk])
    assert fetch(mage).ew1.pv == 57
    assert fetch(friend).ew1.pv == 97
    assert fetch(twin).ew1.pv == 100  # capped at the maximum
    assert fetch(enemy).ew1.pv == fetch(rival).ew1.pv == 50


def test_a_zone_heal_on_a_remote_cell_reaches_faction_members(alice, bob, carol, mage, campaign,
                                                             spells):
    teach(mage, spells["Guérison de groupe"])
    friend = character(bob, campaign, "Friend", (9, 5), pv=80)
    stranger = character(carol, campaign, "Stranger", (9, 6), pv=80)
    ally(mage, friend)

    result, _ = cast(alice, mage, spells["Guérison de groupe"], 9, 5, HIT, 6)

    assert [t["id"] for t in result.targets] == [friend.pk]
    assert (fetch(friend).ew1.pv, fetch(stranger).ew1.pv) == (87, 80)


def test_an_allies_zone_with_no_ally_in_it_is_refused(alice, bob, mage, campaign, spells,
                                                      unchanged):
    teach(mage, spells["Guérison de groupe"])
    character(bob, campaign, "Stranger", (9, 5))

    with unchanged(), pytest.raises(errors.InvalidTarget):
        cast(alice, mage, spells["Guérison de groupe"], 9, 5)


@pytest.mark.parametrize("pv, healed", [(100, 0), (99, 1), (93, 7), (0, 7)])
def test_a_heal_never_exceeds_the_maximum(alice, mage, foe, spells, pv, healed):
    teach(mage, spells["Soin"])
    EternalWarSheet.objects.filter(pk=foe.pk).update(pv=pv)

    result, _ = cast(alice, mage, spells["Soin"], 6, 5, HIT, 6)

    assert result.targets == [{"id": foe.pk, "name": "Foe", "healed": healed, "pv": pv + healed}]
    assert fetch(foe).ew1.pv == pv + healed


def test_the_caster_may_heal_itself(alice, mage, spells):
    teach(mage, spells["Soin"])
    EternalWarSheet.objects.filter(pk=mage.pk).update(pv=10)

    cast(alice, mage, spells["Soin"], 5, 5, HIT, 1)

    m = fetch(mage)
    assert (m.ew1.pv, m.ew1.xp, m.ew1.pa) == (12, 10, Decimal("10"))


# --- XP ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("faces, xp", [((HIT, 1, DEF_FAIL, DEF_FAIL, DEF_FAIL), 10), ((MISS,), 1)])
def test_xp_is_10_per_success_and_1_per_failure(alice, mage, foe, fireball, faces, xp):
    cast(alice, mage, fireball, 6, 5, *faces)
    assert fetch(mage).ew1.xp == xp


def test_the_cost_and_xp_are_campaign_parameters(alice, mage, foe, fireball):
    set_parameters(mage, magic_cost_pa="3", magic_xp=12)

    cast(alice, mage, fireball, 6, 5, HIT, 1, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    m = fetch(mage)
    assert (m.ew1.pa, m.ew1.xp) == (Decimal("9"), 12)


def test_a_zone_spares_protected_characters(alice, bob, mage, campaign, spells):
    teach(mage, spells["Explosion"])
    newbie = character(bob, campaign, "Newbie", (9, 9), acted=False)
    veteran = character(bob, campaign, "Veteran", (9, 8))

    result, _ = cast(alice, mage, spells["Explosion"], 9, 9, HIT, 5, *[DEF_FAIL] * 3)

    assert [t["id"] for t in result.targets] == [veteran.pk]
    assert fetch(newbie).ew1.pv == 100


# --- pinned query counts -------------------------------------------------------------------------

@pytest.mark.parametrize("inside, outside", [(1, 0), (4, 6)])
def test_a_zone_cast_locks_once_whatever_the_number_of_pieces(
        alice, bob, mage, campaign, spells, inside, outside, django_assert_num_queries):
    """Savepoint; the known spell; the pieces in the zone; every sheet the cast may change locked
    in ONE statement (issue 9), their equipped items; the pieces in view with their factions and
    shields; the sheets in one UPDATE, the characters in another; the action, its rolls;
    release. The same whatever the number of targets (issue 10: 12 + 2 per target before)."""
    teach(mage, spells["Explosion"])
    cells = [(9, 5), (10, 5), (9, 6), (8, 4)][:inside]
    for i, cell in enumerate(cells):
        character(bob, campaign, f"In {i}", cell)
    for i in range(outside):
        character(bob, campaign, f"Out {i}", (12 + i, 12))  # in view, not in the zone

    with django_assert_num_queries(11):
        result, _ = cast(alice, mage, spells["Explosion"], 9, 5, HIT, 5,
                         *[DEF_FAIL] * 3 * inside)

    assert len(result.targets) == inside
