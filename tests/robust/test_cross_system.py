"""Issue 17, item 4: every system-specific endpoint and page, called with the campaign, character,
combatant or encounter of another rule system, answers a coded 4xx (the API) or 404 (pages), as
the game master and as a player of both campaigns; never a 5xx, and nothing changes."""

from __future__ import annotations

import re
from dataclasses import asdict

import pytest

from tests.breaker.test_url_sweep import ROUTES, api_methods, page_methods, url_of
from tests.robust.conftest import MISSING, SYSTEMS, api_client, page_client

EW1_CHARACTER = re.compile(r"^(api/)?characters/<int:character_id>/(?!$|notice/).+")


def system_of(route: str) -> str | None:
    """The rule system whose endpoint or page ``route`` is (None: shared by every system)."""
    for system in ("homebrew", "eclipse"):
        if route.startswith((f"{system}/", f"api/{system}/")):
            return system
    if EW1_CHARACTER.match(route) or "drafts/<int:draft_id>" in route:
        return "ew1"
    return None


SPECIFIC = [r for r in ROUTES if "<int:" in r and system_of(r)]

def methods(route: str) -> list[str]:
    taken = api_methods(route) if route.startswith("api/") else page_methods(route) - {"head"}
    return sorted(taken & {"get", "post", "patch", "put", "delete"})


def test_every_system_has_endpoints_to_cross():
    assert {system_of(r) for r in SPECIFIC} == set(SYSTEMS)
    assert len(SPECIFIC) > 100


def _call(client, api: bool, method: str, url: str):
    return (getattr(client, method)(url, {}, format="json") if api
            else getattr(client, method)(url))


@pytest.mark.parametrize("route", SPECIFIC)
def test_another_systems_ids_get_a_coded_refusal(demo, db, unchanged, route):
    """As the GM and as a player of all three campaigns: a coded 4xx (API); a page answers
    404, or redirects with the refusal's message (an action's form)."""
    api = route.startswith("api/")
    for other in SYSTEMS:
        if other == system_of(route) or (other != "ew1" and "draft_id" in route):
            continue  # drafts are EW1's only
        url = url_of(route, asdict(demo.ids[other]))
        for user in (demo.gm, demo.alice):
            client = api_client(user) if api else page_client(user)
            for method in methods(route):
                with unchanged():
                    response = _call(client, api, method, url)
                status = response.status_code
                assert status < 500, (method, url, user.username, status)
                if api:
                    assert 400 <= status < 500, (method, url, user.username, status)
                    assert response.json()["code"], (method, url)
                elif method == "get":
                    assert status == 404, (method, url, user.username, status)
                else:
                    assert status in (302, 404), (method, url, user.username, status)


# A campaign's leaderboard is public (issue 5), and so is the list of its factions (their
# names, leaders and sizes, what a newcomer reads to choose one; members only for those
# factions.view_members allows): not objects a stranger must not see.
PUBLIC = ("leaderboard", "api/campaigns/<int:campaign_id>/factions/")


@pytest.mark.parametrize("route", [r for r in ROUTES if "<int:" in r and r.startswith("api/")
                                   and not any(p in r for p in PUBLIC)])
def test_a_stranger_learns_nothing_about_the_object(demo, db, unchanged, route):
    """Someone in none of the campaigns gets, for any system's real ids, exactly what an id
    that does not exist gets: no rule-system error tells them the object is there."""
    client = api_client(demo.stranger)
    missing = url_of(route, {k: MISSING + 1 for k in asdict(demo.ids["ew1"])})
    for method in methods(route):
        with unchanged():
            expected = _call(client, True, method, missing)
        for system in SYSTEMS:
            url = url_of(route, asdict(demo.ids[system]))
            with unchanged():
                response = _call(client, True, method, url)
            assert (response.status_code, response.json().get("code")) == (
                expected.status_code, expected.json().get("code")), (method, url)
