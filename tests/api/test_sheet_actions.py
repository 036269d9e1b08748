"""Sheet endpoints: level-up (POST /api/characters/{id}/level-up/) and the inventory
(/api/characters/{id}/items/{item_id}/equip/, /unequip/, /use/)."""

import time
from decimal import Decimal

import pytest

from campaigns.models import ActionRecord, Campaign
from ew1.models import EternalWarSheet, ItemInstance
from tests import factories
from tests.api.conftest import (assert_refused, bow, forced, give, give_many, potion, snapshot,
                                sword, template)


@pytest.fixture
def anna(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5), level=1,
                               xp=10, skill_points=15, characteristic_points=1)


def level_up(client, character, skills=None, characteristics=None, **extra):
    payload = {**({"skills": skills} if skills is not None else {}),
               **({"characteristics": characteristics} if characteristics is not None else {}),
               **extra}
    return client.post(f"/api/characters/{character.pk}/level-up/", payload, format="json")


def item_url(character, item, verb: str) -> str:
    return f"/api/characters/{character.pk}/items/{item.pk}/{verb}/"


def reader(campaign, role: str):
    user = factories.user("reader", is_staff=(role == "staff"))
    if role == "game_master":
        Campaign.objects.filter(pk=campaign.pk).update(game_master=user)
    return user


# --- the sheet --------------------------------------------------------------------------------

@pytest.mark.django_db
def test_sheet_shows_points_cap_and_items(campaign, alice, anna):
    blade = give(anna, sword(weapon_skill=5), equipped=True)
    flask = give(anna, potion())
    EternalWarSheet.objects.filter(pk=anna.pk).update(skills_raised={"brawl": 2})

    body = forced(alice).get(f"/api/characters/{anna.pk}/").json()

    assert (body["skill_points"], body["characteristic_points"]) == (15, 1)
    assert body["per_skill_cap"] == 5 and body["skills_raised"] == {"brawl": 2}
    assert (body["attacks"], body["dodges"], body["reincarnation_blocked_until"]) == (0, 0, None)
    common = {"category": "standard", "weapon_skill": 0, "range_cells": 1, "armour": 0,
              "damage_dice": "", "heal_dice": "", "modifier_values": {}, "consumable": False}
    assert body["items"] == [  # equipped first
        {**common, "id": blade.pk, "name": "Sword", "kind": "melee", "damage_dice": "1d8",
         "weapon_skill": 5, "equipped": True},
        {**common, "id": flask.pk, "name": "Potion", "kind": "misc", "heal_dice": "2d6",
         "consumable": True, "equipped": False},
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("level, floor, cap", [(1, 5, 5), (9, 2, 3), (30, 5, 10), (3, 0, 1)])
def test_per_skill_cap_follows_the_level_and_the_campaign(alice, level, floor, cap):
    campaign = factories.campaign(name=f"Floor {floor}", skill_cap_floor=floor)
    a = factories.character(owner=alice, campaign=campaign, name="Anna", level=level)

    assert forced(alice).get(f"/api/characters/{a.pk}/").json()["per_skill_cap"] == cap


# --- POST /api/characters/{id}/level-up/ ------------------------------------------------------

@pytest.mark.django_db
def test_level_up(api_as, alice, anna):
    skills = dict(anna.ew1.skills)

    response = level_up(api_as(alice), anna, skills={"brawl": 2, "dodge": 5},
                        characteristics={"FOR": 1})

    assert response.status_code == 200
    body = response.json()
    assert body["skills"] == {**skills, "brawl": skills["brawl"] + 2,
                              "dodge": skills["dodge"] + 5}
    assert body["characteristics"]["FOR"] == anna.ew1.FOR + 1
    assert (body["skill_points"], body["characteristic_points"]) == (8, 0)
    assert body["skills_raised"] == {"brawl": 2, "dodge": 5}
    assert body["log"][0]["kind"] == "level_up"
    sheet = EternalWarSheet.objects.get(pk=anna.pk)
    assert (sheet.skills, sheet.FOR, sheet.skill_points) == (body["skills"], anna.ew1.FOR + 1, 8)


@pytest.mark.django_db
def test_level_up_again_counts_what_was_raised(alice, anna):
    client = forced(alice)
    level_up(client, anna, skills={"brawl": 3})
    before = snapshot(anna)

    response = level_up(client, anna, skills={"brawl": 3})  # 6 > cap 5 since the last level

    assert_refused(response, 400, "invalid_level_up", before, anna)
    assert level_up(client, anna, skills={"brawl": 2}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("skills, characteristics", [
    ({"brawl": 5, "melee": 5, "ranged": 5, "throw": 1}, {}),  # 16 skill points, 15 banked
    ({}, {"FOR": 2}),  # 2 characteristic points, 1 banked
    ({"brawl": 6}, {}),  # above the per-skill cap (5)
    ({"brawl": 0}, {}),  # nothing to spend
    ({"swimming": 1}, {}),  # not a skill
    ({"brawl": -1, "melee": 2}, {}),  # points are not taken back
    ({}, {"POU": 1}),  # not a characteristic
], ids=["skill-points", "characteristic-points", "cap", "nothing", "unknown-skill", "negative",
        "unknown-characteristic"])
def test_level_up_beyond_the_rules(alice, anna, skills, characteristics):
    before = snapshot(anna)

    response = level_up(forced(alice), anna, skills=skills, characteristics=characteristics)

    assert_refused(response, 400, "invalid_level_up", before, anna)


@pytest.mark.django_db
def test_level_up_past_a_characteristic_maximum(alice, anna):
    EternalWarSheet.objects.filter(pk=anna.pk).update(FOR=40)
    before = snapshot(anna)

    assert_refused(level_up(forced(alice), anna, characteristics={"FOR": 1}), 400,
                   "invalid_level_up", before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("payload", [
    {"skills": [1]}, {"skills": {"brawl": "two"}}, {"skills": {"brawl": 1.5}},
    {"characteristics": "FOR"}, {"skills": {"brawl": 1}, "level": 3}, [],
], ids=repr)
def test_level_up_refuses_malformed_payloads(alice, anna, payload):
    before = snapshot(anna)

    response = forced(alice).post(f"/api/characters/{anna.pk}/level-up/", payload, format="json")

    assert_refused(response, 400, "invalid_input", before, anna)


@pytest.mark.django_db
def test_level_up_query_count(django_assert_num_queries, alice, anna):
    give_many(anna, 20)
    client = forced(alice)

    # visible? (1); savepoint, sheet locked, update, action, release (5); the sheet (4)
    with django_assert_num_queries(10):
        assert level_up(client, anna, skills={"brawl": 1}).status_code == 200


# --- POST .../items/{item_id}/equip/ and /unequip/ --------------------------------------------

@pytest.mark.django_db
def test_equip(api_as, alice, anna):
    blade = give(anna, sword())

    response = api_as(alice).post(item_url(anna, blade, "equip"))

    assert response.status_code == 200
    [item] = response.json()["items"]
    assert (item["id"], item["equipped"]) == (blade.pk, True)
    assert ItemInstance.objects.get(pk=blade.pk).equipped


@pytest.mark.django_db
def test_equipping_a_weapon_replaces_the_one_of_its_kind(alice, anna):
    old = give(anna, sword(), equipped=True)
    new = give(anna, template("Axe", "melee", damage_dice="1d10"))
    ranged = give(anna, bow(), equipped=True)

    body = forced(alice).post(item_url(anna, new, "equip")).json()

    assert {i["id"]: i["equipped"] for i in body["items"]} == {
        old.pk: False, new.pk: True, ranged.pk: True}


@pytest.mark.django_db
def test_unequip(alice, anna):
    blade = give(anna, sword(), equipped=True)

    response = forced(alice).post(item_url(anna, blade, "unequip"))

    assert response.status_code == 200
    assert response.json()["items"][0]["equipped"] is False
    assert not ItemInstance.objects.get(pk=blade.pk).equipped


@pytest.mark.django_db
def test_equip_a_potion(alice, anna):
    flask = give(anna, potion())
    before = snapshot(anna)

    assert_refused(forced(alice).post(item_url(anna, flask, "equip")), 400, "invalid_item",
                   before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("verb", ["equip", "unequip", "use"])
def test_an_item_of_another_character_looks_missing(campaign, alice, anna, verb):
    alt = factories.character(owner=alice, campaign=campaign, name="Alt", at=(1, 1))
    flask = give(alt, potion())
    before = snapshot(anna, alt)

    response = forced(alice).post(item_url(anna, flask, verb))

    assert_refused(response, 404, "not_found", before, anna, alt)
    assert response.json()["detail"] == "No such item."


# --- POST .../items/{item_id}/use/ ------------------------------------------------------------

@pytest.mark.django_db
def test_use_a_potion(api_as, alice, anna, seeded_dice):
    EternalWarSheet.objects.filter(pk=anna.pk).update(pv=50, pv_anchor=int(time.time()))
    flask = give(anna, potion())
    actions = ActionRecord.objects.count()

    response = api_as(alice).post(item_url(anna, flask, "use"))

    assert response.status_code == 200
    body = response.json()
    heal = body["heal"]
    assert heal["roll"]["expression"] == "2d6" and len(heal["roll"]["faces"]) == 2
    assert heal["roll"]["total"] == sum(heal["roll"]["faces"]) == heal["healed"]
    assert (heal["pv_before"], heal["pv_after"]) == (50, 50 + heal["healed"])
    assert (body["sheet"]["pv"], body["sheet"]["pa"], body["sheet"]["items"]) == (
        heal["pv_after"], 11.0, [])
    assert body["sheet"]["log"][0]["kind"] == "use_item"
    sheet = EternalWarSheet.objects.get(pk=anna.pk)
    assert (sheet.pv, sheet.pa) == (heal["pv_after"], Decimal("11.0"))
    assert not ItemInstance.objects.filter(pk=flask.pk).exists()
    assert ActionRecord.objects.count() == actions + 1


@pytest.mark.django_db
def test_use_heals_no_more_than_the_maximum(alice, anna, seeded_dice):
    EternalWarSheet.objects.filter(pk=anna.pk).update(pv=99, pv_anchor=int(time.time()))
    flask = give(anna, potion())

    heal = forced(alice).post(item_url(anna, flask, "use")).json()["heal"]

    assert (heal["pv_after"], heal["healed"]) == (100, 1)


@pytest.mark.django_db
def test_use_a_sword(alice, anna):
    blade = give(anna, sword())
    before = snapshot(anna)

    assert_refused(forced(alice).post(item_url(anna, blade, "use")), 400, "invalid_item",
                   before, anna)


@pytest.mark.django_db
def test_use_without_enough_pa(alice, anna):
    EternalWarSheet.objects.filter(pk=anna.pk).update(pa=Decimal("0.5"), pa_anchor=int(time.time()))
    flask = give(anna, potion())
    before = snapshot(anna)

    assert_refused(forced(alice).post(item_url(anna, flask, "use")), 400, "not_enough_pa",
                   before, anna)


@pytest.mark.django_db
def test_use_while_disincarnated(alice, anna):
    anna.__class__.objects.filter(pk=anna.pk).update(board=None, x=None, y=None)
    flask = give(anna, potion())
    before = snapshot(anna)

    assert_refused(forced(alice).post(item_url(anna, flask, "use")), 400, "cannot_act",
                   before, anna)


# --- permissions ------------------------------------------------------------------------------

def _calls(anna, item):
    return [
        (f"/api/characters/{anna.pk}/level-up/", {"skills": {"brawl": 1}}),
        (item_url(anna, item, "equip"), None),
        (item_url(anna, item, "unequip"), None),
        (item_url(anna, item, "use"), None),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("call", range(4), ids=["level-up", "equip", "unequip", "use"])
def test_another_player_cannot_use_the_character(bob, anna, call):
    path, payload = _calls(anna, give(anna, potion()))[call]
    before = snapshot(anna)

    response = forced(bob).post(path, payload, format="json")

    assert_refused(response, 404, "not_found", before, anna)
    assert response.json()["detail"] == "No such character."


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["game_master", "staff"])
@pytest.mark.parametrize("call", range(4), ids=["level-up", "equip", "unequip", "use"])
def test_readers_who_do_not_own_the_character_cannot_act(campaign, anna, role, call):
    path, payload = _calls(anna, give(anna, potion()))[call]
    before = snapshot(anna)

    assert_refused(forced(reader(campaign, role)).post(path, payload, format="json"), 403,
                   "forbidden", before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("call", range(4), ids=["level-up", "equip", "unequip", "use"])
def test_anonymous_is_refused(api, anna, call):
    path, payload = _calls(anna, give(anna, potion()))[call]
    before = snapshot(anna)

    assert_refused(api.post(path, payload, format="json"), 401, "not_authenticated", before,
                   anna)


@pytest.mark.django_db
@pytest.mark.parametrize("call", range(4), ids=["level-up", "equip", "unequip", "use"])
def test_session_post_without_csrf_token_is_refused(api_as, alice, anna, call):
    path, payload = _calls(anna, give(anna, potion()))[call]
    before = snapshot(anna)

    response = api_as(alice, csrf=True).post(path, payload, format="json")

    assert_refused(response, 403, "permission_denied", before, anna)
    assert response.json()["detail"].startswith("CSRF Failed")


# --- query counts: the same with 1 and with 20 items ------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("inventory", [1, 20])
# the character (visible, playable); the service in a savepoint; the sheet (character, items,
# log, rolls). equip: item locked, other weapons of its kind unequipped, save; unequip: item
# locked, save; use: item locked, sheet locked, sheet saved, action, rolls, item deleted.
@pytest.mark.parametrize("verb, queries", [("equip", 10), ("unequip", 9), ("use", 13)])
def test_item_action_query_count(django_assert_num_queries, alice, anna, seeded_dice, inventory,
                                 verb, queries):
    EternalWarSheet.objects.filter(pk=anna.pk).update(pv=50, pv_anchor=int(time.time()))
    item = give(anna, potion() if verb == "use" else sword(), equipped=(verb == "unequip"))
    give_many(anna, inventory - 1)
    client = forced(alice)

    with django_assert_num_queries(queries):
        response = client.post(item_url(anna, item, verb))

    assert response.status_code == 200
