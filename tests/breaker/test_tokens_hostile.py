"""Personal API tokens under a hostile user (accounts.tokens): a forged form on the tokens page
(no CSRF token), another's token revoked by id, a token that reads another campaign, a token
of a deactivated user, a token after its revocation. Each is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken
from chat import services
from chat.models import Message
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "breaker-tokens"}}
    caches["default"].clear()


def _with(secret: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {secret}", REMOTE_ADDR="203.0.113.9")


def test_the_tokens_page_refuses_a_forged_form(db):
    alice = factories.user("alice")
    token, _secret = tokens.api_token_create(user=alice, name="bot")
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(alice)
    assert forged.post("/accounts/tokens/", {"name": "evil"}).status_code == 403
    assert forged.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 403
    assert forged.get(f"/accounts/tokens/{token.pk}/revoke/").status_code == 405
    assert list(ApiToken.objects.values_list("name", "revoked_at")) == [("bot", None)]


def test_another_users_token_stays_live_and_a_token_makes_no_token(db):
    alice, bob = factories.user("alice"), factories.user("bob")
    theirs, secret = tokens.api_token_create(user=bob, name="bob's")
    page = Client()
    page.force_login(alice)
    for token_id in (theirs.pk, 0, 2**40):
        assert page.post(f"/accounts/tokens/{token_id}/revoke/").status_code == 404
    # a token opens the API, not the pages (no session is made of it)
    assert _with(secret).post("/accounts/tokens/", {"name": "more"}).status_code == 302
    assert list(ApiToken.objects.values_list("name", "revoked_at")) == [("bob's", None)]


def test_a_token_reads_only_its_users_campaigns(db):
    gm, alice = factories.user("gm"), factories.user("alice")
    campaign = factories.HomebrewCampaignFactory(game_master=gm)
    factories.CharacterFactory(campaign=campaign, owner=gm)
    services.message_post(user=gm, text="gm only", campaign_id=campaign.pk)
    _token, secret = tokens.api_token_create(user=alice, name="bot")
    api = _with(secret)
    for url in (f"/api/campaigns/{campaign.pk}/chat/", f"/api/campaigns/{campaign.pk}/journal/"):
        assert api.get(url).status_code == 404, url
    assert api.post(f"/api/campaigns/{campaign.pk}/chat/", {"text": "hi"},
                    format="json").status_code == 404
    assert Message.objects.count() == 1


def test_a_revoked_token_and_a_deactivated_users_token_are_401(db):
    alice = factories.user("alice")
    revoked, secret = tokens.api_token_create(user=alice, name="old")
    assert _with(secret).get("/api/characters/").status_code == 200
    tokens.api_token_revoke(user=alice, token_id=revoked.pk)
    assert _with(secret).get("/api/characters/").status_code == 401
    _token, live = tokens.api_token_create(user=alice, name="new")
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert _with(live).get("/api/characters/").status_code == 401
