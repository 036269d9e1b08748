import base64
import time
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from ew1.models import EternalWarSheet
from tests import factories
from tests.api.conftest import snapshot

HOUR = 3600
STATS = ["FOR", "DEF", "TAI", "INT", "DEX", "LUK"]


def forced(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- GET /api/characters/ ---------------------------------------------------------------------

@pytest.mark.django_db
def test_list_shows_own_characters_with_regenerated_pa_and_pv(api_as, campaign, alice, bob):
    now = int(time.time())
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(3, 4),
                            pa=Decimal("5.0"), pa_anchor=now - 3 * 2 * HOUR - 10,
                            pv=40, pv_anchor=now - 2 * 6 * HOUR - 10)
    other = factories.campaign(name="Other")
    b = factories.character(owner=alice, campaign=other, name="Bea")
    Character.objects.filter(pk=b.pk).update(board=None, x=None, y=None)
    factories.character(owner=bob, campaign=campaign, name="Bob's")

    response = api_as(alice).get("/api/characters/")

    assert response.status_code == 200
    bea, anna = response.json()  # by campaign name ("Other" first), then name
    assert bea["name"] == "Bea" and bea["position"] is None and bea["on_board"] is False
    assert anna == {
        "id": a.pk, "name": "Anna", "campaign": {"id": campaign.pk, "name": "Test campaign"},
        "level": 0, "xp": 0, "pv": 42, "pv_max": 100, "pa": 8.0, "pa_max": 12.0,
        "position": {"x": 3, "y": 4}, "on_board": True,
    }
    sheet = EternalWarSheet.objects.get(pk=a.pk)  # a GET writes nothing
    assert (sheet.pa, sheet.pv) == (Decimal("5.0"), 40)


@pytest.mark.django_db
@pytest.mark.parametrize("count", [2, 12])
def test_list_query_count_is_constant(django_assert_num_queries, campaign, alice, count):
    for i in range(count):
        factories.character(owner=alice, campaign=campaign, name=f"C{i}")
    client = forced(alice)

    with django_assert_num_queries(1):
        response = client.get("/api/characters/")

    assert len(response.json()) == count


# --- POST /api/characters/ --------------------------------------------------------------------

@pytest.mark.django_db
def test_create_returns_the_new_sheet(api_as, campaign, alice, seeded_dice):
    response = api_as(alice).post("/api/characters/", {"campaign": campaign.pk, "name": "Zed"},
                                  format="json")

    assert response.status_code == 201
    body = response.json()
    character = Character.objects.select_related("ew1").get(pk=body["id"])
    assert character.owner == alice and character.name == "Zed" and character.on_board
    assert body["characteristics"] == character.ew1.characteristics
    assert body["position"] == {"x": character.x, "y": character.y}
    assert (body["level"], body["xp"], body["pa"], body["pv"]) == (0, 0, 12.0, 100)
    assert body["protected"] is True
    [created] = body["log"]
    assert created["kind"] == "create"
    assert [r["label"] for r in created["rolls"]] == STATS


@pytest.mark.django_db
@pytest.mark.parametrize("payload, field", [
    ({"name": "Zed"}, "campaign"),
    ({"campaign": 9999, "name": "Zed"}, "campaign"),
    ({"campaign": "first", "name": "Zed"}, "campaign"),
    ({"campaign": None, "name": "Zed"}, "campaign"),
    ({"campaign": "{campaign}"}, "name"),
    ({"campaign": "{campaign}", "name": ""}, "name"),
    ({"campaign": "{campaign}", "name": "x" * 61}, "name"),
    ({"campaign": "{campaign}", "name": "Zed", "level": 50}, "level"),
])
def test_create_refuses_malformed_payloads(api_as, campaign, alice, payload, field):
    payload = {k: campaign.pk if v == "{campaign}" else v for k, v in payload.items()}

    response = api_as(alice).post("/api/characters/", payload, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_input"
    assert field in body["errors"]
    assert not Character.objects.exists()
    assert not ActionRecord.objects.exists()


@pytest.mark.django_db
def test_create_refuses_non_json(api_as, campaign, alice):
    response = api_as(alice).post("/api/characters/", data="{campaign: 1",
                                  content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert not Character.objects.exists()


@pytest.mark.django_db
def test_create_in_a_closed_campaign(api_as, campaign, alice):
    Campaign.objects.filter(pk=campaign.pk).update(is_open=False)

    response = api_as(alice).post("/api/characters/", {"campaign": campaign.pk, "name": "Zed"},
                                  format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "campaign_closed"
    assert not Character.objects.exists()


@pytest.mark.django_db
def test_create_with_a_taken_name(api_as, campaign, alice, bob):
    factories.character(owner=bob, campaign=campaign, name="Zed")

    response = api_as(alice).post("/api/characters/", {"campaign": campaign.pk, "name": "zed"},
                                  format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert Character.objects.count() == 1


# --- GET /api/characters/{id}/ ----------------------------------------------------------------

@pytest.mark.django_db
def test_sheet(api_as, campaign, alice):
    now = int(time.time())
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(1, 2), xp=150,
                            level=2, pa=Decimal("10.5"), pa_anchor=now - 2 * HOUR - 5)

    response = api_as(alice).get(f"/api/characters/{a.pk}/")

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == a.pk and body["name"] == "Anna"
    assert body["campaign"] == {"id": campaign.pk, "name": "Test campaign"}
    assert body["characteristics"] == {code: getattr(a.ew1, code) for code in STATS}
    assert body["skills"] == a.ew1.skills and body["skills"]
    assert (body["level"], body["xp"]) == (2, 150)
    assert body["progress"] == {"level_start": 101, "next_level_at": 201, "percent": 49}
    assert (body["pa"], body["pa_max"], body["pv"], body["pv_max"]) == (11.5, 12.0, 100, 100)
    assert body["pa_next_at"] is not None  # 11.5 < 12: one more PA to come
    assert body["position"] == {"x": 1, "y": 2} and body["on_board"] is True
    assert (body["kills"], body["deaths"], body["protected"]) == (0, 0, False)
    [created] = body["log"]
    assert created["kind"] == "create" and created["actor"] == {"id": a.pk, "name": "Anna"}
    assert created["target"] is None and created["cost"] == 0.0
    roll = created["rolls"][0]
    assert set(roll) == {"label", "expression", "faces", "total", "target_score", "grade",
                         "success", "modifiers"}
    assert (roll["grade"], roll["success"]) == ("", None)  # a characteristic roll is no test
    assert roll["label"] == "FOR" and roll["expression"] == "3d6" and len(roll["faces"]) == 3
    assert EternalWarSheet.objects.get(pk=a.pk).pa == Decimal("10.5")  # nothing written


@pytest.mark.django_db
def test_sheet_of_a_protected_character(api_as, campaign, alice):
    a = factories.character(owner=alice, campaign=campaign, name="Anna", acted=False)

    body = api_as(alice).get(f"/api/characters/{a.pk}/").json()

    assert body["protected"] is True and body["pa_next_at"] is None


@pytest.mark.django_db
def test_another_players_sheet_looks_missing(api_as, campaign, alice, bob):
    b = factories.character(owner=bob, campaign=campaign, name="Bob's")
    client = api_as(alice)

    theirs = client.get(f"/api/characters/{b.pk}/")
    missing = client.get(f"/api/characters/{b.pk + 100}/")

    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json() == {"code": "not_found",
                                               "detail": "No such character."}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["game_master", "staff"])
def test_game_master_and_staff_read_any_sheet(api_as, campaign, bob, role):
    reader = factories.user("reader", is_staff=(role == "staff"))
    if role == "game_master":
        Campaign.objects.filter(pk=campaign.pk).update(game_master=reader)
    b = factories.character(owner=bob, campaign=campaign, name="Bob's")

    response = api_as(reader).get(f"/api/characters/{b.pk}/")

    assert response.status_code == 200
    assert response.json()["name"] == "Bob's"


@pytest.mark.django_db
@pytest.mark.parametrize("others", [2, 30])
def test_sheet_query_count_is_constant(django_assert_num_queries, campaign, alice, bob, others):
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5))
    for i in range(others):
        factories.character(owner=bob, campaign=campaign, name=f"B{i}")
    client = forced(alice)

    # the character, the log, the log's rolls, the items
    with django_assert_num_queries(4):
        response = client.get(f"/api/characters/{a.pk}/")

    assert response.status_code == 200


# --- authentication ---------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("method, url", [
    ("get", "/api/characters/"), ("post", "/api/characters/"), ("get", "/api/characters/{id}/"),
    ("get", "/api/characters/{id}/board/"), ("post", "/api/characters/{id}/move/"),
    ("post", "/api/characters/{id}/attack/"),
])
def test_anonymous_is_refused(api, campaign, alice, method, url):
    a = factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5))
    before = snapshot(a)

    response = getattr(api, method)(url.format(id=a.pk), {"dx": 1, "dy": 0}, format="json")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert snapshot(a) == before


@pytest.mark.django_db
def test_http_basic_authentication(api, campaign, alice):
    factories.character(owner=alice, campaign=campaign, name="Anna")
    token = base64.b64encode(f"alice:{factories.PASSWORD}".encode()).decode()

    ok = api.get("/api/characters/", HTTP_AUTHORIZATION=f"Basic {token}")
    wrong = api.get("/api/characters/", HTTP_AUTHORIZATION="Basic "
                    + base64.b64encode(b"alice:nope").decode())

    assert ok.status_code == 200 and [c["name"] for c in ok.json()] == ["Anna"]
    assert wrong.status_code == 401  # issue 9: Basic, the first authenticator, challenges
    assert wrong["WWW-Authenticate"] == 'Basic realm="api"'
    assert wrong.json()["code"] == "authentication_failed"


@pytest.mark.django_db
def test_inactive_user_is_refused(api, alice):
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    token = base64.b64encode(f"alice:{factories.PASSWORD}".encode()).decode()

    assert api.get("/api/characters/", HTTP_AUTHORIZATION=f"Basic {token}").status_code == 401  # issue 9
