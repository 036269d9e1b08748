"""The encounter API: the same operations as the pages, keyed JSON errors, visibility."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from encounters import services
from tests import factories
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_gm_creates_adds_orders_starts_and_advances(table):
    gm = client_for(table.gm)
    r = gm.post(f"/api/campaigns/{table.campaign.pk}/encounters/", {"name": "Bridge"},
                format="json")
    assert r.status_code == 201 and r.json()["reaction_timeout_seconds"] == 20
    eid = r.json()["id"]
    r = gm.post(f"/api/encounters/{eid}/combatants/", {"combatants": [
        {"character": table.hero.pk}, {"name": "Goblin", "count": 2, "hidden": True}]},
        format="json")
    ids = {c["name"]: c["id"] for c in r.json()["combatants"]}
    assert set(ids) == {"Hero", "Goblin 1", "Goblin 2"}
    order = [ids["Goblin 2"], ids["Hero"], ids["Goblin 1"]]
    gm.post(f"/api/encounters/{eid}/order/", {"combatants": order}, format="json")
    body = gm.post(f"/api/encounters/{eid}/start/", {"mode": "gm"}, format="json").json()
    assert [c["id"] for c in body["combatants"]] == order
    assert (body["round"], body["current"], body["turn"]) == (1, ids["Goblin 2"], 1)
    body = gm.post(f"/api/encounters/{eid}/next/", {"turn": 1}, format="json").json()
    assert body["current"] == ids["Hero"]
    r = gm.post(f"/api/encounters/{eid}/next/", {"turn": 1}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "turn_already_advanced"
    player = client_for(table.alice).get(f"/api/encounters/{eid}/").json()
    assert [c["name"] for c in player["combatants"]] == ["Hero"]  # goblins hidden
    assert player["mine"] == [ids["Hero"]] and player["gm"] is False


def test_errors_are_keyed_json(table):
    e = table.start()
    alice, bob = client_for(table.alice), client_for(table.bob)
    r = bob.post(f"/api/encounters/{e.pk}/delay/", {"turn": e.turn_serial,
                                                     "combatant": table.c["Brenna"].pk,
                                                     "after": table.c["Orc"].pk}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    assert r.json()["params"] == {"name": "Brenna"}
    r = alice.post(f"/api/encounters/{e.pk}/start/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "not_game_master")
    r = alice.post(f"/api/encounters/{e.pk}/next/", {"turn": "1.0"}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_input")
    r = alice.post(f"/api/encounters/{e.pk}/next/", {"turn": 1, "oops": 1}, format="json")
    assert r.json()["errors"] == {"oops": ["Unknown field."]}
    stranger = client_for(factories.user("eve"))
    for url in (f"/api/encounters/{e.pk}/", f"/api/encounters/{e.pk}/version/"):
        assert stranger.get(url).json()["code"] == "no_such_encounter"
    r = stranger.post(f"/api/encounters/{e.pk}/next/", {"turn": 1}, format="json")
    assert r.status_code == 404
    r = client_for(table.gm).post(f"/api/encounters/{e.pk}/delay/", {
        "turn": e.turn_serial, "combatant": table.c["Hero"].pk, "after": table.c["Hero"].pk},
        format="json")
    assert (r.status_code, r.json()["code"]) == (400, "delay_after_self")


def test_delay_remove_readd_effect_and_switches(table):
    e = table.start()
    gm, alice = client_for(table.gm), client_for(table.alice)
    body = alice.post(f"/api/encounters/{e.pk}/delay/", {"turn": e.turn_serial,
                                                          "combatant": table.c["Hero"].pk,
                                                          "after": table.c["Orc"].pk},
                      format="json").json()
    assert [c["name"] for c in body["combatants"]] == ["Brenna", "Orc", "Hero"]
    orc = table.c["Orc"].pk
    gm.post(f"/api/encounters/{e.pk}/combatants/{orc}/", {"defeated": True}, format="json")
    body = gm.post(f"/api/encounters/{e.pk}/next/", {"turn": body["turn"]}, format="json").json()
    assert body["current"] == table.c["Hero"].pk  # the defeated Orc skipped
    body = gm.post(f"/api/encounters/{e.pk}/combatants/{orc}/remove/", {}, format="json").json()
    assert [c["removed"] for c in body["combatants"]] == [False, False, True]
    body = gm.post(f"/api/encounters/{e.pk}/combatants/{orc}/readd/", {}, format="json").json()
    assert body["combatants"][-1]["rank"] == 2
    body = gm.post(f"/api/encounters/{e.pk}/effects/", {
        "name": "Bless", "anchor": table.c["Hero"].pk, "edge": "end", "rounds": 2},
        format="json").json()
    assert body["effects"][0]["expires_round"] == 3


def test_reaction_answer_and_stale_answer(table):
    e = table.start()
    reaction = services.encounter_act(
        user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
        act=lambda ctx: ctx.request_reaction(target=table.c["Brenna"],
                                             action_payload={"damage": 2}, options=["parry"],
                                             resolver="enc_test.strike"))
    bob = client_for(table.bob)
    pending = bob.get(f"/api/encounters/{e.pk}/").json()["reactions"]
    assert [p["options"] for p in pending] == [["none", "parry"]]
    r = client_for(table.alice).post(f"/api/reactions/{reaction.pk}/answer/", {"choice": "none"},
                                     format="json")
    assert (r.status_code, r.json()["code"]) == (403, "not_yours_to_answer")
    body = bob.post(f"/api/reactions/{reaction.pk}/answer/", {"choice": "parry"},
                    format="json").json()
    assert body["reactions"] == [] and body["log"][0]["kind"] == "enc_test_strike"
    assert body["log"][0]["summary"]["answer"]["choice"] == "parry"
    r = bob.post(f"/api/reactions/{reaction.pk}/answer/", {"choice": "none"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "reaction_not_pending")


def test_version_endpoint(table):
    e = table.start()
    assert client_for(table.bob).get(f"/api/encounters/{e.pk}/version/").json() == {
        "version": e.version}
