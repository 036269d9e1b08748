"""Every URL the project serves (read from the resolver, so a new one is swept too): anonymous
GET and POST never answer 500 nor 200 with private data, and change nothing; a method a view does
not take answers 405, never 500; ids too large for the database answer 404."""

from __future__ import annotations

import re

import pytest
from django.urls import URLResolver, get_resolver

from tests.breaker.conftest import api_logged_in, logged_in

# Pages that anyone may open; they show no game data.
PUBLIC = {"accounts/login/", "accounts/signup/", "api/schema/"}
# Answer any method with a redirect (Django's RedirectView and set_language).
REDIRECTS = {"", "i18n/setlang/"}


def patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith("admin/"):
                continue  # Django's admin: its own login wall
            yield from patterns(entry, route)
        else:
            yield route


ROUTES = sorted(set(patterns()))


def url_of(route: str, values: dict) -> str:
    return "/" + re.sub(r"<int:(\w+)>", lambda m: str(values[m.group(1)]), route)


@pytest.fixture
def values(world):
    from factions.models import Faction, JoinRequest
    faction = Faction.objects.create(campaign=world.campaign, name="Wolves", leader=world.a)
    request = JoinRequest.objects.create(faction=faction, character=world.b, kind="request")
    return {"character_id": world.a.pk, "item_id": world.a_sword.pk,
            "draft_id": world.a_draft.pk, "campaign_id": world.campaign.pk,
            "faction_id": faction.pk, "request_id": request.pk}


def test_the_sweep_sees_every_app():
    prefixes = {r.split("/")[0] for r in ROUTES}
    assert {"accounts", "characters", "campaigns", "factions", "api"} <= prefixes
    assert len(ROUTES) > 60


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("route", ROUTES)
def test_anonymous_gets_nothing_private(client, world, values, unchanged, route, method):
    url = url_of(route, values)
    with unchanged():
        response = getattr(client, method)(url)
    assert response.status_code < 500, (url, response.status_code)
    if route.startswith("api/") and route not in PUBLIC:
        assert response.status_code == 403, (url, response.status_code)
        assert response.json()["code"] == "not_authenticated"
    elif route in PUBLIC or route in REDIRECTS:
        assert response.status_code in (200, 302, 405), (url, response.status_code)
    else:
        assert response.status_code == 302, (url, response.status_code)
        assert response["Location"].startswith("/accounts/login/")
    for secret in (b"Aline", b"Bruno", b"Firebolt", b"Alice draft"):
        assert secret not in response.content, (url, secret)


def allowed_methods(route: str, values: dict, user) -> set[str]:
    """The methods a view takes, read from an OPTIONS request (DRF) or by probing."""
    return set()


# Which methods each non-API page takes; everything else must be 405.
GET_ONLY = {"characters/<int:character_id>/", "characters/<int:character_id>/board/",
            "characters/drafts/<int:draft_id>/", "campaigns/<int:campaign_id>/leaderboard/",
            "factions/", "factions/campaign/<int:campaign_id>/", "factions/<int:faction_id>/"}
GET_POST = {"characters/", "characters/<int:character_id>/level-up/",
            "characters/<int:character_id>/spells/", "accounts/signup/", "accounts/login/",
            "factions/<int:faction_id>/manage/"}


def page_methods(route: str) -> set[str]:
    if route in GET_ONLY:
        return {"get", "head"}
    if route in GET_POST:
        return {"get", "head", "post"}
    return {"post"}


PAGES = [r for r in ROUTES if not r.startswith("api/") and r not in REDIRECTS]


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
@pytest.mark.parametrize("route", PAGES)
def test_pages_answer_405_to_methods_they_do_not_take(world, values, unchanged, route, method):
    if method in page_methods(route):
        pytest.skip("a method the page takes")
    client = logged_in(world.alice)
    url = url_of(route, values)
    with unchanged():
        response = getattr(client, method)(url)
    assert response.status_code == 405, (url, method, response.status_code)


API = [r for r in ROUTES if r.startswith("api/")]


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
@pytest.mark.parametrize("route", API)
def test_api_answers_405_to_methods_it_does_not_take(world, values, unchanged, route, method):
    client = api_logged_in(world.alice)
    url = url_of(route, values)
    allow = client.options(url)["Allow"].lower().replace(" ", "").split(",")
    if method in allow:
        pytest.skip("a method the endpoint takes")
    with unchanged():
        response = getattr(client, method)(url, {}, format="json")
    assert response.status_code == 405, (url, method, response.status_code)
    assert response.json()["code"] == "method_not_allowed"


HUGE = 10 ** 20


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("route", [r for r in ROUTES if "<int:" in r])
def test_ids_too_large_for_the_database_are_404(world, values, unchanged, route, method):
    """An id past the database's integer range (the URL converter takes any digits)."""
    client = logged_in(world.alice)
    url = url_of(route, {k: HUGE for k in values})
    with unchanged():
        response = getattr(client, method)(url)
    assert response.status_code in (404, 405), (url, response.status_code)
