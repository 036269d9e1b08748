"""Password guessing (issue 9, item 3): 30 wrong passwords on the login page or on the API's
HTTP Basic used to be answered one by one; now a username, or an address, is locked out after
LOGIN_FAILURE_LIMIT failures (django-axes), with a clear message, until the cool-off ends or a
staff member unlocks it in the admin. The password-reset form has its own rate limit."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.cache import caches
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests import factories
from tests.config.test_settings import PRODUCTION, _run

LIMIT = 5  # the default LOGIN_FAILURE_LIMIT
LOCKED_OUT_QUERIES = 4  # the attempts read, no password checked, nothing written; the form
# page (rendered before axes' middleware answers instead) lists the OAuth providers


@pytest.fixture
def alice(db):
    return factories.user("alice")


def login(username: str, password: str, address: str = "203.0.113.7", lang: str = "en"):
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=lang).post(
        "/accounts/login/", {"username": username, "password": password})


def basic(username: str, password: str, address: str = "203.0.113.7"):
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return APIClient(REMOTE_ADDR=address).get("/api/characters/",
                                              HTTP_AUTHORIZATION=f"Basic {token}")


def test_30_wrong_passwords_on_the_login_page_end_in_a_lockout(alice):
    codes = [login("alice", f"guess-{i}").status_code for i in range(30)]
    # The form answers the first LIMIT - 1; the LIMITth failure locks the account.
    assert codes == [200] * (LIMIT - 1) + [429] * (30 - LIMIT + 1)
    refused = login("alice", factories.PASSWORD)  # the right password, too late
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == 15 * 60
    html = refused.content.decode()
    assert 'data-testid="locked-out"' in html
    assert "Too many failed logins for this account or from this address" in html
    assert "Try again in 15 minutes, or ask a game master to unlock it." in html
    assert "_auth_user_id" not in refused.client.session


def test_the_lockout_is_per_user_and_per_address(alice):
    factories.user("bob")
    for i in range(LIMIT):
        login("alice", f"guess-{i}", address="203.0.113.7")
    # The same user from elsewhere: locked (per user).
    assert login("alice", factories.PASSWORD, address="198.51.100.1").status_code == 429
    # Another user from the guesser's address: locked (per address).
    assert login("bob", factories.PASSWORD, address="203.0.113.7").status_code == 429
    # Another user from another address: in.
    assert login("bob", factories.PASSWORD, address="198.51.100.2").status_code == 302


def test_an_address_guessing_many_usernames_is_locked_out(alice):
    codes = [login(f"user{i}", "guess", address="192.0.2.9").status_code for i in range(30)]
    assert codes.count(429) == 30 - LIMIT + 1
    assert login("alice", factories.PASSWORD, address="192.0.2.9").status_code == 429
    assert login("alice", factories.PASSWORD, address="192.0.2.10").status_code == 302


def test_the_message_speaks_french(alice):
    for i in range(LIMIT):
        login("alice", f"guess-{i}", lang="fr")
    html = login("alice", factories.PASSWORD, lang="fr").content.decode()
    assert "Trop d’échecs de connexion" in html and "15 minutes" in html


def test_30_wrong_passwords_on_http_basic_end_in_a_lockout(alice):
    responses = [basic("alice", f"guess-{i}") for i in range(30)]
    codes = [r.status_code for r in responses]
    assert codes == [401] * (LIMIT - 1) + [429] * (30 - LIMIT + 1)
    assert responses[0].json()["code"] == "authentication_failed"
    refused = basic("alice", factories.PASSWORD)
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "locked_out",
        "detail": "Too many failed logins for this account or from this address. Try again in "
                  "15 minutes, or ask a game master to unlock it."}
    assert refused["Retry-After"] == "900"
    # The login page shares the count: the account is locked there too.
    assert login("alice", factories.PASSWORD, address="198.51.100.3").status_code == 429


def test_a_success_before_the_limit_resets_the_count(alice):
    for i in range(LIMIT - 1):
        login("alice", f"guess-{i}")
    assert login("alice", factories.PASSWORD).status_code == 302
    for i in range(LIMIT - 1):
        assert login("alice", f"again-{i}").status_code == 200
    assert basic("alice", factories.PASSWORD).status_code == 200


def test_the_lockout_ends_after_the_cool_off(alice):
    for i in range(LIMIT):
        login("alice", f"guess-{i}")
    assert login("alice", factories.PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert login("alice", factories.PASSWORD).status_code == 302


def test_refused_tries_during_a_lockout_do_not_prolong_it(alice):
    for i in range(LIMIT):
        login("alice", f"guess-{i}")
    locked_at = AccessAttempt.objects.get().attempt_time
    for i in range(10):
        assert login("alice", f"more-{i}").status_code == 429
    assert AccessAttempt.objects.get().attempt_time == locked_at


@pytest.mark.parametrize("role", ["superuser", "staff"])
def test_staff_unlock_an_account_in_the_admin(alice, role):
    for i in range(LIMIT):
        login("alice", f"guess-{i}")
    assert login("alice", factories.PASSWORD).status_code == 429
    staff = factories.user("root", is_staff=True, is_superuser=role == "superuser")
    if role == "staff":
        from django.contrib.auth.models import Permission
        staff.user_permissions.add(*Permission.objects.filter(
            content_type__app_label="axes", codename__in=["view_accessattempt",
                                                          "delete_accessattempt"]))
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    attempt = AccessAttempt.objects.get(username="alice")
    response = admin.post("/admin/axes/accessattempt/", {
        "action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"})
    assert response.status_code == 302
    assert not AccessAttempt.objects.exists()
    assert login("alice", factories.PASSWORD).status_code == 302


def test_the_limits_come_from_the_environment():
    result = _run("import django; django.setup(); from django.conf import settings as s;"
                  "print(s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME.total_seconds(),"
                  " s.AXES_LOCKOUT_PARAMETERS, s.AXES_IPWARE_PROXY_COUNT,"
                  " s.AXES_IPWARE_META_PRECEDENCE_ORDER, s.PASSWORD_RESET_RATE)",
                  {**PRODUCTION, "LOGIN_FAILURE_LIMIT": "8", "LOGIN_LOCKOUT_MINUTES": "60",
                   "LOGIN_PROXY_COUNT": "1", "LOGIN_CLIENT_IP_HEADERS":
                       "HTTP_X_FORWARDED_FOR,REMOTE_ADDR", "PASSWORD_RESET_RATE": "3/h"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:2] == ["8", "3600.0"]
    assert ("accounts.lockout.lockout_parameters 1 ['HTTP_X_FORWARDED_FOR', 'REMOTE_ADDR'] "
            "3/h") in (
        result.stdout)


def test_a_configured_limit_applies(alice, settings):
    settings.AXES_FAILURE_LIMIT = 2
    codes = [login("alice", f"guess-{i}").status_code for i in range(4)]
    assert codes == [200, 429, 429, 429]


@pytest.fixture
def reset_page(settings, db):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "reset-rate-tests"}}
    caches["default"].clear()
    yield
    caches["default"].clear()


def reset(email: str, address: str = "203.0.113.7"):
    return Client(REMOTE_ADDR=address).post("/accounts/password/reset/", {"email": email})


def test_password_reset_requests_are_rate_limited(reset_page, alice, mailoutbox):
    codes = [reset("alice@example.invalid").status_code for _ in range(8)]
    assert codes == [302] * 5 + [429] * 3  # PASSWORD_RESET_RATE: 5/h
    assert len(mailoutbox) == 5
    # The same e-mail address from elsewhere: refused (per e-mail address).
    assert reset("alice@example.invalid", address="198.51.100.4").status_code == 429
    # Another e-mail address from the same address: refused (per address).
    assert reset("bob@example.invalid").status_code == 429
    # Someone else entirely: answered.
    assert reset("carol@example.invalid", address="198.51.100.5").status_code == 302
    html = reset("alice@example.invalid").content.decode()
    assert "Too many password reset requests" in html
    assert Client().get("/accounts/password/reset/").status_code == 200  # GET is never counted


# The first failure creates the attempt row (get_or_create: a savepoint and an insert), later
# ones update it: the count does not grow with the number of earlier failures. Django's
# backend reads the user by name, allauth's by address then by name (the login may be either:
# 3 queries), and the page lists the OAuth providers configured in the database (1).
@pytest.mark.parametrize("earlier_failures, queries", [(0, 16), (1, 14), (LIMIT - 2, 14)])
def test_query_counts_of_a_failed_login(alice, django_assert_num_queries, earlier_failures,
                                        queries):
    for i in range(earlier_failures):
        login("alice", f"guess-{i}")
    client = Client(REMOTE_ADDR="203.0.113.7")
    with django_assert_num_queries(queries):
        assert client.post("/accounts/login/", {"username": "alice", "password": "no"}
                           ).status_code == 200


def test_query_count_of_a_locked_out_login(alice, django_assert_num_queries):
    for i in range(LIMIT):
        login("alice", f"guess-{i}")
    client = Client(REMOTE_ADDR="203.0.113.7")
    with django_assert_num_queries(LOCKED_OUT_QUERIES):
        assert client.post("/accounts/login/", {"username": "alice",
                                                "password": factories.PASSWORD}
                           ).status_code == 429
