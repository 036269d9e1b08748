"""Items: granting (modifier dice rolled once), equipping, using a potion, the loadout.

docs/rules/eternal-war-one-ii.md, "Equipment" and "Healing".
"""

from contextlib import contextmanager
from decimal import Decimal

import pytest

from campaigns.errors import NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_attack
from ew1.equipment import ItemError, item_equip, item_grant, item_unequip, item_use, loadout_of
from ew1.models import EternalWarSheet, ItemInstance, ItemModifier, ItemTemplate
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW, FakeRandom

Kind, Category = ItemTemplate.Kind, ItemTemplate.Category
SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10, "throw": 25,
          "game": 30}


def template(name, kind, *, category=Category.STANDARD, modifiers=(), campaign=None, **fields):
    t = factories.ItemTemplateFactory(name=name, kind=kind, category=category, campaign=campaign,
                                      **{"damage_dice": "", **fields})
    for stat, dice in modifiers:
        ItemModifier.objects.create(item=t, stat=stat, dice=dice)
    return t


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW,
                               FOR=10, DEF=10, TAI=10, INT=10, DEX=10, LUK=10, skills=SKILLS)


@pytest.fixture
def catalogue(db):
    return {
        "sword": template("Épée", Kind.MELEE, damage_dice="1d8", weapon_skill=5,
                          modifiers=[("FOR", "+1d3"), ("DEF", "-1d3")]),
        "axe": template("Hache", Kind.MELEE, damage_dice="1d10"),
        "bow": template("Arc", Kind.RANGED, damage_dice="1d6", range_cells=4),
        "mail": template("Cotte", Kind.ARMOUR, armour=2),
        "helm": template("Heaume", Kind.ARMOUR, armour=1),
        "potion": template("Potion", Kind.MISC, heal_dice="2d4+2"),
    }


def grant(hero, t, *faces):
    return item_grant(character=hero, template=t, rng=FakeRandom(*faces), now=NOW)


def equipped(hero) -> set[str]:
    return set(ItemInstance.objects.filter(owner=hero, equipped=True)
               .values_list("template__name", flat=True))


@pytest.fixture
def items_unchanged(unchanged):
    """``unchanged`` and every item as it was."""

    @contextmanager
    def check():
        before = list(ItemInstance.objects.order_by("pk").values())
        with unchanged():
            yield
        assert list(ItemInstance.objects.order_by("pk").values()) == before

    return check


def test_a_granted_item_rolls_each_modifier_once_and_journals_it(hero, catalogue):
    item = grant(hero, catalogue["sword"], 2, 3)

    item.refresh_from_db()
    assert (item.owner, item.equipped, item.modifier_values) == (hero, False, {"FOR": 2, "DEF": -3})
    action = ActionRecord.objects.get(kind="item_grant")
    assert (action.actor, action.summary) == (
        hero, {"item": "Épée", "modifiers": {"FOR": 2, "DEF": -3}})
    assert list(action.rolls.values_list("label", "expression", "faces", "total", "actor")) == [
        ("item FOR", "+1d3", [2], 2, hero.pk), ("item DEF", "-1d3", [-3], -3, hero.pk)]


def test_an_item_keeps_its_values_from_one_attack_to_the_next(alice, bob, hero, campaign,
                                                              catalogue):
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5), now=NOW)
    item = grant(hero, catalogue["sword"], 2, 1)
    item_equip(user=alice, character_id=hero.pk, item_id=item.pk)
    scores = []
    for _ in range(3):  # each a miss: the attack roll only
        result = action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, kind="melee",
                               rng=FakeRandom(100), now=NOW)
        scores.append(result.action.rolls.get().target_score)
    assert scores == [35 + 5 + 10 + 2] * 3
    item.refresh_from_db()
    assert item.modifier_values == {"FOR": 2, "DEF": -1}
    assert ActionRecord.objects.filter(kind="item_grant").count() == 1


def test_a_template_of_another_campaign_cannot_be_granted(hero, items_unchanged):
    elsewhere = factories.campaign(name="Elsewhere")
    t = template("Lance", Kind.MELEE, damage_dice="1d8", campaign=elsewhere)
    with items_unchanged(), pytest.raises(ItemError) as exc:
        grant(hero, t)
    assert exc.value.code == "invalid_item"


def test_a_second_melee_weapon_replaces_the_first(alice, hero, catalogue):
    sword, axe = grant(hero, catalogue["sword"], 1, 1), grant(hero, catalogue["axe"])
    item_equip(user=alice, character_id=hero.pk, item_id=sword.pk)
    assert equipped(hero) == {"Épée"}
    item_equip(user=alice, character_id=hero.pk, item_id=axe.pk)
    assert equipped(hero) == {"Hache"}


def test_one_melee_and_one_ranged_weapon_and_several_armours(alice, hero, catalogue):
    names = ("sword", "bow", "mail", "helm")
    items = [grant(hero, catalogue[n], *((1, 1) if n == "sword" else ())) for n in names]
    for item in items:
        item_equip(user=alice, character_id=hero.pk, item_id=item.pk)
    assert equipped(hero) == {"Épée", "Arc", "Cotte", "Heaume"}

    loadout = loadout_of(ItemInstance.objects.filter(owner=hero).select_related("template"))
    assert (loadout.melee.name, loadout.ranged.name, loadout.ranged.range_cells) == (
        "Épée", "Arc", 4)
    assert (loadout.armour, loadout.modifiers) == (3, {"FOR": 1, "DEF": -1})

    item_unequip(user=alice, character_id=hero.pk, item_id=items[2].pk)
    assert equipped(hero) == {"Épée", "Arc", "Heaume"}


def test_a_potion_cannot_be_equipped(alice, hero, catalogue, items_unchanged):
    potion = grant(hero, catalogue["potion"])
    with items_unchanged(), pytest.raises(ItemError) as exc:
        item_equip(user=alice, character_id=hero.pk, item_id=potion.pk)
    assert exc.value.message == "A consumable is used, not equipped."


def test_a_potion_heals_costs_1_pa_and_is_gone(alice, hero, catalogue):
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=50)
    potion = grant(hero, catalogue["potion"])

    outcome = item_use(user=alice, character_id=hero.pk, item_id=potion.pk,
                       rng=FakeRandom(3, 4), now=NOW)

    assert (outcome.pv_before, outcome.pv_after, outcome.healed) == (50, 59, 9)
    s = EternalWarSheet.objects.get(pk=hero.pk)
    assert (s.pv, s.pa) == (59, Decimal("11"))
    assert not ItemInstance.objects.filter(pk=potion.pk).exists()
    action = ActionRecord.objects.get(kind="use_item")
    assert (action.cost, action.summary) == (
        Decimal("1"), {"item": "Potion", "healed": 9, "pv": 59})
    assert list(action.rolls.values_list("label", "expression", "faces", "total")) == [
        ("heal", "2d4+2", [3, 4], 9)]


def test_healing_stops_at_the_maximum(alice, hero, catalogue):
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=97)
    potion = grant(hero, catalogue["potion"])
    outcome = item_use(user=alice, character_id=hero.pk, item_id=potion.pk,
                       rng=FakeRandom(4, 4), now=NOW)
    assert (outcome.pv_after, outcome.healed) == (100, 3)
    assert EternalWarSheet.objects.get(pk=hero.pk).pv == 100


def test_a_potion_works_at_0_pv(alice, hero, catalogue):
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=0)
    potion = grant(hero, catalogue["potion"])
    item_use(user=alice, character_id=hero.pk, item_id=potion.pk, rng=FakeRandom(1, 1), now=NOW)
    assert EternalWarSheet.objects.get(pk=hero.pk).pv == 4


def test_no_potion_once_disincarnated(alice, hero, catalogue, items_unchanged):
    potion = grant(hero, catalogue["potion"])
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=-3)
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    with items_unchanged(), pytest.raises(errors.CannotAct):
        item_use(user=alice, character_id=hero.pk, item_id=potion.pk, rng=FakeRandom(1, 1),
                 now=NOW)


def test_no_potion_without_the_pa(alice, hero, catalogue, items_unchanged):
    potion = grant(hero, catalogue["potion"])
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=50, pa=Decimal("0.5"))
    with items_unchanged(), pytest.raises(errors.NotEnoughPA):
        item_use(user=alice, character_id=hero.pk, item_id=potion.pk, rng=FakeRandom(1, 1),
                 now=NOW)


def test_a_weapon_cannot_be_used(alice, hero, catalogue, items_unchanged):
    axe = grant(hero, catalogue["axe"])
    with items_unchanged(), pytest.raises(ItemError):
        item_use(user=alice, character_id=hero.pk, item_id=axe.pk, rng=FakeRandom(), now=NOW)


def test_another_players_item_is_not_found(alice, bob, hero, campaign, catalogue,
                                           items_unchanged):
    axe, potion = grant(hero, catalogue["axe"]), grant(hero, catalogue["potion"])
    theirs = factories.character(owner=bob, campaign=campaign, name="Theirs", at=(1, 1), now=NOW)
    calls = [
        lambda: item_equip(user=bob, character_id=hero.pk, item_id=axe.pk),
        lambda: item_unequip(user=bob, character_id=hero.pk, item_id=axe.pk),
        lambda: item_use(user=bob, character_id=hero.pk, item_id=potion.pk, rng=FakeRandom(1, 1),
                         now=NOW),
        # Bob's own character id with Alice's item: still not his item.
        lambda: item_equip(user=bob, character_id=theirs.pk, item_id=axe.pk),
        lambda: item_equip(user=alice, character_id=hero.pk, item_id=987654),
    ]
    for call in calls:
        with items_unchanged(), pytest.raises(NotFound):
            call()


def test_a_legendary_misc_item_adds_nothing_to_armour_or_tests(hero, catalogue):
    """Issue 8, item 7: seed "Objets légendaires : ... les dégâts infligés (pour les armes) ou
    l'armure (pour les protections)": a legendary misc item (not a protection) adds its
    modifiers neither to the armour nor, being legendary, to the skill tests."""
    amulet = template("Amulette", Kind.MISC, category=Category.LEGENDARY,
                      modifiers=[("DEF", "+1d3"), ("FOR", "+1d3")])
    plate = template("Plaque", Kind.ARMOUR, category=Category.LEGENDARY, armour=2,
                     modifiers=[("DEF", "+1d3")])
    for item in (grant(hero, amulet, 3, 2), grant(hero, plate, 1)):
        ItemInstance.objects.filter(pk=item.pk).update(equipped=True)

    loadout = loadout_of(ItemInstance.objects.filter(owner=hero).select_related("template"))

    assert (loadout.armour, loadout.modifiers) == (2 + 1, {})  # the plate's points and bonus
