"""The API's edges (issue 9, item 7): anonymous calls are challenged (401 with
``WWW-Authenticate``), ids Django cannot route answer the JSON 404, an unknown ordering is a 400,
and ids that are not written as whole numbers are refused, not read as 1."""

from __future__ import annotations

import base64

import pytest
from rest_framework.test import APIClient

from tests import factories
from tests.breaker.conftest import api_logged_in


@pytest.mark.django_db
@pytest.mark.parametrize("method, path", [("get", "/api/characters/"), ("get", "/api/campaigns/"),
                                          ("post", "/api/drafts/"), ("get", "/api/factions/1/")])
def test_anonymous_calls_are_challenged_with_401(method, path):
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Basic realm="api"'
    assert response.json() == {"code": "not_authenticated",
                               "detail": "Authentication credentials were not provided."}


@pytest.mark.django_db
def test_basic_authentication_still_works():
    factories.user("basil")
    client = APIClient()
    token = base64.b64encode(f"basil:{factories.PASSWORD}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    assert client.get("/api/characters/").status_code == 200


@pytest.mark.parametrize("path", [
    "/api/characters/-1/", "/api/characters/-1/board/", "/api/campaigns/-5/leaderboard/",
    "/api/characters/1.5/", "/api/characters/%201%20/", "/api/characters/%D9%A3/",
    "/api/factions/-3/", "/api/characters/{a}/items/-1/use/", "/api/no-such-endpoint/",
    "/api/characters/" + "9" * 30 + "/", "/api/campaigns/" + "9" * 25 + "/leaderboard/",
    "/api/factions/" + "9" * 30 + "/", "/api/drafts/" + "9" * 30 + "/",
    "/api/characters/{a}/items/" + "9" * 30 + "/use/",
    "/api/faction-requests/" + "9" * 30 + "/answer/",
])
def test_unroutable_and_huge_ids_answer_the_json_404(world, unchanged, path):
    client = api_logged_in(world.alice)
    with unchanged():
        url = path.format(a=world.a.pk)
        response = client.post(url, {"accept": True}, format="json") if url.endswith(
            ("/use/", "/answer/")) else client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_pages_keep_django_s_404_page(world):
    from tests.breaker.conftest import logged_in
    response = logged_in(world.alice).get("/characters/-1/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("query", ["order=bogus", "order=kills%20", "ordering=level",
                                   "order=kills&ordering=-id", "sort=deaths"])
def test_an_ordering_outside_the_allowed_list_is_a_400(world, query):
    response = api_logged_in(world.alice).get(
        f"/api/campaigns/{world.campaign.pk}/leaderboard/?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_input"


@pytest.mark.parametrize("order", ["kills", "level", "deaths"])
def test_the_allowed_orderings_still_answer(world, order):
    response = api_logged_in(world.alice).get(
        f"/api/campaigns/{world.campaign.pk}/leaderboard/?order={order}")
    assert response.status_code == 200
    assert response.json()["order"] == order


NOT_WHOLE = [1.5, "1.5", " 1 ", "1 ", "1.0", 1.0, "\u0663", "\uff11", "+1", True]


@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
@pytest.mark.parametrize("action", ["attack-target", "cast-spell", "create-campaign",
                                    "move-dx", "level-up-skill"])
def test_ids_and_numbers_not_written_as_whole_numbers_are_refused(world, unchanged, action,
                                                                   value):
    a = world.a.pk
    url, body = {
        "attack-target": (f"/api/characters/{a}/attack/", {"target": value, "kind": "brawl"}),
        "cast-spell": (f"/api/characters/{a}/cast/", {"spell": value, "x": 3, "y": 2}),
        "create-campaign": ("/api/characters/", {"campaign": value, "name": "Newcomer"}),
        "move-dx": (f"/api/characters/{a}/move/", {"dx": value, "dy": 0}),
        "level-up-skill": (f"/api/characters/{a}/level-up/", {"skills": {"brawl": value}}),
    }[action]
    with unchanged():
        response = api_logged_in(world.alice).post(url, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_input"
    assert "A whole number is required (digits only)." in str(response.json()["errors"])


def test_whole_numbers_as_json_numbers_or_digit_strings_still_pass(world):
    client = api_logged_in(world.alice)
    # Bruno stands at (3, 2), next to Aline: a string of digits is still his id.
    response = client.post(f"/api/characters/{world.a.pk}/attack/",
                           {"target": str(world.b.pk), "kind": "brawl"}, format="json")
    assert response.status_code == 200, response.content
    response = client.post(f"/api/characters/{world.a.pk}/move/", {"dx": 0, "dy": "-1"},
                           format="json")
    assert response.status_code == 200, response.content
