"""Accounts through django-allauth (issue 22, item 2): signup with an e-mail address and its
confirmation, login by username or e-mail, password change and reset, e-mail change, the
account's deletion (what it does to characters and campaigns), the lockout on every way in,
and the Discord login against a fake Discord on loopback."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import requests
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from allauth.socialaccount.providers.discord.views import DiscordOAuth2Adapter
from django.contrib.auth import get_user_model
from django.test import Client

from tests import factories

LIMIT = 5  # the default LOGIN_FAILURE_LIMIT
NEW_PASSWORD = "a-fresh-password-77"
User = get_user_model()


@pytest.fixture
def alice(db):
    return factories.user("alice")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def link_in(mail, path: str) -> str:
    return re.search(rf"https?://[^/\s]+({re.escape(path)}\S+/)", mail.body).group(1)


def login(login: str, password: str, address: str = "203.0.113.7"):
    return Client(REMOTE_ADDR=address).post("/accounts/login/",
                                            {"username": login, "password": password})


# Signup and the address's confirmation -----------------------------------------------------

def signup(client: Client, username: str = "carol", email: str = "carol@example.invalid"):
    return client.post("/accounts/signup/", {
        "username": username, "email": email, "password1": "a-long-test-password-42",
        "password2": "a-long-test-password-42"})


def test_signup_asks_for_an_e_mail_address(client, db):
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="email"' in page and 'name="username"' in page
    response = client.post("/accounts/signup/", {
        "username": "carol", "password1": "a-long-test-password-42",
        "password2": "a-long-test-password-42"})
    assert response.status_code == 200 and not User.objects.filter(username="carol").exists()


def test_signup_mails_a_link_that_confirms_the_address(client, db, mailoutbox):
    response = signup(client)
    assert response.status_code == 302  # optional verification (the default): logged in
    carol = User.objects.get(username="carol")
    assert carol.email == "carol@example.invalid"
    address = EmailAddress.objects.get(user=carol)
    assert (address.email, address.verified, address.primary) == (carol.email, False, True)
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [carol.email]
    link = link_in(mailoutbox[0], "/accounts/confirm-email/")
    page = client.get(link)  # a page with a button: a mail scanner's GET confirms nothing
    assert page.status_code == 200 and not EmailAddress.objects.get(user=carol).verified
    assert client.post(link).status_code == 302
    assert EmailAddress.objects.get(user=carol).verified


def test_an_address_taken_already_makes_no_second_account(client, alice, mailoutbox):
    response = signup(client, email=alice.email.upper())
    assert not User.objects.filter(username="carol").exists() or not EmailAddress.objects.filter(
        user__username="carol", email__iexact=alice.email).exists()
    assert response.status_code in (200, 302)


def test_mandatory_verification_keeps_an_unconfirmed_account_out(client, db, settings,
                                                                 mailoutbox):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = signup(client)
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session
    refused = login("carol", "a-long-test-password-42")
    assert "_auth_user_id" not in refused.client.session  # a new mail sent, no session
    link = link_in(mailoutbox[0], "/accounts/confirm-email/")
    assert Client().post(link).status_code == 302
    assert login("carol", "a-long-test-password-42").status_code == 302


def test_the_demo_users_log_in_under_mandatory_verification(db, settings):
    from config.demo import DEMO_PASSWORD, demo_emails_verified
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    gm = factories.user("gm")
    demo_emails_verified([gm])
    demo_emails_verified([gm])  # twice: nothing more
    assert EmailAddress.objects.filter(user=gm, verified=True, primary=True).count() == 1
    gm.set_password(DEMO_PASSWORD)
    gm.save()
    response = login("gm", DEMO_PASSWORD)
    assert response.status_code == 302 and "_auth_user_id" in response.client.session


# Login ---------------------------------------------------------------------------------------

def test_one_logs_in_with_the_username_or_the_e_mail_address(alice):
    for name in ("alice", "alice@example.invalid", "Alice@Example.invalid"):
        response = login(name, factories.PASSWORD)
        assert response.status_code == 302, name
        assert response.client.session["_auth_user_id"] == str(alice.pk)


def test_the_login_page_is_the_sites_in_both_languages(client, db):
    html = client.get("/accounts/login/").content.decode()
    assert "<h1>Log in</h1>" in html and 'name="username"' in html
    assert "Username or e-mail address" in html and 'data-testid="forgotten"' in html
    assert 'class="topbar"' in html  # base.html's
    french = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<h1>Se connecter</h1>" in french and "Nom d’utilisateur ou adresse e-mail" in french


def test_logout_takes_a_post_and_leads_to_the_login_page(alice):
    client = logged_in(alice)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert "_auth_user_id" not in client.session


# Password change and reset -------------------------------------------------------------------

def test_a_password_is_changed_with_the_old_one(alice):
    client = logged_in(alice)
    assert client.get("/accounts/password/change/").status_code == 200
    wrong = client.post("/accounts/password/change/", {
        "oldpassword": "not-it", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert wrong.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(factories.PASSWORD)
    done = client.post("/accounts/password/change/", {
        "oldpassword": factories.PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert client.get("/accounts/email/").status_code == 200  # still logged in


def test_a_password_is_reset_through_a_mailed_link(client, alice, mailoutbox):
    sent = client.post("/accounts/password/reset/", {"email": "ALICE@example.invalid"})
    assert sent.status_code == 302 and sent["Location"] == "/accounts/password/reset/done/"
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [alice.email]
    link = link_in(mailoutbox[0], "/accounts/password/reset/key/")
    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'data-testid="set-password"' in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD,
                                                   "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert 'data-testid="reset-complete"' in client.get(done["Location"]).content.decode()
    assert login("alice", NEW_PASSWORD).status_code == 302
    # The link served once.
    assert 'data-testid="bad-link"' in Client().get(link, follow=True).content.decode()


# E-mail change ---------------------------------------------------------------------------------

def test_an_address_is_changed_once_the_new_one_is_confirmed(alice, mailoutbox):
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    client = logged_in(alice)
    page = client.get("/accounts/email/").content.decode()
    assert alice.email in page and 'data-testid="account-nav"' in page
    response = client.post("/accounts/email/", {"action_add": "",
                                                "email": "alice.new@example.invalid"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.invalid"  # not before the new one is confirmed
    pending = client.get("/accounts/email/").content.decode()
    assert "alice.new@example.invalid" in pending and 'style="' not in pending  # the CSP
    assert mailoutbox[-1].to == ["alice.new@example.invalid"]
    assert client.post(link_in(mailoutbox[-1], "/accounts/confirm-email/")).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice.new@example.invalid"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", "primary")) == [
        ("alice.new@example.invalid", True)]
    assert login("alice.new@example.invalid", factories.PASSWORD).status_code == 302


# Deletion ---------------------------------------------------------------------------------------

@pytest.fixture
def played(alice):
    """alice plays a character in a campaign that bob runs."""
    bob = factories.user("bob")
    campaign = factories.campaign(name="Deep Roads")
    campaign.game_master = bob
    campaign.save(update_fields=["game_master"])
    character = factories.CharacterFactory(campaign=campaign, owner=alice, name="Aline")
    return campaign, character, bob


def test_the_deletion_page_says_what_it_does(alice, played):
    html = logged_in(alice).get("/accounts/delete/").content.decode()
    assert 'data-testid="delete-what"' in html and "Aline (Deep Roads)" in html
    assert "Your characters stay in their campaigns, without a player" in html
    french = logged_in(alice).get("/accounts/delete/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Supprimer mon compte" in french.content.decode()


def test_a_deleted_account_leaves_its_characters_in_their_campaign(alice, played):
    _campaign, character, _bob = played
    client = logged_in(alice)
    wrong = client.post("/accounts/delete/", {"password": "not-it"})
    assert wrong.status_code == 400 and User.objects.filter(pk=alice.pk).exists()
    done = client.post("/accounts/delete/", {"password": factories.PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/accounts/login/"
    assert not User.objects.filter(username="alice").exists()
    character.refresh_from_db()
    assert character.owner is None and character.campaign.name == "Deep Roads"
    assert "_auth_user_id" not in client.session
    page = client.get("/accounts/login/").content.decode()
    assert "Your account is deleted. Its character stays in its campaign" in page


def test_a_game_master_cannot_delete_their_account(played):
    campaign, _character, bob = played
    client = logged_in(bob)
    html = client.get("/accounts/delete/").content.decode()
    assert 'data-testid="delete-refused"' in html and "Deep Roads" in html
    refused = client.post("/accounts/delete/", {"password": factories.PASSWORD})
    assert refused.status_code == 409 and User.objects.filter(pk=bob.pk).exists()
    campaign.refresh_from_db()
    assert campaign.game_master_id == bob.pk


def test_a_co_game_master_cannot_delete_their_account(alice, played):
    from campaigns.models import CampaignMaster
    campaign, _character, _bob = played
    CampaignMaster.objects.create(campaign=campaign, user=alice)
    from accounts.deletion import AccountDeleteRefused, account_delete
    with pytest.raises(AccountDeleteRefused) as refused:
        account_delete(user=alice)
    assert refused.value.code == "account_masters_campaigns"
    assert refused.value.params == {"campaigns": "Deep Roads"}
    assert User.objects.filter(pk=alice.pk).exists()


def test_wrong_deletion_passwords_lock_the_account_out(alice):
    client = Client(REMOTE_ADDR="203.0.113.7")
    client.force_login(alice)
    codes = [client.post("/accounts/delete/", {"password": f"guess-{i}"}).status_code
             for i in range(LIMIT + 1)]
    assert codes == [400] * (LIMIT - 1) + [429] * 2
    assert client.post("/accounts/delete/", {"password": factories.PASSWORD}).status_code == 429
    assert User.objects.filter(pk=alice.pk).exists()


# The lockout on the allauth login -------------------------------------------------------------

def test_wrong_passwords_by_e_mail_lock_out_the_account(alice):
    codes = [login("alice@example.invalid", f"guess-{i}").status_code for i in range(LIMIT + 2)]
    assert codes == [200] * (LIMIT - 1) + [429] * 3
    refused = login("alice", factories.PASSWORD, address="198.51.100.1")  # per user
    assert refused.status_code == 429 and 'data-testid="locked-out"' in refused.content.decode()
    assert "_auth_user_id" not in refused.client.session


def test_the_name_and_the_address_of_an_account_add_up(alice):
    for i in range(LIMIT - 2):
        assert login("alice", f"guess-{i}").status_code == 200
    assert login("ALICE@example.invalid", "guess").status_code == 200
    assert login("alice@example.invalid", "guess", address="198.51.100.9").status_code == 429
    from axes.models import AccessAttempt
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"alice"}


def test_an_unknown_address_counts_under_itself(alice):
    for i in range(LIMIT):
        login("nobody@example.invalid", f"guess-{i}", address="198.51.100.10")
    assert login("alice", factories.PASSWORD, address="198.51.100.11").status_code == 302


# Discord, against a fake Discord on loopback -----------------------------------------------------

DISCORD_USER = {"id": "80351110224678912", "username": "nelly", "global_name": "Nelly",
                "discriminator": "0", "avatar": None, "email": "nelly@example.invalid",
                "verified": True}


class FakeDiscord(BaseHTTPRequestHandler):
    """Discord's three OAuth endpoints as allauth's provider calls them: the authorization
    page (answers at once with a code for the redirect URL), the token exchange (checks the
    client's id, secret and the code) and users/@me (checks the bearer token)."""

    code, token = "fake-code", "fake-access-token"
    user = DISCORD_USER
    seen: ClassVar[list[str]] = []

    def log_message(self, *args):
        pass

    def _json(self, status: int, body: dict):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        self.seen.append(f"GET {url.path}")
        if url.path == "/api/oauth2/authorize":
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            assert query["client_id"] == "fake-client-id" and query["response_type"] == "code"
            assert set(query["scope"].split()) == {"identify", "email"}
            self.send_response(302)
            self.send_header("Location", query["redirect_uri"] + "?" + urlencode(
                {"code": self.code, "state": query["state"]}))
            self.end_headers()
        elif url.path == "/api/users/@me":
            if self.headers.get("Authorization") != f"Bearer {self.token}":
                return self._json(401, {"message": "401: Unauthorized"})
            self._json(200, self.user)
        else:
            self._json(404, {"message": "Not found"})

    def do_POST(self):
        self.seen.append(f"POST {self.path}")
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        if self.path != "/api/oauth2/token" or form.get("code") != self.code or (
                form.get("client_id"), form.get("client_secret")) != ("fake-client-id",
                                                                      "fake-client-secret"):
            return self._json(400, {"error": "invalid_grant"})
        self._json(200, {"access_token": self.token, "token_type": "Bearer",
                         "expires_in": 604800, "scope": "identify email"})


@pytest.fixture
def fake_discord(db, settings, monkeypatch):
    """A fake Discord on a free loopback port, and the provider configured with its client id
    and secret (as DISCORD_OAUTH_CLIENT_ID and DISCORD_OAUTH_SECRET would) and pointed at it:
    allauth's Discord adapter names its three URLs as class attributes, which the test
    replaces (production code has no setting that moves them)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}/api"
    monkeypatch.setattr(DiscordOAuth2Adapter, "authorize_url", f"{base}/oauth2/authorize")
    monkeypatch.setattr(DiscordOAuth2Adapter, "access_token_url", f"{base}/oauth2/token")
    monkeypatch.setattr(DiscordOAuth2Adapter, "profile_url", f"{base}/users/@me")
    settings.SOCIALACCOUNT_PROVIDERS = {"discord": {
        "SCOPE": ["identify", "email"],
        "APPS": [{"client_id": "fake-client-id", "secret": "fake-client-secret"}]}}
    FakeDiscord.seen = []
    yield FakeDiscord
    server.shutdown()
    server.server_close()


def discord_login(client: Client):
    """The browser's way: the login page's Discord link, its confirmation form (POST), the
    redirect to Discord's authorization page, Discord's redirect back with a code."""
    page = client.get("/accounts/login/").content.decode()
    href = re.search(r'href="(/accounts/discord/login/[^"]*)"', page).group(1).replace("&amp;", "&")
    confirm = client.get(href)
    assert confirm.status_code == 200
    assert "https://discord.com" in confirm["Content-Security-Policy"]  # its form-action
    to_discord = client.post(href)
    assert to_discord.status_code == 302
    back = requests.get(to_discord["Location"], allow_redirects=False, timeout=5)
    assert back.status_code == 302
    callback = urlparse(back.headers["Location"])
    assert callback.path == "/accounts/discord/login/callback/"
    return client.get(f"{callback.path}?{callback.query}")


def test_without_its_settings_discord_shows_no_button_and_is_not_found(client, db, settings):
    assert settings.SOCIALACCOUNT_PROVIDERS["discord"]["APPS"] == []
    assert "/accounts/discord/login/" not in client.get("/accounts/login/").content.decode()
    assert client.get("/accounts/discord/login/").status_code == 404
    assert client.get("/accounts/discord/login/callback/?code=x&state=y").status_code == 404


def test_a_discord_login_makes_an_account_with_its_verified_address(client, fake_discord):
    response = discord_login(client)
    assert response.status_code == 302, response.content[:500]
    nelly = User.objects.get(email="nelly@example.invalid")
    assert client.session["_auth_user_id"] == str(nelly.pk)
    assert SocialAccount.objects.get(user=nelly).uid == DISCORD_USER["id"]
    assert EmailAddress.objects.get(user=nelly).verified
    assert not nelly.has_usable_password()
    assert fake_discord.seen == ["GET /api/oauth2/authorize", "POST /api/oauth2/token",
                                 "GET /api/users/@me"]
    # Again: the same account.
    again = Client()
    assert discord_login(again).status_code == 302
    assert again.session["_auth_user_id"] == str(nelly.pk) and User.objects.count() == 1


def test_a_discord_account_deletes_itself_with_its_username(client, fake_discord):
    discord_login(client)
    nelly = User.objects.get(email="nelly@example.invalid")
    html = client.get("/accounts/delete/").content.decode()
    assert 'name="username"' in html and 'name="password"' not in html
    assert client.post("/accounts/delete/", {"username": "someone"}).status_code == 400
    assert client.post("/accounts/delete/", {"username": nelly.username}).status_code == 302
    assert not User.objects.exists() and not SocialAccount.objects.exists()


def test_a_locked_out_account_cannot_log_in_through_discord(fake_discord):
    discord_login(Client())
    nelly = User.objects.get(email="nelly@example.invalid")
    nelly.set_password(factories.PASSWORD)
    nelly.save()
    for i in range(LIMIT):
        login(nelly.username, f"guess-{i}", address="198.51.100.20")
    refused = discord_login(Client(REMOTE_ADDR="198.51.100.21"))  # another address: per user
    assert refused.status_code == 429 and 'data-testid="locked-out"' in refused.content.decode()
    assert "_auth_user_id" not in refused.client.session


def test_signups_are_rate_limited_per_address(db, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "3/m/ip"}
    codes = [signup(Client(REMOTE_ADDR="203.0.113.30"), f"new{i}", f"new{i}@example.invalid")
             .status_code for i in range(4)]
    assert codes == [302, 302, 302, 429]
    assert not User.objects.filter(username="new3").exists()
    assert signup(Client(REMOTE_ADDR="203.0.113.31"), "new4",
                  "new4@example.invalid").status_code == 302


@pytest.mark.parametrize("characters", [1, 6])
def test_query_counts_of_the_deletion(alice, played, django_assert_num_queries, characters):
    campaign, _character, _bob = played
    for i in range(characters - 1):
        factories.CharacterFactory(campaign=campaign, owner=alice, name=f"Extra {i}")
    client = logged_in(alice)
    # The session, the user, the campaigns mastered, the characters.
    with django_assert_num_queries(4):
        assert client.get("/accounts/delete/").status_code == 200
    # The password through authenticate (axes' two counts, the user), the row locked, the
    # campaigns mastered, the characters kept (one UPDATE), the drafts, then Django's collector
    # over every table naming the user (a statement per table, not per row), axes' logout
    # record and the session: the same for 1 character or 6.
    # (40 since the memberships, invitations, requests and notifications name the user too.)
    with django_assert_num_queries(40):
        assert client.post("/accounts/delete/", {"password": factories.PASSWORD}
                           ).status_code == 302
