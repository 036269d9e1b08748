"""Personal API tokens (issue 22, item 6): made, listed and revoked on the account's "API tokens"
page, stored as a SHA-256 only, the secret shown once; a script calls the API with
``Authorization: Token <secret>`` (or ``Bearer``) as its user, with that user's permissions
only. A revoked, expired, unknown or malformed token is a 401 that changes nothing (never a
500); wrong tokens count towards django-axes' lockout of the address; the throttles apply."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken
from tests import factories

LIMIT = 5  # the default LOGIN_FAILURE_LIMIT


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "api-tokens"}}
    caches["default"].clear()


@pytest.fixture
def staff(db):
    return factories.user("root", is_staff=True, is_superuser=True)


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make(user, name: str = "bot", **kw) -> str:
    return tokens.api_token_create(user=user, name=name, **kw)[1]


def call(secret: str, path: str = "/api/characters/", *, scheme: str = "Token",
         address: str = "203.0.113.7", method: str = "get", **data):
    client = APIClient(REMOTE_ADDR=address)
    return getattr(client, method)(path, data or None, format="json",
                                   HTTP_AUTHORIZATION=f"{scheme} {secret}")


def rows() -> list[dict]:
    return list(ApiToken.objects.order_by("pk").values())


# --- the page ---------------------------------------------------------------------------------

def test_a_stranger_is_sent_to_the_login_page(db):
    response = Client().get("/accounts/tokens/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert Client().post("/accounts/tokens/", {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_the_navigation_links_the_page(alice):
    html = page_client(alice).get("/characters/").content.decode()
    assert 'data-testid="nav-api-tokens" href="/accounts/tokens/"' in html or \
        'href="/accounts/tokens/" data-testid="nav-api-tokens"' in html


@pytest.mark.parametrize("who", ["player", "staff"])
def test_a_token_is_made_shown_once_and_stored_hashed(alice, staff, who):
    user = alice if who == "player" else staff
    client = page_client(user)
    response = client.post("/accounts/tokens/", {"name": "My bot", "expires_in_days": "30"})
    assert response.status_code == 201
    html = response.content.decode()
    [secret] = re.findall(r'data-testid="new-token">(pct_[A-Za-z0-9_-]{43})<', html)
    [row] = rows()
    assert row["user_id"] == user.pk and row["name"] == "My bot"
    assert row["digest"] == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(row)  # only its hash and its first characters are kept
    assert secret.startswith(row["prefix"]) and len(row["prefix"]) == 10
    assert timedelta(days=29, hours=23) < row["expires_at"] - row["created_at"] <= timedelta(
        days=30)
    again = client.get("/accounts/tokens/").content.decode()
    assert secret not in again and "My bot" in again and row["prefix"] in again


@pytest.mark.parametrize("data,status", [
    ({"name": ""}, 400), ({"name": "   "}, 400), ({"name": "x" * 65}, 400),
    ({"name": "ok", "expires_in_days": "5"}, 400), ({"name": "ok", "expires_in_days": "-1"}, 400),
    ({"name": "bad\x00name"}, 400)])
def test_bad_input_makes_no_token(alice, data, status):
    response = page_client(alice).post("/accounts/tokens/", data)
    assert response.status_code == status
    assert not ApiToken.objects.exists()


def test_the_service_refuses_what_the_page_cannot_send(alice):
    for kw, code in [({"name": " "}, "token_name_invalid"),
                     ({"name": "x", "expires_in_days": 0}, "token_expiry_invalid"),
                     ({"name": "x", "expires_in_days": 4000}, "token_expiry_invalid")]:
        with pytest.raises(tokens.TokenRefused) as refused:
            tokens.api_token_create(user=alice, **kw)
        assert refused.value.code == code
    assert not ApiToken.objects.exists()


def test_past_the_maximum_of_live_tokens_none_is_made(alice):
    for i in range(tokens.TOKENS_MAX):
        make(alice, f"t{i}")
    response = page_client(alice).post("/accounts/tokens/", {"name": "one more"})
    assert response.status_code == 400
    assert "revoke one before making another" in response.content.decode()
    assert ApiToken.objects.count() == tokens.TOKENS_MAX
    tokens.api_token_revoke(user=alice, token_id=ApiToken.objects.first().pk)
    assert page_client(alice).post("/accounts/tokens/", {"name": "now"}).status_code == 201


def test_revoking_on_the_page_ends_the_token(alice):
    secret = make(alice)
    token = ApiToken.objects.get()
    assert call(secret).status_code == 200
    response = page_client(alice).post(f"/accounts/tokens/{token.pk}/revoke/")
    assert response.status_code == 302 and response["Location"] == "/accounts/tokens/"
    token.refresh_from_db()
    assert token.revoked_at is not None
    refused = call(secret)
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert "Revoked" in page_client(alice).get("/accounts/tokens/").content.decode()


def test_another_users_token_cannot_be_revoked(alice, bob, staff):
    make(alice)
    before = rows()
    for user in (bob, staff):
        assert page_client(user).post(
            f"/accounts/tokens/{before[0]['id']}/revoke/").status_code == 404
    assert page_client(alice).post("/accounts/tokens/999999/revoke/").status_code == 404
    assert page_client(alice).get(f"/accounts/tokens/{before[0]['id']}/revoke/").status_code \
        == 405
    assert rows() == before


def test_each_user_lists_only_their_own_tokens(alice, bob):
    make(alice, "alice's")
    make(bob, "bob's")
    html = page_client(alice).get("/accounts/tokens/").content.decode()
    assert "alice&#x27;s" in html and "bob&#x27;s" not in html


# --- calling the API with a token -------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["Token", "Bearer", "token", "BEARER"])
def test_a_token_calls_the_api_as_its_user(alice, bob, campaign, scheme):
    mine = factories.character(owner=alice, campaign=campaign, name="Anna", at=(1, 1))
    theirs = factories.character(owner=bob, campaign=campaign, name="Bert", at=(2, 2))
    secret = make(alice)
    listed = call(secret, scheme=scheme)
    assert listed.status_code == 200
    assert [c["id"] for c in listed.json()] == [mine.pk]
    assert call(secret, f"/api/characters/{theirs.pk}/", scheme=scheme).status_code == 404
    assert ApiToken.objects.get().last_used_at is not None


def test_a_token_writes_without_a_csrf_token_with_its_users_rights(alice, campaign):
    secret = make(alice)
    made = call(secret, "/api/characters/", method="post", campaign=campaign.pk, name="Scripted")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == "Scripted"


def test_a_players_token_is_not_the_staffs(alice, staff, campaign):
    """Staff's token reads what staff reads; a player's, only the player's."""
    npc = factories.character(owner=staff, campaign=campaign, name="Npc", at=(3, 3))
    assert call(make(alice), f"/api/characters/{npc.pk}/").status_code == 404
    assert call(make(staff, "admin"), "/api/characters/").status_code == 200


@pytest.mark.parametrize("state", ["revoked", "expired", "inactive", "unknown"])
def test_a_dead_token_is_a_401_that_changes_nothing(alice, campaign, state):
    secret = make(alice)
    token = ApiToken.objects.get()
    if state == "revoked":
        tokens.api_token_revoke(user=alice, token_id=token.pk)
    elif state == "expired":
        ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    elif state == "inactive":
        type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    else:
        secret = tokens.PREFIX + "x" * 43
    before = rows()
    for response in (call(secret), call(secret, "/api/characters/", method="post",
                                        campaign=campaign.pk, name="Nope")):
        assert response.status_code == 401
        assert response.json()["code"] == "authentication_failed"
    assert rows() == before
    assert not campaign.characters.exists()


HOSTILE = ["Token", "Token a b", "Bearer ", "Token " + "a" * 5000, "Token pct_\x00abc",
           "Bearer \x01\x7f", "Token p\u00e9t\u00e9", "Token \u0663\u0663", "Token \xff\xfe",
           "Bearer " + "\u00e9" * 200, "Token\ttab"]


@pytest.mark.parametrize("header", HOSTILE)
def test_hostile_token_headers_are_401_never_500(alice, header):
    make(alice)
    before = rows()
    response = Client().get("/api/characters/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401, (header[:20], response.status_code)
    assert response.json()["code"] == "authentication_failed"
    assert rows() == before


def test_a_bad_token_leaves_basic_and_session_working(alice):
    assert call("nope", scheme="Basic").status_code == 401  # Basic's own refusal
    client = page_client(alice)
    assert client.get("/api/characters/").status_code == 200


def test_wrong_tokens_lock_the_address_out_like_wrong_passwords(alice):
    secret = make(alice)
    codes = [call(f"{tokens.PREFIX}guess{i}").status_code for i in range(LIMIT + 2)]
    assert codes == [401] * (LIMIT - 1) + [429] * 3
    locked = call(secret)  # the right token, from the locked-out address
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert ApiToken.objects.get().last_used_at is None  # refused before it was read
    assert call(secret, address="198.51.100.9").status_code == 200  # another address


def test_the_throttle_counts_token_calls(alice, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "user": "3/minute", "anon": "60/minute"}}
    secret = make(alice)
    codes = [call(secret).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_last_used_is_written_at_most_once_a_minute(alice, django_assert_num_queries):
    secret = make(alice)
    now = timezone.now()
    with django_assert_num_queries(2):  # the token and its user; its use noted
        assert tokens.api_token_user(secret, now=now) == alice
    with django_assert_num_queries(1):  # a second later: read only
        assert tokens.api_token_user(secret, now=now + timedelta(seconds=1)) == alice
    with django_assert_num_queries(2):
        tokens.api_token_user(secret, now=now + tokens.LAST_USED_EVERY)
    assert ApiToken.objects.get().last_used_at == now + tokens.LAST_USED_EVERY


def test_the_page_and_its_refusals_speak_french(alice):
    client = page_client(alice)
    html = client.get("/accounts/tokens/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Jetons d'API" in html and "Créer le jeton" in html
    for i in range(tokens.TOKENS_MAX):
        make(alice, f"t{i}")
    refused = client.post("/accounts/tokens/", {"name": "x"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "révoquez-en un avant d&#x27;en créer un autre" in refused.content.decode()
