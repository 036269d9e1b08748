"""Board actions beyond move and brawl: weapon attacks and throws, game, suicide, reincarnation;
the pieces' kinds and possible attacks on the board; query counts at two inventory sizes."""

import random
import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.services import piece_create
from gamerules.ew1.game import resolve_game
from tests import factories
from tests.api.conftest import (assert_refused, bow, forced, give, give_many, potion, snapshot,
                                sword)


@pytest.fixture
def wide(db):
    return factories.campaign(name="Wide", width=20, height=20)


@pytest.fixture
def anna(wide, alice):
    return factories.character(owner=alice, campaign=wide, name="Anna", at=(5, 5))


@pytest.fixture
def bert(wide, bob):
    return factories.character(owner=bob, campaign=wide, name="Bert", at=(6, 5))


def attack(client, character, target, kind=None):
    payload = {"target": target.pk, **({"kind": kind} if kind else {})}
    return client.post(f"/api/characters/{character.pk}/attack/", payload, format="json")


def act(client, character, verb: str):
    return client.post(f"/api/characters/{character.pk}/{verb}/")


def off_board(character, **fields):
    Character.objects.filter(pk=character.pk).update(board=None, x=None, y=None, **fields)


def reader(campaign, role: str):
    user = factories.user("reader", is_staff=(role == "staff"))
    if role == "game_master":
        Campaign.objects.filter(pk=campaign.pk).update(game_master=user)
    return user


# --- POST /api/characters/{id}/attack/ with a kind --------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("kind, item, at, pa, weapon", [
    ("melee", sword, (6, 5), 10.0, "Sword"),
    ("ranged", bow, (9, 5), 10.0, "Bow"),  # 4 cells: the bow's range
    ("throw", None, (8, 8), 11.0, None),  # 3 cells: the campaign's throw range
    ("brawl", None, (6, 6), 10.0, None),
])
def test_attack_of_each_kind(api_as, wide, anna, alice, bob, seeded_dice, kind, item, at, pa,
                             weapon):
    if item:
        give(anna, item(), equipped=True)
    target = factories.character(owner=bob, campaign=wide, name="Target", at=at)
    before = snapshot(anna, target)

    response = attack(api_as(alice), anna, target, kind)

    assert response.status_code == 200, response.content
    body = response.json()
    action, outcome = body["action"], body["outcome"]
    assert action["kind"] == kind and action["cost"] == 12.0 - pa
    assert action["target"] == body["target"] == {"id": target.pk, "name": "Target"}
    assert outcome["weapon"] == weapon
    assert outcome["distance"] == max(abs(at[0] - 5), abs(at[1] - 5))
    assert action["rolls"][0]["label"].startswith("attack")
    assert body["character"]["pa"] == pa
    sheets = {s.pk: s for s in EternalWarSheet.objects.filter(pk__in=[anna.pk, target.pk])}
    assert sheets[anna.pk].pa == Decimal(str(pa))
    assert sheets[anna.pk].xp == outcome["attacker_xp"] == body["character"]["xp"]
    assert sheets[target.pk].pv == outcome["target_pv"] == 100 - outcome["pv_lost"]
    assert Character.objects.get(pk=anna.pk).attacks == 1
    after = snapshot(anna, target)
    assert after["actions"] == before["actions"] + 1
    assert after["rolls"] == before["rolls"] + len(action["rolls"])


@pytest.mark.django_db
def test_attack_without_kind_is_a_brawl(alice, anna, bert, seeded_dice):
    give(anna, sword(), equipped=True)

    body = attack(forced(alice), anna, bert).json()

    assert body["action"]["kind"] == "brawl" and body["outcome"]["weapon"] is None


@pytest.mark.django_db
def test_attack_a_creature(wide, alice, anna, seeded_dice):
    wolf = piece_create(campaign=wide, kind="creature", name="Wolf", x=6, y=6, pv=30,
                        fixed_reduction=2)

    response = attack(forced(alice), anna, wolf, "brawl")

    assert response.status_code == 200
    assert response.json()["outcome"]["target_pv"] == EternalWarSheet.objects.get(pk=wolf.pk).pv


@pytest.mark.django_db
@pytest.mark.parametrize("kind, item", [("melee", None), ("melee", bow), ("ranged", None),
                                        ("ranged", sword)])
def test_weapon_attack_without_the_weapon(alice, anna, bert, seeded_dice, kind, item):
    if item:
        give(anna, item(), equipped=True)
    give(anna, sword() if kind == "melee" else bow())  # owned, not equipped
    before = snapshot(anna, bert)

    assert_refused(attack(forced(alice), anna, bert, kind), 400, "item_missing", before, anna,
                   bert)


@pytest.mark.django_db
@pytest.mark.parametrize("kind, item, at, code", [
    ("ranged", bow, (10, 5), "out_of_range"),  # 5 cells, the bow reaches 4
    ("throw", None, (9, 5), "out_of_range"),  # 4 cells, a throw reaches 3
    ("melee", sword, (7, 5), "not_adjacent"),
    ("brawl", None, (7, 7), "not_adjacent"),
])
def test_attack_out_of_reach(wide, alice, bob, anna, seeded_dice, kind, item, at, code):
    if item:
        give(anna, item(), equipped=True)
    target = factories.character(owner=bob, campaign=wide, name="Far", at=at)
    before = snapshot(anna, target)

    assert_refused(attack(forced(alice), anna, target, kind), 400, code, before, anna, target)


@pytest.mark.django_db
def test_ranged_attack_on_a_protected_target(wide, alice, bob, anna, seeded_dice):
    give(anna, bow(), equipped=True)
    newbie = factories.character(owner=bob, campaign=wide, name="Newbie", at=(8, 5), acted=False)
    before = snapshot(anna, newbie)

    assert_refused(attack(forced(alice), anna, newbie, "ranged"), 400, "target_protected",
                   before, anna, newbie)


@pytest.mark.django_db
def test_throw_without_enough_pa(wide, alice, bert):
    a = factories.character(owner=alice, campaign=wide, name="Tired", at=(5, 5),
                            pa=Decimal("0.5"), pa_anchor=int(time.time()))
    before = snapshot(a, bert)

    assert_refused(attack(forced(alice), a, bert, "throw"), 400, "not_enough_pa", before, a,
                   bert)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["magic", "", None, 3, ["melee"]], ids=repr)
def test_attack_refuses_an_unknown_kind(alice, anna, bert, kind):
    before = snapshot(anna, bert)

    response = forced(alice).post(f"/api/characters/{anna.pk}/attack/",
                                  {"target": bert.pk, "kind": kind}, format="json")

    assert_refused(response, 400, "invalid_input", before, anna, bert)
    assert "kind" in response.json()["errors"]


# --- the board: kinds, protection, possible attacks -------------------------------------------

@pytest.mark.django_db
def test_board_pieces_say_kind_protection_and_attacks(wide, alice, bob, anna, bert):
    give(anna, sword(), equipped=True)
    give(anna, bow(), equipped=True)
    newbie = factories.character(owner=bob, campaign=wide, name="Newbie", at=(4, 4), acted=False)
    door = piece_create(campaign=wide, kind="door", name="Door", x=5, y=8, pv=50,
                        fixed_reduction=5)
    wolf = piece_create(campaign=wide, kind="creature", name="Wolf", x=9, y=9, pv=30,
                        fixed_reduction=2)
    crate = piece_create(campaign=wide, kind="object", name="Crate", x=10, y=5, pv=10,
                         fixed_reduction=0)

    pieces = {p["id"]: p for p in forced(alice).get(f"/api/characters/{anna.pk}/board/").json()[
        "pieces"]}

    summary = {pk: (p["kind"], p["protected"], p["attacks"]) for pk, p in pieces.items()}
    assert summary == {
        anna.pk: ("player", False, []),
        bert.pk: ("player", False, ["brawl", "melee", "ranged", "throw"]),
        newbie.pk: ("player", True, []),
        door.pk: ("door", False, ["ranged", "throw"]),  # 3 cells
        wolf.pk: ("creature", False, ["ranged"]),  # 4 cells
        crate.pk: ("object", False, []),  # 5 cells
    }
    assert pieces[door.pk]["mine"] is False and pieces[anna.pk]["mine"] is True


# --- POST /api/characters/{id}/game/ ----------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1234, 7, 42])
def test_game(api_as, alice, anna, seeded_dice, seed):
    seeded_dice(seed)
    expected = resolve_game(game_skill=anna.ew1.skills["game"], rng=random.Random(seed))

    response = act(api_as(alice), anna, "game")

    assert response.status_code == 200
    body = response.json()
    assert body["action"]["kind"] == "game" and body["action"]["cost"] == 1.0
    assert body["outcome"] == {"won": expected.won, "roll": expected.test.total,
                               "score": anna.ew1.skills["game"], "xp": expected.xp}
    assert [r["label"] for r in body["action"]["rolls"]] == (
        ["game", "game_xp"] if expected.won else ["game"])
    assert (body["character"]["pa"], body["character"]["xp"]) == (11.0, expected.xp)
    sheet = EternalWarSheet.objects.get(pk=anna.pk)
    assert (sheet.pa, sheet.xp) == (Decimal("11.0"), expected.xp)


@pytest.mark.django_db
@pytest.mark.parametrize("state, code", [("no_pa", "not_enough_pa"), ("no_pv", "cannot_act"),
                                         ("off_board", "cannot_act")])
def test_game_refused(alice, anna, seeded_dice, state, code):
    if state == "no_pa":
        EternalWarSheet.objects.filter(pk=anna.pk).update(pa=Decimal("0.5"),
                                                          pa_anchor=int(time.time()))
    elif state == "no_pv":
        EternalWarSheet.objects.filter(pk=anna.pk).update(pv=0, pv_anchor=int(time.time()))
    else:
        off_board(anna)
    before = snapshot(anna)

    assert_refused(act(forced(alice), anna, "game"), 400, code, before, anna)


# --- POST /api/characters/{id}/suicide/ and /reincarnate/ -------------------------------------

@pytest.mark.django_db
def test_suicide(api_as, alice, anna):
    start = timezone.now()

    response = act(api_as(alice), anna, "suicide")

    assert response.status_code == 200
    body = response.json()
    assert body["action"]["kind"] == "suicide"
    assert body["character"]["position"] is None and body["character"]["on_board"] is False
    character = Character.objects.get(pk=anna.pk)
    assert (character.board_id, character.deaths) == (None, 1)
    until = character.ew1.reincarnation_blocked_until
    assert start + timedelta(hours=6) <= until <= timezone.now() + timedelta(hours=6)
    assert body["reincarnation_blocked_until"] == (
        forced(alice).get(f"/api/characters/{anna.pk}/").json()["reincarnation_blocked_until"])


@pytest.mark.django_db
def test_suicide_off_the_board(alice, anna):
    off_board(anna)
    before = snapshot(anna)

    assert_refused(act(forced(alice), anna, "suicide"), 400, "cannot_act", before, anna)


@pytest.mark.django_db
def test_reincarnate_after_the_cooldown(api_as, alice, anna, seeded_dice):
    off_board(anna, suicided_at=timezone.now() - timedelta(hours=6, minutes=1))
    EternalWarSheet.objects.filter(pk=anna.pk).update(pv=-3, pv_anchor=int(time.time()))

    response = act(api_as(alice), anna, "reincarnate")

    assert response.status_code == 200
    body = response.json()
    character = Character.objects.select_related("ew1").get(pk=anna.pk)
    assert character.on_board and character.ew1.reincarnation_blocked_until is None
    assert body["action"]["kind"] == "reincarnate"
    assert body["action"]["summary"] == {"at": [character.x, character.y], "pv": 100}
    assert body["character"]["position"] == {"x": character.x, "y": character.y}
    assert body["character"]["pv"] == character.ew1.pv == 100


@pytest.mark.django_db
def test_reincarnate_while_on_the_board(alice, anna):
    before = snapshot(anna)

    assert_refused(act(forced(alice), anna, "reincarnate"), 400, "cannot_act", before, anna)


@pytest.mark.django_db
def test_reincarnate_during_the_suicide_cooldown(alice, anna, seeded_dice):
    client = forced(alice)
    until = act(client, anna, "suicide").json()["reincarnation_blocked_until"]
    before = snapshot(anna)

    response = act(client, anna, "reincarnate")

    assert_refused(response, 400, "reincarnation_blocked", before, anna)
    assert response.json()["until"] == until
    assert response.json()["detail"].startswith("Reincarnation possible in 5 h 59 min")


# --- permissions ------------------------------------------------------------------------------

VERBS = ["game", "suicide", "reincarnate"]


@pytest.mark.django_db
@pytest.mark.parametrize("verb", VERBS)
def test_another_player_cannot_act_with_the_character(bob, anna, seeded_dice, verb):
    before = snapshot(anna)

    response = act(forced(bob), anna, verb)

    assert_refused(response, 404, "not_found", before, anna)
    assert response.json()["detail"] == "No such character."


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["melee", "ranged", "throw"])
def test_another_player_cannot_attack_with_the_character(bob, anna, bert, seeded_dice, kind):
    give(anna, sword(), equipped=True)
    give(anna, bow(), equipped=True)
    before = snapshot(anna, bert)

    assert_refused(attack(forced(bob), anna, bert, kind), 404, "not_found", before, anna, bert)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["game_master", "staff"])
@pytest.mark.parametrize("verb", VERBS)
def test_readers_who_do_not_own_the_character_cannot_act(wide, anna, seeded_dice, role, verb):
    before = snapshot(anna)

    assert_refused(act(forced(reader(wide, role)), anna, verb), 403, "forbidden", before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("verb", VERBS)
def test_anonymous_is_refused(api, anna, verb):
    before = snapshot(anna)

    assert_refused(act(api, anna, verb), 401, "not_authenticated", before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("verb", [*VERBS, "attack"])
def test_session_post_without_csrf_token_is_refused(api_as, alice, anna, bert, verb):
    client = api_as(alice, csrf=True)
    before = snapshot(anna, bert)

    response = attack(client, anna, bert, "throw") if verb == "attack" else act(client, anna, verb)

    assert_refused(response, 403, "permission_denied", before, anna, bert)
    assert response.json()["detail"].startswith("CSRF Failed")


# --- query counts: the same with 1 and with 20 items in the inventories -----------------------

# Every count: the character (visible, playable, 1), the service in a savepoint (sheets locked
# with their characters, their equipped items prefetched in one query whatever the inventory),
# the journal (action, rolls) and the response's rolls (1). An attack loads its context in three
# queries and writes its sheets and characters in two (ew1.context; 14 before issue 10).


def _stock(character, inventory: int, weapon=None):
    """``inventory`` items: the equipped weapon (or a potion) and unequipped armours."""
    give(character, weapon() if weapon else potion(), equipped=weapon is not None)
    give_many(character, inventory - 1)


@pytest.mark.django_db
@pytest.mark.parametrize("inventory", [1, 20])
@pytest.mark.parametrize("kind, weapon, at, queries", [
    ("brawl", None, (6, 5), 11), ("melee", sword, (6, 5), 11), ("ranged", bow, (8, 5), 11),
    ("throw", None, (7, 7), 11),
])
def test_attack_query_count(django_assert_num_queries, wide, alice, bob, anna, seeded_dice,
                            inventory, kind, weapon, at, queries):
    target = factories.character(owner=bob, campaign=wide, name="Target", at=at)
    _stock(anna, inventory, weapon)
    _stock(target, inventory, sword)
    client = forced(alice)

    with django_assert_num_queries(queries):
        response = attack(client, anna, target, kind)

    assert response.status_code == 200, response.content


@pytest.mark.django_db
@pytest.mark.parametrize("inventory", [1, 20])
# Issue 10: these actions read no loadout, so they no longer load the equipped items (one query
# fewer than the 13, 10, 8 and 14 before).
@pytest.mark.parametrize("verb, queries", [("move", 12), ("game", 9), ("suicide", 7),
                                           ("reincarnate", 13)])
def test_action_query_count(django_assert_num_queries, alice, anna, seeded_dice, inventory,
                            verb, queries):
    _stock(anna, inventory, sword)
    if verb == "reincarnate":
        off_board(anna)
    client = forced(alice)

    with django_assert_num_queries(queries):
        if verb == "move":
            response = client.post(f"/api/characters/{anna.pk}/move/", {"dx": 1, "dy": 0},
                                   format="json")
        else:
            response = act(client, anna, verb)

    assert response.status_code == 200, response.content
    assert ActionRecord.objects.filter(kind=verb).count() == 1
