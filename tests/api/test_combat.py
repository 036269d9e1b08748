import time
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from ew1.models import EternalWarSheet
from tests import factories
from tests.api.conftest import snapshot

HOUR = 3600


def forced(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def anna(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5))


@pytest.fixture
def bert(campaign, bob):
    return factories.character(owner=bob, campaign=campaign, name="Bert", at=(6, 5))


def move(client, character, dx, dy):
    return client.post(f"/api/characters/{character.pk}/move/", {"dx": dx, "dy": dy},
                       format="json")


def attack(client, character, target_id):
    return client.post(f"/api/characters/{character.pk}/attack/", {"target": target_id},
                       format="json")


def assert_refused(response, status: int, code: str, before: dict, *characters):
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert snapshot(*characters) == before


# --- GET /api/characters/{id}/board/ ----------------------------------------------------------

@pytest.mark.django_db
def test_board(api_as, alice, bob):
    now = int(time.time())
    campaign = factories.campaign(name="Wide", width=20, height=20)
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(3, 10))
    mine = factories.character(owner=alice, campaign=campaign, name="Alt", at=(6, 12))
    near = factories.character(owner=bob, campaign=campaign, name="Near", at=(4, 11), level=3,
                               pv=40, pv_anchor=now - 2 * 6 * HOUR - 10)
    factories.character(owner=bob, campaign=campaign, name="Far", at=(9, 10))  # out of view

    response = api_as(alice).get(f"/api/characters/{a.pk}/board/")

    assert response.status_code == 200
    body = response.json()
    assert body["character"]["id"] == a.pk and body["character"]["pa"] == 12.0
    assert body["board"] == {"width": 20, "height": 20}
    assert body["radius"] == 5
    assert body["bounds"] == {"x_min": 0, "x_max": 8, "y_min": 5, "y_max": 15}
    piece = {"kind": "player", "pv_max": 100, "protected": False, "ally": False}
    assert body["pieces"] == [
        {**piece, "id": a.pk, "name": "Anna", "x": 3, "y": 10, "level": 0, "pv": 100,
         "mine": True, "adjacent": False, "attacks": []},
        {**piece, "id": near.pk, "name": "Near", "x": 4, "y": 11, "level": 3, "pv": 42,
         "mine": False, "adjacent": True, "attacks": ["brawl", "throw"]},
        {**piece, "id": mine.pk, "name": "Alt", "x": 6, "y": 12, "level": 0, "pv": 100,
         "mine": True, "adjacent": False, "attacks": ["throw"]},
    ]
    assert EternalWarSheet.objects.get(pk=near.pk).pv == 40  # a GET writes nothing


@pytest.mark.django_db
def test_board_of_a_disincarnated_character(api_as, anna, alice):
    Character.objects.filter(pk=anna.pk).update(board=None, x=None, y=None)

    body = api_as(alice).get(f"/api/characters/{anna.pk}/board/").json()

    assert body["board"] is None and body["bounds"] is None and body["pieces"] == []
    assert body["character"]["position"] is None


@pytest.mark.django_db
def test_board_of_another_players_character_looks_missing(api_as, bert, alice):
    response = api_as(alice).get(f"/api/characters/{bert.pk}/board/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("others", [2, 30])
def test_board_query_count_is_constant(django_assert_num_queries, alice, bob, others):
    campaign = factories.campaign(name="Wide", width=20, height=20)
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(10, 10))
    for i in range(others):  # rows y = 5, 6, 7 of the view, x = 5..15
        factories.character(owner=bob, campaign=campaign, name=f"B{i}",
                            at=(5 + i % 11, 5 + i // 11))
    client = forced(alice)

    # the character, its log, the log's rolls, its items, the pieces in view
    with django_assert_num_queries(5):
        response = client.get(f"/api/characters/{a.pk}/board/")

    assert len(response.json()["pieces"]) == others + 1


# --- POST /api/characters/{id}/move/ ----------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("dx, dy", [(1, 0), (-1, -1), (0, 1)])
def test_move(api_as, anna, alice, dx, dy):
    actions = ActionRecord.objects.count()

    response = move(api_as(alice), anna, dx, dy)

    assert response.status_code == 200
    body = response.json()
    x, y = 5 + dx, 5 + dy
    assert body["action"]["kind"] == "move"
    assert body["action"]["cost"] == 0.5
    summary = body["action"]["summary"]
    assert (summary["to"], summary["xp"]) == ([x, y], 1)
    assert body["action"]["rolls"] == []
    assert body["action"]["actor"] == {"id": anna.pk, "name": "Anna"}
    assert body["character"]["position"] == {"x": x, "y": y}
    assert (body["character"]["pa"], body["character"]["xp"], body["character"]["level"]) == (
        11.5, 1, 1)
    character = Character.objects.select_related("ew1").get(pk=anna.pk)
    assert (character.x, character.y) == (x, y)
    assert (character.ew1.pa, character.ew1.xp) == (Decimal("11.5"), 1)
    assert ActionRecord.objects.count() == actions + 1
    assert ActionRecord.objects.get(pk=body["action"]["id"]).actor_id == anna.pk


# --- POST /api/characters/{id}/attack/ --------------------------------------------------------

@pytest.mark.django_db
def test_attack(api_as, anna, bert, alice, seeded_dice):
    before = snapshot(anna, bert)

    response = attack(api_as(alice), anna, bert.pk)

    assert response.status_code == 200
    body = response.json()
    action = body["action"]
    assert action["kind"] == "brawl" and action["cost"] == 2.0
    assert action["actor"] == {"id": anna.pk, "name": "Anna"}
    assert action["target"] == body["target"] == {"id": bert.pk, "name": "Bert"}
    assert action["rolls"] and action["rolls"][0]["label"].startswith("attack")
    assert action["rolls"][0]["expression"] == "1d100"
    assert action["rolls"][0]["target_score"] == action["summary"]["attack_score"]
    outcome = body["outcome"]
    assert set(outcome) == {"weapon", "distance", "hit", "perfect", "dodged", "damage",
                            "reduction", "pv_lost", "target_pv", "disincarnated", "attacker_xp",
                            "defender_xp"}
    assert (outcome["weapon"], outcome["distance"]) == (None, 1)
    assert body["character"]["pa"] == 10.0
    sheets = {s.pk: s for s in EternalWarSheet.objects.filter(pk__in=[anna.pk, bert.pk])}
    assert sheets[anna.pk].pa == Decimal("10.0")
    assert sheets[anna.pk].xp == outcome["attacker_xp"] == body["character"]["xp"]
    assert sheets[bert.pk].pv == outcome["target_pv"] == 100 - outcome["pv_lost"]
    after = snapshot(anna, bert)
    assert after["actions"] == before["actions"] + 1
    assert after["rolls"] == before["rolls"] + len(action["rolls"])


@pytest.mark.django_db
def test_attack_with_the_same_seed_gives_the_same_rolls(campaign, alice, bob, seeded_dice):
    results = []
    for i in range(2):
        a = factories.character(owner=alice, campaign=campaign, name=f"A{i}", at=(1, 2 * i))
        b = factories.character(owner=bob, campaign=campaign, name=f"B{i}", at=(2, 2 * i))
        body = attack(forced(alice), a, b.pk).json()
        results.append([(r["label"], r["faces"]) for r in body["action"]["rolls"]])

    assert results[0] == results[1]


# --- refused actions: status, code, and nothing changed ---------------------------------------

@pytest.mark.django_db
def test_move_off_the_board(api_as, campaign, alice):
    a = factories.character(owner=alice, campaign=campaign, name="Edge", at=(0, 3))
    before = snapshot(a)

    assert_refused(move(api_as(alice), a, -1, 0), 400, "off_board", before, a)


@pytest.mark.django_db
def test_move_onto_an_occupied_cell(api_as, anna, bert, alice):
    before = snapshot(anna, bert)

    assert_refused(move(api_as(alice), anna, 1, 0), 400, "cell_occupied", before, anna, bert)


@pytest.mark.django_db
def test_move_without_enough_pa(api_as, campaign, alice):
    a = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5),
                            pa=Decimal("0.0"), pa_anchor=int(time.time()))
    before = snapshot(a)

    assert_refused(move(api_as(alice), a, 1, 0), 400, "not_enough_pa", before, a)


@pytest.mark.django_db
def test_move_at_zero_pv(api_as, campaign, alice):
    a = factories.character(owner=alice, campaign=campaign, name="Down", at=(5, 5), pv=0,
                            pv_anchor=int(time.time()))
    before = snapshot(a)

    assert_refused(move(api_as(alice), a, 1, 0), 400, "cannot_act", before, a)


@pytest.mark.django_db
def test_move_while_off_the_board(api_as, anna, alice):
    Character.objects.filter(pk=anna.pk).update(board=None, x=None, y=None)
    before = snapshot(anna)

    assert_refused(move(api_as(alice), anna, 1, 0), 400, "cannot_act", before, anna)


@pytest.mark.django_db
def test_move_nowhere(api_as, anna, alice):
    before = snapshot(anna)

    assert_refused(move(api_as(alice), anna, 0, 0), 400, "invalid_direction", before, anna)


@pytest.mark.django_db
def test_attack_a_distant_target(api_as, campaign, anna, alice, bob, seeded_dice):
    far = factories.character(owner=bob, campaign=campaign, name="Far", at=(7, 5))
    before = snapshot(anna, far)

    assert_refused(attack(api_as(alice), anna, far.pk), 400, "not_adjacent", before, anna, far)


@pytest.mark.django_db
def test_attack_without_enough_pa(api_as, campaign, bert, alice, seeded_dice):
    a = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5),
                            pa=Decimal("1.5"), pa_anchor=int(time.time()))
    before = snapshot(a, bert)

    assert_refused(attack(api_as(alice), a, bert.pk), 400, "not_enough_pa", before, a, bert)


@pytest.mark.django_db
def test_attack_at_zero_pv(api_as, campaign, bert, alice, seeded_dice):
    a = factories.character(owner=alice, campaign=campaign, name="Down", at=(5, 5), pv=0,
                            pv_anchor=int(time.time()))
    before = snapshot(a, bert)

    assert_refused(attack(api_as(alice), a, bert.pk), 400, "cannot_act", before, a, bert)


@pytest.mark.django_db
def test_attack_a_protected_target(api_as, campaign, anna, alice, bob, seeded_dice):
    newbie = factories.character(owner=bob, campaign=campaign, name="Newbie", at=(6, 6),
                                 acted=False)
    before = snapshot(anna, newbie)

    assert_refused(attack(api_as(alice), anna, newbie.pk), 400, "target_protected", before,
                   anna, newbie)


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["self", "missing"])
def test_attack_an_invalid_target(api_as, anna, alice, seeded_dice, target):
    target_id = anna.pk if target == "self" else anna.pk + 100
    before = snapshot(anna)

    assert_refused(attack(api_as(alice), anna, target_id), 400, "invalid_target", before, anna)


@pytest.mark.django_db
def test_attack_a_target_in_another_campaign(api_as, anna, alice, bob, seeded_dice):
    elsewhere = factories.character(owner=bob, campaign=factories.campaign(name="Other"),
                                    name="Elsewhere", at=(6, 5))
    before = snapshot(anna, elsewhere)

    assert_refused(attack(api_as(alice), anna, elsewhere.pk), 400, "invalid_target", before,
                   anna, elsewhere)


# --- permissions ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_another_players_character_cannot_move(api_as, anna, bob):
    before = snapshot(anna)

    assert_refused(move(api_as(bob), anna, 1, 0), 404, "not_found", before, anna)


@pytest.mark.django_db
def test_another_players_character_cannot_attack(api_as, anna, bert, bob, seeded_dice):
    victim = factories.character(owner=bob, campaign=anna.campaign, name="Victim", at=(4, 5))
    before = snapshot(anna, bert, victim)

    # bob tries to make alice's Anna hit his own Victim
    assert_refused(attack(api_as(bob), anna, victim.pk), 404, "not_found", before,
                   anna, bert, victim)


@pytest.mark.django_db
def test_a_missing_character_cannot_move(api_as, anna, alice):
    before = snapshot(anna)

    assert_refused(move(api_as(alice), anna.__class__(pk=anna.pk + 100), 1, 0), 404,
                   "not_found", before, anna)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["game_master", "staff"])
def test_readers_who_do_not_own_the_character_cannot_act(api_as, campaign, anna, bert, role,
                                                         seeded_dice):
    reader = factories.user("reader", is_staff=(role == "staff"))
    if role == "game_master":
        Campaign.objects.filter(pk=campaign.pk).update(game_master=reader)
    client = api_as(reader)
    before = snapshot(anna, bert)

    assert client.get(f"/api/characters/{anna.pk}/board/").status_code == 200
    assert_refused(move(client, anna, 0, 1), 403, "forbidden", before, anna, bert)
    assert_refused(attack(client, anna, bert.pk), 403, "forbidden", before, anna, bert)


@pytest.mark.django_db
def test_session_post_without_csrf_token_is_refused(api_as, anna, alice):
    client = api_as(alice, csrf=True)
    before = snapshot(anna)

    response = move(client, anna, 1, 0)

    assert_refused(response, 403, "permission_denied", before, anna)
    assert response.json()["detail"].startswith("CSRF Failed")


@pytest.mark.django_db
def test_session_post_with_csrf_token_is_accepted(api_as, anna, alice):
    client = api_as(alice, csrf=True)
    client.get("/accounts/tokens/")  # a page with a form sets the CSRF cookie

    response = client.post(f"/api/characters/{anna.pk}/move/", {"dx": 1, "dy": 0},
                           format="json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)

    assert response.status_code == 200


# --- malformed payloads -----------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("payload", [
    {}, {"dx": 1}, {"dy": 1}, {"dx": "east", "dy": 0}, {"dx": "1x", "dy": 0},
    {"dx": 2, "dy": 0}, {"dx": 0, "dy": -2}, {"dx": 0.5, "dy": 0}, {"dx": True, "dy": 0},
    {"dx": None, "dy": 0}, {"dx": [1], "dy": 0}, {"dx": 1, "dy": 0, "junk": "x"},
    [1, 0], "north", 1,
], ids=repr)
def test_move_refuses_malformed_payloads(api_as, anna, alice, payload):
    before = snapshot(anna)

    response = api_as(alice).post(f"/api/characters/{anna.pk}/move/", payload,
                                           format="json")

    assert_refused(response, 400, "invalid_input", before, anna)
    assert response.json()["errors"]


@pytest.mark.django_db
@pytest.mark.parametrize("payload", [
    {}, {"target": "bert"}, {"target": 0}, {"target": -3}, {"target": None},
    {"target": 1.5}, {"target": "{bert}", "dx": 1}, [],
], ids=repr)
def test_attack_refuses_malformed_payloads(api_as, anna, bert, alice, seeded_dice, payload):
    if isinstance(payload, dict):
        payload = {k: bert.pk if v == "{bert}" else v for k, v in payload.items()}
    before = snapshot(anna, bert)

    response = api_as(alice).post(f"/api/characters/{anna.pk}/attack/", payload, format="json")

    assert_refused(response, 400, "invalid_input", before, anna, bert)


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["move", "attack"])
def test_actions_refuse_non_json(api_as, anna, alice, action):
    before = snapshot(anna)

    response = api_as(alice).post(f"/api/characters/{anna.pk}/{action}/", data='{"dx": 1,',
                                  content_type="application/json")

    assert_refused(response, 400, "parse_error", before, anna)
