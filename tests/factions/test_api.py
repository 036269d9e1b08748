"""Faction REST API: each operation for each role, refused input answered with its code and
nothing changed, and what the detail shows to whom."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

import pytest
from django.core.cache import caches

from factions.models import Faction, JoinRequest
from tests import factories
from tests.factions.conftest import (ROLE_CHARACTER, ROLES, api_client, member_names,
                                     otto_invitation, otto_request, state)


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Throttle counters in process memory (as in tests/api)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "faction-api-tests"}}
    caches["default"].clear()


ANON = (401, "not_authenticated")
LEADER_ONLY = {"leader": None, "member": (403, "forbidden"), "other": (403, "forbidden"),
               "gm": (403, "forbidden"), "anonymous": ANON}


@dataclass
class Op:
    name: str
    url: Callable  # (world, target) -> url
    ok: int  # the status of a success
    expect: dict  # role -> None (success) or (status, code)
    done: Callable  # (world, target) -> bool
    data: Callable = lambda w, role, t: {}
    setup: Callable | None = None


def own(w, role, t=None):
    return {"character": w.char(ROLE_CHARACTER[role]).pk}


def state_of(t):
    return JoinRequest.objects.get(pk=t.pk).state


OPS = [
    Op("create", lambda w, t: f"/api/campaigns/{w.campaign.pk}/factions/", 201,
       {"leader": (400, "already_in_faction"), "member": (400, "already_in_faction"),
        "other": None, "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: Faction.objects.filter(name="Owls", leader=w.char("Otto")).exists(),
       data=lambda w, role, t: {**own(w, role), "name": "Owls", "is_public": False}),
    Op("join-private", lambda w, t: f"/api/factions/{w.wolves.pk}/join/", 201,
       {"leader": (400, "already_in_faction"), "member": (400, "already_in_faction"),
        "other": None, "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: JoinRequest.objects.filter(faction=w.wolves, character=w.char("Otto"),
                                               state="pending").exists(), data=own),
    Op("join-public", lambda w, t: f"/api/factions/{w.ravens.pk}/join/", 200,
       {"leader": (400, "already_in_faction"), "member": (400, "already_in_faction"),
        "other": None, "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: "Otto" in member_names(w.ravens), data=own),
    Op("leave", lambda w, t: f"/api/factions/{w.wolves.pk}/leave/", 204,
       {"leader": (400, "leader_must_hand_over"), "member": None,
        "other": (400, "not_a_member"), "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: member_names(w.wolves) == {"Lea"}, data=own),
    Op("invite", lambda w, t: f"/api/factions/{w.wolves.pk}/invite/", 201, LEADER_ONLY,
       lambda w, t: JoinRequest.objects.filter(kind="invitation", state="pending").exists(),
       data=lambda w, role, t: {"character": w.char("Otto").pk}),
    Op("answer-request", lambda w, t: f"/api/faction-requests/{t.pk}/answer/", 200,
       {"leader": None, "member": (404, "not_found"), "other": (403, "forbidden"),
        "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: "Otto" in member_names(w.wolves) and state_of(t) == "accepted",
       data=lambda w, role, t: {"accept": True}, setup=otto_request),
    Op("refuse-request", lambda w, t: f"/api/faction-requests/{t.pk}/answer/", 200,
       {"leader": None, "member": (404, "not_found"), "other": (403, "forbidden"),
        "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: "Otto" not in member_names(w.wolves) and state_of(t) == "refused",
       data=lambda w, role, t: {"accept": False}, setup=otto_request),
    Op("answer-invitation", lambda w, t: f"/api/faction-requests/{t.pk}/answer/", 200,
       {"leader": (403, "forbidden"), "member": (404, "not_found"), "other": None,
        "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: "Otto" in member_names(w.wolves) and state_of(t) == "accepted",
       data=lambda w, role, t: {"accept": True}, setup=otto_invitation),
    Op("withdraw-request", lambda w, t: f"/api/faction-requests/{t.pk}/withdraw/", 200,
       {"leader": (403, "forbidden"), "member": (404, "not_found"), "other": None,
        "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: state_of(t) == "withdrawn", setup=otto_request),
    Op("withdraw-invitation", lambda w, t: f"/api/faction-requests/{t.pk}/withdraw/", 200,
       {"leader": None, "member": (404, "not_found"), "other": (403, "forbidden"),
        "gm": (404, "not_found"), "anonymous": ANON},
       lambda w, t: state_of(t) == "withdrawn", setup=otto_invitation),
    Op("remove", lambda w, t: f"/api/factions/{w.wolves.pk}/remove/", 200, LEADER_ONLY,
       lambda w, t: member_names(w.wolves) == {"Lea"},
       data=lambda w, role, t: {"character": w.char("Max").pk}),
    Op("transfer", lambda w, t: f"/api/factions/{w.wolves.pk}/transfer/", 200, LEADER_ONLY,
       lambda w, t: Faction.objects.get(pk=w.wolves.pk).leader_id == w.char("Max").pk,
       data=lambda w, role, t: {"character": w.char("Max").pk}),
    Op("dissolve", lambda w, t: f"/api/factions/{w.wolves.pk}/dissolve/", 204, LEADER_ONLY,
       lambda w, t: not Faction.objects.filter(pk=w.wolves.pk).exists()),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_each_operation_for_each_role(world, op, role):
    target = op.setup(world) if op.setup else None
    before = state()
    response = api_client(world, role).post(op.url(world, target),
                                            op.data(world, role, target), format="json")
    expected = op.expect[role]
    if expected is None:
        assert response.status_code == op.ok, response.content
        assert op.done(world, target)
        return
    status, code = expected
    assert response.status_code == status, response.content
    assert response.json()["code"] == code and response.json()["detail"]
    assert state() == before


@pytest.mark.parametrize("role,status", [("leader", 200), ("member", 200), ("other", 200),
                                         ("gm", 200), ("anonymous", 401)])  # issue 9: 401
def test_list(world, role, status):
    response = api_client(world, role).get(f"/api/campaigns/{world.campaign.pk}/factions/")
    assert response.status_code == status
    if status == 200:
        rows = {f["name"]: f for f in response.json()}
        assert set(rows) == {"Wolves", "Ravens"}
        assert rows["Wolves"]["leader"] == {"id": world.char("Lea").pk, "name": "Lea",
                                            "player": "lea"}
        assert (rows["Wolves"]["size"], rows["Wolves"]["is_public"]) == (2, False)
        assert "members" not in rows["Wolves"]


def test_list_of_an_unknown_campaign_is_404(world):
    response = api_client(world, "other").get("/api/campaigns/999999/factions/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize("role,members", [("leader", True), ("member", True), ("other", False),
                                          ("gm", True)])
def test_detail_of_a_private_faction(world, role, members):
    otto_request(world)
    body = api_client(world, role).get(f"/api/factions/{world.wolves.pk}/").json()
    assert (body["name"], body["size"], body["campaign"]["id"]) == (
        "Wolves", 2, world.campaign.pk)
    if members:
        assert [(m["name"], m["leader"]) for m in body["members"]] == [
            ("Lea", True), ("Max", False)]
    else:
        assert body["members"] is None
    # The pending request: the leader sees it, the requester too, nobody else.
    assert len(body["pending"]) == (1 if role in ("leader", "other") else 0)


def test_detail_of_a_public_faction_shows_members_to_anyone(world):
    body = api_client(world, "other").get(f"/api/factions/{world.ravens.pk}/").json()
    assert [m["name"] for m in body["members"]] == ["Rita"]


def test_detail_anonymous_and_unknown(world):
    assert api_client(world, "anonymous").get(
        f"/api/factions/{world.wolves.pk}/").json()["code"] == "not_authenticated"
    response = api_client(world, "other").get("/api/factions/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_join_results(world):
    client = api_client(world, "other")
    body = client.post(f"/api/factions/{world.wolves.pk}/join/",
                       {"character": world.char("Otto").pk}, format="json").json()
    assert body["joined"] is False
    assert (body["request"]["kind"], body["request"]["state"]) == ("request", "pending")
    JoinRequest.objects.update(state="withdrawn")
    body = client.post(f"/api/factions/{world.ravens.pk}/join/",
                       {"character": world.char("Otto").pk}, format="json").json()
    assert body == {"joined": True, "request": None}


def test_create_answers_the_detail(world):
    response = api_client(world, "other").post(
        f"/api/campaigns/{world.campaign.pk}/factions/",
        {"character": world.char("Otto").pk, "name": "  Owls ", "description": "Night"},
        format="json")
    body = response.json()
    assert response.status_code == 201
    assert (body["name"], body["is_public"], body["size"], body["description"]) == (
        "Owls", True, 1, "Night")
    assert [m["name"] for m in body["members"]] == ["Otto"]


@pytest.mark.parametrize("payload,code", [
    ({"name": ""}, "invalid_input"),
    ({"name": "x" * 81}, "invalid_input"),
    ({"name": "   "}, "invalid_input"),
    ({"name": "WOLVES"}, "faction_name_taken"),
    ({"name": "Owls", "colour": "red"}, "invalid_input"),
    ({"name": "Owls", "is_public": "perhaps"}, "invalid_input"),
])
def test_create_refuses_bad_input(world, payload, code):
    before = state()
    response = api_client(world, "other").post(
        f"/api/campaigns/{world.campaign.pk}/factions/",
        {"character": world.char("Otto").pk, **payload}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert state() == before


def test_create_in_another_campaigns_url_is_refused(world):
    elsewhere = factories.campaign(name="Elsewhere")
    before = state()
    response = api_client(world, "other").post(
        f"/api/campaigns/{elsewhere.pk}/factions/",
        {"character": world.char("Otto").pk, "name": "Owls"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert state() == before


def test_join_a_faction_of_another_campaign_is_refused(world):
    elsewhere = factories.campaign(name="Elsewhere")
    far = factories.character(owner=world.users["otto"], campaign=elsewhere, name="Far")
    before = state()
    response = api_client(world, "other").post(f"/api/factions/{world.ravens.pk}/join/",
                                               {"character": far.pk}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert state() == before


def test_invite_refusals(world):
    client = api_client(world, "leader")
    elsewhere = factories.campaign(name="Elsewhere")
    far = factories.character(owner=world.users["otto"], campaign=elsewhere, name="Far")
    otto_invitation(world)
    before = state()
    url = f"/api/factions/{world.wolves.pk}/invite/"
    for payload, status, code in [
        ({"character": world.char("Rita").pk}, 400, "already_in_faction"),
        ({"character": world.char("Otto").pk}, 400, "invalid_input"),  # pending already
        ({"character": far.pk}, 404, "not_found"),
        ({"character": 999999}, 404, "not_found"),
        ({}, 400, "invalid_input"),
        ({"character": "Otto"}, 400, "invalid_input"),
    ]:
        response = client.post(url, payload, format="json")
        assert (response.status_code, response.json()["code"]) == (status, code), payload
    assert state() == before


def test_request_refusals(world):
    request = otto_request(world)
    leader, otto = api_client(world, "leader"), api_client(world, "other")
    assert otto.post(f"/api/faction-requests/{request.pk}/withdraw/").status_code == 200
    before = state()
    for client, url, payload in [
        (leader, f"/api/faction-requests/{request.pk}/answer/", {"accept": True}),
        (otto, f"/api/faction-requests/{request.pk}/withdraw/", {}),
    ]:
        response = client.post(url, payload, format="json")
        assert (response.status_code, response.json()["code"]) == (400, "request_closed")
    response = leader.post("/api/faction-requests/999999/answer/", {"accept": True},
                           format="json")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = leader.post(f"/api/faction-requests/{request.pk}/answer/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert state() == before


def test_accepting_a_character_that_joined_elsewhere_meanwhile(world):
    """Otto asks the Wolves, then joins the Ravens: his request to the Wolves lapses (withdrawn)
    and the Wolves' accept is refused."""
    request = otto_request(world)
    otto = api_client(world, "other")
    otto.post(f"/api/factions/{world.ravens.pk}/join/", {"character": world.char("Otto").pk},
              format="json")
    before = state()
    response = api_client(world, "leader").post(f"/api/faction-requests/{request.pk}/answer/",
                                                {"accept": True}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "request_closed")
    assert state() == before and state_of(request) == "withdrawn"


def test_member_refusals(world):
    client = api_client(world, "leader")
    before = state()
    for url, payload, code in [
        (f"/api/factions/{world.wolves.pk}/remove/", {"character": world.char("Lea").pk},
         "invalid_input"),
        (f"/api/factions/{world.wolves.pk}/remove/", {"character": world.char("Otto").pk},
         "not_a_member"),
        (f"/api/factions/{world.wolves.pk}/transfer/", {"character": world.char("Rita").pk},
         "not_a_member"),
        (f"/api/factions/{world.wolves.pk}/leave/", {"character": world.char("Lea").pk},
         "leader_must_hand_over"),
    ]:
        response = client.post(url, payload, format="json")
        assert (response.status_code, response.json()["code"]) == (400, code), url
    assert state() == before


def test_transfer_then_the_former_leader_may_leave_and_is_no_longer_leader(world):
    lea = api_client(world, "leader")
    body = lea.post(f"/api/factions/{world.wolves.pk}/transfer/",
                    {"character": world.char("Max").pk}, format="json").json()
    assert body["leader"]["name"] == "Max"
    response = lea.post(f"/api/factions/{world.wolves.pk}/dissolve/")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert lea.post(f"/api/factions/{world.wolves.pk}/leave/",
                    {"character": world.char("Lea").pk}, format="json").status_code == 204
    assert member_names(world.wolves) == {"Max"}


def test_a_leader_alone_who_leaves_dissolves_the_faction(world):
    rita = api_client(world, "other")
    rita.force_authenticate(world.users["rita"])
    assert rita.post(f"/api/factions/{world.ravens.pk}/leave/",
                     {"character": world.char("Rita").pk}, format="json").status_code == 204
    assert not Faction.objects.filter(pk=world.ravens.pk).exists()


def test_session_clients_need_csrf(world):
    from rest_framework.test import APIClient
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="lea", password=factories.PASSWORD)
    before = state()
    response = client.post(f"/api/factions/{world.wolves.pk}/dissolve/")
    assert response.status_code == 403
    assert state() == before
