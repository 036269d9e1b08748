"""Attacks with items: melee, ranged, throw; the own-characters malus; doors and creatures.

docs/rules/eternal-war-one-ii.md, "Equipment", "Weapon attacks", "Throw", "Own characters malus",
"Other targets"; the seed's worked example of the Masse à deux mains.
"""

from decimal import Decimal

import pytest

from campaigns.errors import NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_attack, action_game
from ew1.equipment import item_equip, item_grant
from ew1.models import EternalWarSheet, ItemModifier, ItemTemplate
from ew1.services import piece_create
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW, FakeRandom

Kind, Category = ItemTemplate.Kind, ItemTemplate.Category
SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10, "throw": 25,
          "game": 30}
# The seed's example: Arme mêlée 35, FOR 15; TAI 12 so FOR + TAI = 27 gives +1d4 base damage.
ATTACKER = {"FOR": 15, "TAI": 12, "DEF": 10, "DEX": 10, "LUK": 10, "skills": SKILLS}
# Dodge score Esquive 10 + LUK 10 // 5 = 12; DEF rolls succeed on <= 10.
DEFENDER = {"FOR": 10, "TAI": 10, "DEF": 10, "DEX": 10, "LUK": 10, "skills": SKILLS}
NO_DODGE, DEF_FAIL, DEF_OK, MISS = 12, 11, 10, 100


def template(name, kind, *, category=Category.STANDARD, modifiers=(), **fields):
    t = factories.ItemTemplateFactory(name=name, kind=kind, category=category,
                                      **{"damage_dice": "", **fields})
    for stat, dice in modifiers:
        ItemModifier.objects.create(item=t, stat=stat, dice=dice)
    return t


def equip(user, character, t, *faces):
    item = item_grant(character=character, template=t, rng=FakeRandom(*faces), now=NOW)
    item_equip(user=user, character_id=character.pk, item_id=item.pk)
    return item


@pytest.fixture
def board(db):
    return factories.campaign(name="Field", width=20, height=20)


@pytest.fixture
def fighters(alice, bob, board):
    a = factories.character(owner=alice, campaign=board, name="Attacker", at=(5, 5), now=NOW,
                            **ATTACKER)
    b = factories.character(owner=bob, campaign=board, name="Defender", at=(6, 5), now=NOW,
                            **DEFENDER)
    return a, b


@pytest.fixture
def mace(db):
    return template("Masse à deux mains", Kind.MELEE, category=Category.LEGENDARY,
                    damage_dice="2d6+1", weapon_skill=10, modifiers=[("FOR", "+1d3")])


def attack(user, a, b, kind, *faces):
    return action_attack(user=user, character_id=a.pk, target_id=b.pk, kind=kind,
                         rng=FakeRandom(*faces), now=NOW)


def fetch(c):
    return Character.objects.select_related("ew1").get(pk=c.pk)


def rolls(result):
    return [(r.label, r.expression, r.faces, r.total, r.target_score, r.success, r.actor_id)
            for r in result.action.rolls.all()]


def test_the_seed_example_a_legendary_mace_hits_on_55(alice, fighters, mace):
    a, b = fighters
    equip(alice, a, mace, 2)  # the legendary FOR +1d3 rolled 2: +2 damage, not to the test

    result = attack(alice, a, b, "melee", 55, NO_DODGE, 3, 4, 5, DEF_FAIL, DEF_OK, DEF_FAIL)

    o = result.outcome
    # 1d4 base (3) + 2d6+1 (4 + 5 + 1) + 2 legendary = 15; reduction 1 + 1 DEF roll won = 2.
    assert (o.attack_score, o.hit, o.damage, o.reduction, o.pv_lost) == (60, True, 15, 2, 13)
    assert rolls(result) == [
        ("attack", "1d100", [55], 55, 60, True, a.pk),
        ("dodge", "1d100", [NO_DODGE], NO_DODGE, 12, False, b.pk),
        ("base_damage", "+1d4", [3], 3, None, None, a.pk),
        ("weapon_damage", "2d6+1", [4, 5], 10, None, None, a.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, b.pk),
        ("damage_reduction", "1d100", [DEF_OK], DEF_OK, 10, True, b.pk),
        ("damage_reduction", "1d100", [DEF_FAIL], DEF_FAIL, 10, False, b.pk),
    ]
    assert result.action.rolls.first().modifiers == [
        {"label": "weapon skill (ca)", "value": 10, "source": "weapon skill (ca)"},
        {"label": "FOR", "value": 15, "source": "FOR"}]
    assert (result.action.kind, result.action.cost, result.action.summary["weapon"]) == (
        "melee", Decimal("2"), "Masse à deux mains")
    a, b = fetch(a), fetch(b)
    assert (a.ew1.pa, a.ew1.xp, b.ew1.pv) == (Decimal("10"), 5, 87)


def test_the_seed_example_misses_on_61(alice, fighters, mace):
    a, b = fighters
    equip(alice, a, mace, 2)
    result = attack(alice, a, b, "melee", 61)
    assert (result.outcome.attack_score, result.outcome.hit) == (60, False)
    assert rolls(result) == [("attack", "1d100", [61], 61, 60, False, a.pk)]
    assert (fetch(a).ew1.xp, fetch(a).ew1.pa, fetch(b).ew1.pv) == (1, Decimal("10"), 100)


def test_a_standard_weapons_for_modifier_adds_to_the_melee_score(alice, fighters):
    a, b = fighters
    sword = template("Épée", Kind.MELEE, damage_dice="1d8", weapon_skill=5,
                     modifiers=[("FOR", "+1d3")])
    equip(alice, a, sword, 3)
    result = attack(alice, a, b, "melee", MISS)
    assert result.outcome.attack_score == 35 + 5 + 15 + 3
    assert result.action.rolls.get().modifiers == [
        {"label": "weapon skill (ca)", "value": 5, "source": "weapon skill (ca)"},
        {"label": "FOR", "value": 15, "source": "FOR"},
        {"label": "items FOR", "value": 3, "source": "items FOR"}]


def test_a_standard_armours_def_modifier_raises_the_reduction_target(alice, bob, fighters):
    a, b = fighters
    mail = template("Cotte", Kind.ARMOUR, armour=1, modifiers=[("DEF", "+1d3")])
    equip(bob, b, mail, 3)
    # A brawl (no item modifier on the attack): FOR 15 + TAI 12 = 27 gives +1d4 base damage.
    result = attack(alice, a, b, "brawl", 50, NO_DODGE, 4, 4, 13, 14, 13)
    assert [(r.label, r.target_score, r.success) for r in result.action.rolls.all()][-3:] == [
        ("damage_reduction", 13, True), ("damage_reduction", 13, False),
        ("damage_reduction", 13, True)]
    # 8 damage - (1 base + 2 rolls won + 1 armour).
    assert (result.outcome.damage, result.outcome.reduction, result.outcome.pv_lost) == (8, 4, 4)


def test_a_legendary_armours_modifiers_add_to_the_armour(alice, bob, fighters):
    a, b = fighters
    plate = template("Armure lourde", Kind.ARMOUR, category=Category.LEGENDARY, armour=2,
                     modifiers=[("DEF", "+1d3")])
    equip(bob, b, plate, 3)
    result = attack(alice, a, b, "brawl", 50, NO_DODGE, 4, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)
    assert {r.target_score for r in result.action.rolls.filter(label="damage_reduction")} == {10}
    # 8 damage - (1 base + 0 rolls won + 2 armour + 3 legendary).
    assert (result.outcome.reduction, result.outcome.pv_lost) == (6, 2)


@pytest.fixture
def bow(db):
    return template("Arc", Kind.RANGED, damage_dice="1d6", weapon_skill=5, range_cells=4)


def test_a_ranged_attack_loses_1_per_cell_beyond_the_first(alice, bob, board, fighters, bow):
    a, _ = fighters
    far = factories.character(owner=bob, campaign=board, name="Far", at=(8, 5), now=NOW,
                              **DEFENDER)
    equip(alice, a, bow)
    result = attack(alice, a, far, "ranged", MISS)
    assert result.outcome.attack_score == 25 + 5 + 10 - 2
    assert result.action.rolls.get().modifiers == [
        {"label": "weapon skill (ca)", "value": 5, "source": "weapon skill (ca)"},
        {"label": "DEX", "value": 10, "source": "DEX"},
        {"label": "distance", "value": -2, "source": "distance"}]
    assert (result.action.summary["distance"], result.action.cost) == (3, Decimal("2"))


def test_a_ranged_attack_beyond_the_weapons_range_is_refused(alice, bob, board, fighters, bow,
                                                             unchanged):
    a, _ = fighters
    far = factories.character(owner=bob, campaign=board, name="Far", at=(10, 5), now=NOW)
    equip(alice, a, bow)
    with unchanged(), pytest.raises(errors.OutOfRange) as exc:
        attack(alice, a, far, "ranged", MISS)
    assert exc.value.code == "out_of_range"


def test_weapon_attacks_need_the_weapon(alice, fighters, unchanged):
    a, b = fighters
    for kind in ("melee", "ranged"):
        with unchanged(), pytest.raises(errors.ItemMissing) as exc:
            attack(alice, a, b, kind, 50)
        assert exc.value.code == "item_missing"


def test_melee_needs_an_adjacent_target(alice, bob, board, fighters, mace, unchanged):
    a, _ = fighters
    far = factories.character(owner=bob, campaign=board, name="Far", at=(7, 5), now=NOW)
    equip(alice, a, mace, 1)
    with unchanged(), pytest.raises(errors.NotAdjacent):
        attack(alice, a, far, "melee", 50)


def test_an_unknown_kind_is_refused(alice, fighters, unchanged):
    a, b = fighters
    with unchanged(), pytest.raises(errors.InvalidTarget):
        attack(alice, a, b, "magic", 50)


def test_a_throw_costs_1_pa_and_pays_throw_xp(alice, bob):
    field = factories.campaign(name="Throwing", throw_xp=7)
    a = factories.character(owner=alice, campaign=field, name="Thrower", at=(5, 5), now=NOW,
                            **ATTACKER)
    b = factories.character(owner=bob, campaign=field, name="Target", at=(7, 5), now=NOW,
                            **DEFENDER)
    # Lancé 25 + DEX 10 - 1 (distance 2); DEX + TAI = 22: no base damage; 1d4.
    result = attack(alice, a, b, "throw", 34, NO_DODGE, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)
    assert (result.outcome.attack_score, result.outcome.hit, result.outcome.pv_lost) == (
        34, True, 3)
    assert [r[0] for r in rolls(result)] == ["attack", "dodge", "throw_damage",
                                             "damage_reduction", "damage_reduction",
                                             "damage_reduction"]
    a = fetch(a)
    assert (a.ew1.pa, a.ew1.xp, result.action.cost) == (Decimal("11"), 7, Decimal("1"))

    miss = attack(alice, a, b, "throw", 35)
    assert (miss.outcome.hit, fetch(a).ew1.xp, fetch(a).ew1.pa) == (False, 8, Decimal("10"))


def test_a_throw_beyond_3_cells_is_refused(alice, bob, board, fighters, unchanged):
    a, _ = fighters
    far = factories.character(owner=bob, campaign=board, name="Far", at=(9, 5), now=NOW)
    with unchanged(), pytest.raises(errors.OutOfRange):
        attack(alice, a, far, "throw", 10)


def test_own_characters_nearby_give_a_malus(alice, board, fighters):
    a, b = fighters
    for name, at in (("Two", (3, 5)), ("Three", (5, 8)), ("Five", (10, 5)), ("Six", (5, 11))):
        factories.character(owner=alice, campaign=board, name=name, at=at, now=NOW)
    piece_create(campaign=board, kind="creature", name="Beast", x=4, y=4, pv=10,
                 fixed_reduction=0, now=NOW)  # nobody's: no malus

    result = attack(alice, a, b, "brawl", MISS)

    malus = (5 - 2) + (5 - 3) + (5 - 5)  # the one at 6 cells is out of reach
    assert result.outcome.attack_score == 90 - malus
    assert result.action.rolls.get().modifiers == [
        {"label": "own characters in view", "value": -malus, "source": "own characters in view"}]
    assert result.action.summary["own_characters_malus"] == malus


def test_no_malus_alone(alice, fighters):
    a, b = fighters
    result = attack(alice, a, b, "brawl", MISS)
    assert result.action.summary["own_characters_malus"] == 0
    assert result.action.rolls.get().modifiers == []


def test_a_door_blocks_its_fixed_reduction_and_never_dodges(alice, board, fighters):
    a, _ = fighters
    door = piece_create(campaign=board, kind="door", name="Door", x=5, y=6, pv=20,
                        fixed_reduction=3, now=NOW)
    result = attack(alice, a, door, "brawl", 50, 2, 4)
    assert [r[0] for r in rolls(result)] == ["attack", "base_damage", "brawl_damage"]
    o = result.outcome
    assert (o.dodge_score, o.damage, o.reduction, o.pv_lost) == (None, 6, 3, 3)
    assert (fetch(door).ew1.pv, fetch(door).ew1.xp) == (17, 0)


def test_a_creature_below_0_pv_is_disincarnated(alice, board, fighters):
    a, _ = fighters
    beast = piece_create(campaign=board, kind="creature", name="Beast", x=4, y=5, pv=2,
                         fixed_reduction=1, now=NOW)
    result = attack(alice, a, beast, "brawl", 50, 2, 4)
    assert result.outcome.pv_lost == 5 and result.action.summary["disincarnated"] is True
    beast, a = fetch(beast), fetch(a)
    assert (beast.ew1.pv, beast.board_id, beast.x, beast.deaths) == (-3, None, None, 1)
    assert a.kills == 1


def test_attacks_and_dodges_are_counted(alice, fighters):
    a, b = fighters
    attack(alice, a, b, "brawl", MISS)
    attack(alice, a, b, "brawl", 50, 11)  # dodged: 11 < 12
    attack(alice, a, b, "brawl", 50, NO_DODGE, 1, 1, DEF_OK, DEF_OK, DEF_OK)
    a, b = fetch(a), fetch(b)
    assert (a.attacks, a.dodges, b.attacks, b.dodges) == (3, 0, 0, 1)
    assert ActionRecord.objects.filter(kind="brawl", actor=a).count() == 3


def test_a_refused_attack_counts_nothing(alice, fighters, unchanged):
    a, b = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(pa=Decimal("1"))
    with unchanged(), pytest.raises(errors.NotEnoughPA):
        attack(alice, a, b, "brawl", 50)
    assert (fetch(a).attacks, fetch(b).dodges) == (0, 0)


# The game (Jeu): the other board action that pays XP (docs/rules, "Game").

def game(user, c, *faces):
    return action_game(user=user, character_id=c.pk, rng=FakeRandom(*faces), now=NOW)


def test_a_won_game_costs_1_pa_and_pays_2d4_xp(alice, fighters):
    a, _ = fighters
    result = game(alice, a, 30, 3, 4)  # Jeu 30: a 30 wins
    assert (result.outcome.won, result.outcome.xp) == (True, 7)
    assert [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rolls(result)] == [
        ("game", "1d100", [30], 30, 30, True), ("game_xp", "2d4", [3, 4], 7, None, None)]
    assert (result.action.kind, result.action.cost, result.action.summary) == (
        "game", Decimal("1"), {"won": True, "roll": 30, "score": 30, "xp": 7})
    a = fetch(a)
    assert (a.ew1.pa, a.ew1.xp, a.ew1.level) == (Decimal("11"), 7, 1)
    assert a.first_action_at == a.last_action_at == NOW


def test_a_lost_game_costs_1_pa_and_pays_nothing(alice, fighters):
    a, _ = fighters
    result = game(alice, a, 31)
    assert (result.outcome.won, result.outcome.xp) == (False, 0)
    assert [r[0] for r in rolls(result)] == ["game"]
    assert (fetch(a).ew1.pa, fetch(a).ew1.xp) == (Decimal("11"), 0)


@pytest.mark.parametrize("sheet, error", [
    ({"pa": Decimal("0.5")}, errors.NotEnoughPA),
    ({"pv": 0}, errors.CannotAct),
], ids=["no-pa", "0-pv"])
def test_a_refused_game_changes_nothing(alice, fighters, unchanged, sheet, error):
    a, _ = fighters
    EternalWarSheet.objects.filter(pk=a.pk).update(**sheet)
    with unchanged(), pytest.raises(error):
        game(alice, a, 1, 1, 1)


def test_only_the_owner_plays(bob, fighters, unchanged):
    a, _ = fighters
    with unchanged(), pytest.raises(NotFound):
        game(bob, a, 1, 1, 1)
