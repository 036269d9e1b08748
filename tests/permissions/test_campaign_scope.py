"""Issue 22, item 1: the role matrix over every surface. For the game master, a co-game master,
a player, a stranger and staff of our table (tests/permissions/scoped_world.py), every admin
change list and change page, every API operation and every page route (the URL sweep's table,
tests/breaker/test_url_sweep.py) with the ids of the rival table's rows of each rule system:
no rival row is read (a list never holds one, a page or answer never shows its name) nor
written (a POST, PUT, PATCH or DELETE on it changes no row). Staff oversee every campaign
(campaigns.permissions): they read the rival's rows, which shows that the sweep would see a
leak. The world is built once for the module; each test runs in a savepoint of it."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import transaction
from django.urls import reverse

from campaigns.admin_scope import CampaignScopedAdmin, in_scope, scope_of
from tests.breaker.conftest import api_logged_in, logged_in
from tests.breaker.test_url_sweep import FILES, PUBLIC, REDIRECTS, ROUTES, api_methods, \
    page_methods, url_of
from tests.permissions import scoped_world
from tests.permissions.scoped_world import GAME_APPS, MARK, ROLES

pytestmark = pytest.mark.django_db
SCOPED_ONLY = ("gm", "co_gm", "player", "stranger")  # everyone but staff
MASTERS = ("gm", "co_gm")


@pytest.fixture(scope="module")
def tables(django_db_setup, django_db_blocker):
    """The two tables, built once; rolled back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield scoped_world.build()
        transaction.set_rollback(True)


@pytest.fixture
def t(tables, db):
    return tables


def snapshot() -> dict:
    """Every row of the game's tables and of the accounts' (API tokens)."""
    return {m._meta.label: list(m.objects.order_by("pk").values())
            for m in apps.get_models() if m._meta.app_label in (*GAME_APPS, "accounts")}


@contextmanager
def nothing_written():
    before = snapshot()
    yield
    after = snapshot()
    changed = [label for label in before if before[label] != after[label]]
    assert not changed, changed


# --- the admin ----------------------------------------------------------------------------------

SCOPED_ADMINS = [(model, model_admin) for model, model_admin in admin.site._registry.items()
                 if scope_of(model) is not None]


def _name(model) -> str:
    return f"{model._meta.app_label}_{model._meta.model_name}"


def _rows(model, campaign_ids):
    return set(model._default_manager.filter(in_scope(scope_of(model), campaign_ids))
               .values_list("pk", flat=True))


def test_every_campaign_scoped_admin_is_in_the_matrix():
    names = {m._meta.label for m, _ in SCOPED_ADMINS}
    assert {"campaigns.Campaign", "characters.Character", "ew1.ItemTemplate",
            "homebrew.HomebrewSheet", "eclipse.Sleeve", "magic.Scroll", "factions.JoinRequest",
            "encounters.EncounterEffect"} <= names
    bare = [m._meta.label for m, a in SCOPED_ADMINS if not isinstance(a, CampaignScopedAdmin)]
    assert not bare, f"a campaign's rows without CampaignScopedAdmin: {bare}"
    unscoped = {m._meta.label for m in admin.site._registry if scope_of(m) is None}
    # Accounts and their addresses, logins and lockouts belong to no campaign (staff's alone).
    assert unscoped <= {"auth.User", "auth.Group", "axes.AccessAttempt", "axes.AccessLog",
                        "axes.AccessFailureLog", "account.EmailAddress",
                        "socialaccount.SocialAccount", "socialaccount.SocialApp",
                        "socialaccount.SocialToken"}, unscoped


@pytest.mark.parametrize("role", ROLES)
def test_admin_change_lists_hold_ones_own_campaigns_rows(t, role):
    client = logged_in(t.users[role])
    for model, _ in SCOPED_ADMINS:
        response = client.get(reverse(f"admin:{_name(model)}_changelist"))
        if role in ("player", "stranger"):
            assert response.status_code == 302, model
            assert response["Location"].startswith("/admin/login/")
            continue
        assert response.status_code == 200, (model, response.status_code)
        shown = {row.pk for row in response.context["cl"].result_list}
        if role == "staff":
            assert shown == set(model._default_manager.values_list("pk", flat=True)), model
            continue
        assert _rows(model, t.rival_ids), f"the rival has no {model._meta.label} to hide"
        assert shown == _rows(model, t.mine), model
        assert MARK not in response.content.decode(), model


@pytest.mark.parametrize("role", MASTERS)
def test_admin_pages_of_another_campaign_are_missing_and_change_nothing(t, role):
    client = logged_in(t.users[role])
    with nothing_written():
        for model, _ in SCOPED_ADMINS:
            for pk in sorted(_rows(model, t.rival_ids)):
                for page in ("change", "delete", "history"):
                    url = reverse(f"admin:{_name(model)}_{page}", args=[pk])
                    response = client.get(url)
                    assert response.status_code == 302, (url, response.status_code)
                    assert MARK not in response.content.decode()
                    assert client.post(url, {"post": "yes"}).status_code in (302, 403), url
            changelist = reverse(f"admin:{_name(model)}_changelist")
            others = sorted(_rows(model, t.rival_ids))
            client.post(changelist, {"action": "delete_selected", "post": "yes",
                                     "_selected_action": others})


@pytest.mark.parametrize("role", MASTERS)
def test_admin_pages_of_ones_campaigns_show_none_of_the_others(t, role):
    """Each change page of our rows, and each add page: 200, and none of the rival's rows in
    its choices (the form's own choices included)."""
    client = logged_in(t.users[role])
    for model, model_admin in SCOPED_ADMINS:
        for pk in sorted(_rows(model, t.mine))[:3]:
            url = reverse(f"admin:{_name(model)}_change", args=[pk])
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            assert MARK not in response.content.decode(), url
        url = reverse(f"admin:{_name(model)}_add")
        response = client.get(url)
        assert response.status_code in (200, 403), (url, response.status_code)
        assert MARK not in response.content.decode(), url


# --- the API and the pages ------------------------------------------------------------------------

def _system_of(route: str) -> tuple[str, ...]:
    """The rule systems whose rival ids a route is swept with: its own, or all three."""
    for code, words in (("homebrew", ("homebrew/",)), ("eclipse_phase", ("eclipse/",)),
                        ("ew1", ("spells", "level-up", "items", "drafts", "board"))):
        if any(w in route for w in words):
            return (code,)
    return ("ew1", "homebrew", "eclipse_phase") if "<" in route else ("ew1",)


SWEPT = [r for r in ROUTES if r not in PUBLIC | REDIRECTS | FILES and r != "api/schema/"
         and "<uidb64>" not in r]
API = [r for r in SWEPT if r.startswith("api/")]
PAGES = [r for r in SWEPT if not r.startswith("api/")]


# What a campaign shows every signed-up user, by design: its name where a character is created
# or a join is asked (an open campaign), its public leaderboard, its public factions (their
# names, leaders and members) and their lists. Nothing else of a rival table may be read.
PUBLIC_FACE = {
    "api/campaigns/": "the campaigns one may join or create a character in",
    "characters/": "the character creation page lists the open campaigns",
    "homebrew/campaigns/<int:campaign_id>/new/": "creating a character in an open campaign",
    "eclipse/campaigns/<int:campaign_id>/new/": "creating a character in an open campaign",
    "campaigns/<int:campaign_id>/leaderboard/": "the campaign's public leaderboard",
    "api/campaigns/<int:campaign_id>/leaderboard/": "the campaign's public leaderboard",
    "factions/": "the public factions of the open campaigns, to ask to join",
    "factions/<int:faction_id>/": "a public faction's page",
    "factions/campaign/<int:campaign_id>/": "a campaign's public factions",
    "api/factions/<int:faction_id>/": "a public faction's page",
    "api/campaigns/<int:campaign_id>/factions/": "a campaign's public factions",
    "campaigns/join/<slug:code>/": "an invitation shows its campaign to whoever holds its code",
}


def _read(t, client, routes, role) -> list[str]:
    """GET each route with the rival's ids; the urls whose answer shows a rival name, but for
    the campaigns' public face (PUBLIC_FACE)."""
    shown = []
    for route in routes:
        for system in _system_of(route):
            url = url_of(route, t.values[system])
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)
            body = b"".join(response.streaming_content) if response.streaming else \
                response.content
            if MARK.encode() in body and route not in PUBLIC_FACE:
                shown.append(url)
    return shown


@pytest.mark.parametrize("role", ROLES)
def test_the_api_reads_nothing_of_another_campaign(t, role):
    shown = _read(t, api_logged_in(t.users[role]), API, role)
    if role == "staff":
        assert shown  # the sweep sees what an overseer of every campaign reads
    else:
        assert not shown, "\n".join(shown)


@pytest.mark.parametrize("role", SCOPED_ONLY)
def test_the_api_writes_nothing_in_another_campaign(t, role):
    client = api_logged_in(t.users[role])
    with nothing_written():
        for route in API:
            methods = api_methods(route) - {"get", "head", "options"}
            for system in _system_of(route):
                url = url_of(route, t.values[system])
                for method in sorted(methods):
                    response = getattr(client, method)(url, {}, format="json")
                    assert response.status_code < 500, (url, method, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_the_pages_show_nothing_of_another_campaign(t, role):
    routes = [r for r in PAGES if "get" in page_methods(r) and r != "live/"]
    shown = _read(t, logged_in(t.users[role]), routes, role)
    if role == "staff":
        assert shown
    else:
        assert not shown, "\n".join(shown)


# Whoever holds an invitation's code may join its campaign: the code is the permission
# (tests/permissions/test_campaign_members.py tests its refusals).
JOINED_BY_CODE = {"campaigns/join/<slug:code>/"}


@pytest.mark.parametrize("role", SCOPED_ONLY)
def test_the_pages_write_nothing_in_another_campaign(t, role):
    client = logged_in(t.users[role])
    with nothing_written():
        for route in PAGES:
            if "post" not in page_methods(route) or route in JOINED_BY_CODE:
                continue
            for system in _system_of(route):
                url = url_of(route, t.values[system])
                response = client.post(url, {})
                assert response.status_code < 500, (url, response.status_code)


# A game master's own steps, with payloads that work on their campaign: on the rival's, nothing.
GM_WRITES = [
    ("page", "/homebrew/campaigns/{hb}/rest/", {"kind": "short"}),
    ("page", "/encounters/campaign/{hb}/", {"name": "Raid"}),
    ("page", "/encounters/campaign/{hb}/enemy-state/", {"value": "exact"}),
    ("page", "/encounters/{encounter}/start/", {}),
    ("page", "/campaigns/{ew}/masters/add/", {"username": "stranger"}),
    ("page", "/chat/campaigns/{hb}/", {"text": "hello"}),
    ("api", "/api/homebrew/campaigns/{hb}/rest/", {"kind": "short"}),
    ("api", "/api/campaigns/{ep}/encounters/", {"name": "Raid"}),
    ("api", "/api/encounters/{encounter}/start/", {}),
    ("api", "/api/campaigns/{hb}/chat/", {"text": "hello"}),
]


@pytest.mark.parametrize("role", MASTERS)
@pytest.mark.parametrize("surface,url,data", GM_WRITES)
def test_a_game_masters_steps_change_nothing_of_another_campaign(t, role, surface, url, data):
    client = (api_logged_in if surface == "api" else logged_in)(t.users[role])
    post = (lambda u: client.post(u, data, format="json")) if surface == "api" else \
        (lambda u: client.post(u, data))
    with nothing_written():
        response = post(url.format(**t.gm_targets["rival"]))
    assert response.status_code in (302, 403, 404), response.status_code
    if role == "co_gm" and "/masters/" in url:
        return  # the game master's alone (campaigns.permissions.owns): tests/permissions
    before = snapshot()
    response = post(url.format(**t.gm_targets["ours"]))  # the payload works on our campaign
    assert response.status_code < 400, (url, response.status_code)
    assert snapshot() != before, url
