"""Every URL the project serves (read from the resolver, so a new one is swept too): anonymous
GET and POST never answer 500 nor 200 with private data, and change nothing; a method a view does
not take answers 405, never 500; ids too large for the database answer 404."""

from __future__ import annotations

import re

import pytest
from django.urls import URLResolver, get_resolver

from tests.breaker.conftest import api_logged_in, logged_in

# Pages that anyone may open; they show no game data.
PUBLIC = {"accounts/login/", "accounts/signup/", "accounts/logout/", "api/schema/",
          "api/docs/",
          "healthz",  # the load balancer's health check (issue 9): no game data
          # Issue 22: allauth's pages one opens logged out (password reset, the address's
          # confirmation, an OAuth login's outcome): forms and notices, no game data.
          "accounts/password/reset/", "accounts/password/reset/done/",
          r"accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
          "accounts/password/reset/key/done/", "accounts/confirm-email/",
          r"accounts/^confirm-email/(?P<key>[-:\w]+)/$", "accounts/inactive/",
          "accounts/3rdparty/login/cancelled/", "accounts/3rdparty/login/error/"}
# Public pages that may also refuse: allauth's OAuth error page (401), a confirmation key that is
# no one's, posted (404).
PUBLIC_REFUSALS = {"accounts/3rdparty/login/error/": (401,),
                   r"accounts/^confirm-email/(?P<key>[-:\w]+)/$": (404,)}
# Issue 22: an OAuth provider without its client id and secret (the tests' settings): 404.
NOT_CONFIGURED = {"accounts/discord/login/", "accounts/discord/login/callback/"}
# Answer any method with a redirect (Django's RedirectView and set_language; the favicon).
REDIRECTS = {"", "i18n/setlang/", "favicon.ico",
             # allauth's former social/ paths, now under 3rdparty/ (a permanent redirect)
             "accounts/social/connections/", "accounts/social/login/cancelled/",
             "accounts/social/login/error/", "accounts/social/signup/"}
# Issue 21: the uploaded pictures (random names, no game data; nginx serves them in production):
# anyone may fetch one, a name that is none is a 404.
FILES = {"media/<path:path>"}


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


# allauth's two regular-expression routes (issue 22): a key that is no one's.
REGEX_ROUTES = {
    r"accounts/^confirm-email/(?P<key>[-:\w]+)/$": "accounts/confirm-email/sweep-key/",
    r"accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$":
        "accounts/password/reset/key/1-sweep-key/",
}


def url_of(route: str, values: dict) -> str:
    """``route`` with its ids from ``values``; a slug (the GM screen's action key, the back
    office's kind of row) from ``values`` too, else one of the keys that exist ("heal")."""
    url = re.sub(r"<int:(\w+)>", lambda m: str(values[m.group(1)]), REGEX_ROUTES.get(route, route))
    return "/" + re.sub(r"<slug:(\w+)>", lambda m: str(values.get(m.group(1), "heal")), url)


ID_NAMES = ("character_id", "item_id", "draft_id", "campaign_id", "faction_id", "request_id",
            "encounter_id", "combatant_id", "reaction_id", "network_id", "message_id",
            "entry_id", "token_id", "user_id", "row_id", "invitation_id", "join_request_id",
            "notification_id")


def encounter_values(world) -> dict:
    """An encounter of the campaign (its GM is not alice) with alice's character in it and a
    pending reaction (issue 11)."""
    from datetime import timedelta

    from django.utils import timezone

    from encounters.models import Combatant, Encounter, PendingReaction
    encounter = Encounter.objects.create(campaign=world.campaign, name="Sweep")
    combatant = Combatant.objects.create(encounter=encounter, character=world.a, name="A")
    now = timezone.now()
    reaction = PendingReaction.objects.create(
        encounter=encounter, actor=combatant, target=combatant, resolver="sweep",
        default="none", round=1, requested_at=now, deadline=now + timedelta(hours=1))
    return {"encounter_id": encounter.pk, "combatant_id": combatant.pk,
            "reaction_id": reaction.pk}


def sweep_values(world) -> dict:
    """One object of each kind a route names by id, for the world's campaign."""
    from factions.models import Faction, JoinRequest
    faction = Faction.objects.create(campaign=world.campaign, name="Wolves", leader=world.a)
    request = JoinRequest.objects.create(faction=faction, character=world.b, kind="request")
    from eclipse.models import SquadNetwork
    network = SquadNetwork.objects.create(campaign=world.campaign, name="Sweep net")
    from django.utils import timezone

    from campaigns.journal import record_action
    from chat.models import Message
    entry = record_action(campaign=world.campaign, kind="chat_roll", now=timezone.now(),
                          summary={"private": True}, bump=False)
    message = Message.objects.create(campaign=world.campaign, body="Sweep secret",
                                     html="<p>Sweep secret</p>", entry=entry,
                                     created_at=timezone.now())
    from accounts.tokens import api_token_create
    token, _secret = api_token_create(user=world.alice, name="Sweep")
    from magic.models import Spell
    row = Spell.objects.filter(campaign=world.campaign).order_by("pk").first()
    from campaigns.models import CampaignInvitation, CampaignJoinRequest
    invitation = CampaignInvitation.objects.create(campaign=world.campaign, code="sweepcode")
    join_request = CampaignJoinRequest.objects.create(campaign=world.campaign, user=world.bob)
    from notifications.models import Notification
    notification = Notification.objects.create(  # bob's: alice may not mark it
        user=world.bob, kind="turn", code="turn", campaign=world.campaign,
        created_at=timezone.now(), params={"character": "Bruno", "encounter": "Sweep"})
    return {"row_id": row.pk, "kind": "spells", "invitation_id": invitation.pk,
            "join_request_id": join_request.pk, "code": invitation.code,
            "token_id": token.pk, "user_id": world.bob.pk,
            "notification_id": notification.pk,
            "character_id": world.a.pk, "item_id": world.a_sword.pk,
            "draft_id": world.a_draft.pk, "campaign_id": world.campaign.pk,
            "faction_id": faction.pk, "request_id": request.pk, "network_id": network.pk,
            "message_id": message.pk, "entry_id": entry.pk,
            **encounter_values(world)}


@pytest.fixture
def values(world):
    return sweep_values(world)


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
        assert response.status_code == 401, (url, response.status_code)
        assert response.json()["code"] == "not_authenticated"
        assert response["WWW-Authenticate"].startswith("Basic")
    elif route in PUBLIC or route in REDIRECTS:
        assert response.status_code in (200, 301, 302, 405, *PUBLIC_REFUSALS.get(route, ())), (
            url, response.status_code)
    elif route in NOT_CONFIGURED:
        assert response.status_code == 404, (url, response.status_code)
    elif route in FILES:
        assert response.status_code in (404, 405), (url, response.status_code)
    else:
        assert response.status_code == 302, (url, response.status_code)
        assert response["Location"].startswith("/accounts/login/")
    for secret in (b"Aline", b"Bruno", b"Firebolt", b"Alice draft"):
        assert secret not in response.content, (url, secret)


# Which methods each non-API page takes; everything else must be 405.
GET_ONLY = {"characters/<int:character_id>/", "characters/<int:character_id>/board/",
            # issue 21 item 7: a piece's action menu on the board
            "characters/<int:character_id>/board/piece/",
            "characters/drafts/<int:draft_id>/", "campaigns/<int:campaign_id>/leaderboard/",
            "factions/", "factions/<int:faction_id>/", "healthz",
            # issue 17: the live pages' event stream (campaigns.live)
            "live/",
            # issue 8: the navigation's count
            "factions/pending/count/",
            # issue 11: the encounter's pages and the version they poll
            "encounters/", "encounters/<int:encounter_id>/", "encounters/<int:encounter_id>/control/",
            "encounters/<int:encounter_id>/version/", "encounters/<int:encounter_id>/events/",
            # issue 11: the homebrew sheet
            "homebrew/characters/<int:character_id>/",
            # issue 12: the Eclipse Phase sheet
            "eclipse/characters/<int:character_id>/",
            # issue 21: where one lands after login, the game master's screen
            "campaigns/", "campaigns/<int:campaign_id>/gm/",
            # issue 21: the uploaded pictures
            "media/<path:path>",
            # issue 22: the chat's list of rooms
            "chat/",
            # issue 22: the GM's back office, its lists
            "campaigns/<int:campaign_id>/manage/", "campaigns/<int:campaign_id>/manage/<slug:kind>/",
            # issue 22, item 5: the campaign's document to download
            "campaigns/<int:campaign_id>/export/",
            # issue 22: a campaign's players (its GMs'), the campaigns taking requests to join
            "campaigns/<int:campaign_id>/members/", "campaigns/join/",
            # issue 22: the notifications' list and the navigation's bell
            "notifications/", "notifications/bell/"}
GET_POST = {"characters/", "characters/<int:character_id>/level-up/",
            "characters/<int:character_id>/spells/",
            "factions/<int:faction_id>/manage/", "factions/campaign/<int:campaign_id>/",
            "encounters/campaign/<int:campaign_id>/",
            # issue 11: homebrew creation and the GM's rests
            "homebrew/campaigns/<int:campaign_id>/new/",
            "homebrew/campaigns/<int:campaign_id>/rest/",
            # issue 12: Eclipse Phase creation
            "eclipse/campaigns/<int:campaign_id>/new/",
            # issue 22: a chat room (read, post)
            "chat/campaigns/<int:campaign_id>/", "chat/encounters/<int:encounter_id>/",
            # issue 22: a new campaign, its co-game masters, the API tokens
            "campaigns/new/", "campaigns/<int:campaign_id>/masters/", "accounts/tokens/",
            # issue 22: the GM's back office: parameters, a row's forms, its deletion
            "campaigns/<int:campaign_id>/manage/parameters/",
            "campaigns/<int:campaign_id>/manage/<slug:kind>/new/",
            "campaigns/<int:campaign_id>/manage/<slug:kind>/<int:row_id>/",
            "campaigns/<int:campaign_id>/manage/<slug:kind>/<int:row_id>/delete/",
            # issue 22, item 5: a document's catalogue, a spreadsheet of one kind of rows
            "campaigns/<int:campaign_id>/import/",
            "campaigns/<int:campaign_id>/manage/import/<slug:kind>/",
            # issue 22: an invitation's link (read it, join)
            "campaigns/join/<slug:code>/",
            # issue 22: which notifications, the e-mail digest
            "notifications/settings/"}
# Issue 22: allauth's pages (accounts.urls): forms and notices alike take GET, HEAD and POST,
# anything else is 405; the account's deletion page too.
ALLAUTH_PAGES = {r for r in ROUTES if r.startswith("accounts/") and r not in REDIRECTS
                 and not r.startswith("accounts/tokens/")}


def page_methods(route: str) -> set[str]:
    if route in GET_ONLY:
        return {"get", "head"}
    if route in GET_POST or route in ALLAUTH_PAGES:
        return {"get", "head", "post"}
    return {"post"}


PAGES = [r for r in ROUTES if not r.startswith("api/") and r not in REDIRECTS]


METHODS = ["get", "post", "put", "patch", "delete"]
PAGE_REFUSALS = [(r, m) for r in PAGES for m in METHODS if m not in page_methods(r)]


@pytest.mark.parametrize("route,method", PAGE_REFUSALS)
def test_pages_answer_405_to_methods_they_do_not_take(world, values, unchanged, route, method):
    client = logged_in(world.alice)
    url = url_of(route, values)
    with unchanged():
        response = getattr(client, method)(url)
    assert response.status_code == 405, (url, method, response.status_code)


API = [r for r in ROUTES if r.startswith("api/") and r != "api/schema/"]


def api_methods(route: str) -> set[str]:
    """The methods the endpoint's APIView defines."""
    match = get_resolver().resolve(url_of(route, {k: 1 for k in ID_NAMES}))
    return {m for m in METHODS if hasattr(match.func.cls, m)}


API_REFUSALS = [(r, m) for r in API for m in METHODS if m not in api_methods(r)]


def test_every_endpoint_takes_some_method_and_refuses_others():
    assert all(api_methods(r) for r in API)
    assert len(API_REFUSALS) > 3 * len(API)


@pytest.mark.parametrize("route,method", API_REFUSALS)
def test_api_answers_405_to_methods_it_does_not_take(world, values, unchanged, route, method):
    client = api_logged_in(world.alice)
    url = url_of(route, values)
    assert method.upper() not in client.options(url)["Allow"]
    with unchanged():
        response = getattr(client, method)(url, {}, format="json")
    assert response.status_code == 405, (url, method, response.status_code)
    assert response.json()["code"] == "method_not_allowed"


HUGE = 10 ** 20


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("route", [r for r in ROUTES if "<int:" in r])
def test_ids_too_large_for_the_database_are_404(world, values, unchanged, route, method):
    """An id past the database's integer range (the URL converter takes any digits), with an
    empty body: refused (404, or the payload's own 400 or error redirect), never a 500.
    test_malformed sends valid bodies to huge ids."""
    client = api_logged_in(world.alice) if route.startswith("api/") else logged_in(world.alice)
    url = url_of(route, {k: HUGE for k in values})
    with unchanged():
        response = getattr(client, method)(url)
    assert response.status_code in (302, 400, 404, 405, 422), (url, response.status_code)
    if response.status_code == 302:
        assert not response["Location"].startswith("/accounts/login/")
