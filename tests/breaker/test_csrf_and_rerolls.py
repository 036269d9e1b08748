"""CSRF on every POST a browser session can make (pages and the session-authenticated API), and
the reroll limit against two players hammering it through both surfaces."""

from __future__ import annotations


import pytest
from django.urls import get_resolver

from tests import factories
from tests.breaker.conftest import HTMX, api_logged_in, logged_in
from tests.breaker.test_url_sweep import ID_NAMES, ROUTES, sweep_values, url_of


def post_routes():
    """Every route whose view takes POST (pages and API)."""
    out = []
    for route in ROUTES:
        match = get_resolver().resolve(url_of(route, {k: 1 for k in ID_NAMES}))
        cls = getattr(match.func, "cls", None) or getattr(match.func, "view_class", None)
        if cls is not None and not hasattr(cls, "post"):
            continue
        out.append(route)
    return out


POSTS = [r for r in post_routes() if r not in ("", "api/schema/")]


@pytest.fixture
def values(world):
    return sweep_values(world)


def body_for(route, w):
    return {"dx": 1, "dy": 0, "target": w.b.pk, "kind": "throw", "spell": w.a_spell.pk, "x": 3,
            "y": 2, "campaign": w.campaign.pk, "name": "Csrf", "offer": w.a_offer.pk,
            "skill_brawl": 1, "FOR": 1, "DEF": -1, "TAI": 0, "INT": 0, "DEX": 0, "LUK": 0,
            "language": "fr", "username": "mallory", "password1": "Zorglub-42-long",
            "password2": "Zorglub-42-long", "password": "x"}


@pytest.mark.parametrize("route", POSTS)
def test_posts_without_a_csrf_token_are_refused(world, values, unchanged, route):
    url = url_of(route, values)
    if route.startswith("api/"):
        client = api_logged_in(world.alice, csrf=True)
        with unchanged():
            response = client.post(url, body_for(route, world), format="json")
        assert response.status_code == 403, (url, response.status_code)
        assert "CSRF" in response.json()["detail"]
    else:
        client = logged_in(world.alice, csrf=True)
        with unchanged():
            response = client.post(url, body_for(route, world), **HTMX)
        if route in ("accounts/signup/",):
            assert response.status_code in (302, 403)  # a logged-in user is sent home
        else:
            assert response.status_code == 403, (url, response.status_code)


def test_the_sweep_covers_the_game_posts():
    for route in ("characters/<int:character_id>/move/", "characters/<int:character_id>/cast/",
                  "api/characters/<int:character_id>/attack/", "api/drafts/",
                  "characters/drafts/<int:draft_id>/confirm/", "accounts/logout/"):
        assert route in POSTS


# --- rerolls -------------------------------------------------------------------------------

def _reroll_api(client, draft):
    return client.post(f"/api/drafts/{draft.pk}/reroll/")


def _reroll_page(client, draft):
    return client.post(f"/characters/drafts/{draft.pk}/reroll/", **HTMX)


def test_two_players_each_get_their_own_rerolls_and_no_more(world, unchanged):
    limit = world.campaign.parameters.rerolls_per_minute
    alice_api, alice_page = api_logged_in(world.alice), logged_in(world.alice)
    bob_api = api_logged_in(world.bob)
    for i in range(limit):  # alternate surfaces: one counter
        client, call = (alice_api, _reroll_api) if i % 2 else (alice_page, _reroll_page)
        assert call(client, world.a_draft).status_code == 200
    with unchanged():
        for _ in range(5):
            refused = _reroll_api(alice_api, world.a_draft)
            assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
            page = _reroll_page(alice_page, world.a_draft)
            assert page.status_code == 200 and b'data-testid="error"' in page.content
    for _ in range(limit):
        assert _reroll_api(bob_api, world.b_draft).status_code == 200
    assert _reroll_api(bob_api, world.b_draft).status_code == 429


def test_a_second_draft_in_another_campaign_shares_the_limit(world, unchanged):
    other = factories.campaign(name="Second campaign")
    api = api_logged_in(world.alice)
    second = api.post("/api/drafts/", {"campaign": other.pk, "name": "Second"}, format="json")
    assert second.status_code == 201
    limit = world.campaign.parameters.rerolls_per_minute
    for _ in range(limit):
        assert _reroll_api(api, world.a_draft).status_code == 200
    with unchanged():
        assert api.post(f"/api/drafts/{second.json()['id']}/reroll/").status_code == 429


def test_rerolling_someone_elses_draft_does_not_spend_their_rerolls(world):
    """Bob hammering Alice's draft id gets 404s, and Alice keeps her rerolls."""
    bob = api_logged_in(world.bob)
    for _ in range(10):
        assert _reroll_api(bob, world.a_draft).status_code == 404
    alice = api_logged_in(world.alice)
    for _ in range(world.campaign.parameters.rerolls_per_minute):
        assert _reroll_api(alice, world.a_draft).status_code == 200
