"""Issue 17, item 5: the database connection dropped mid-request answers 503 with
``Retry-After`` and a clear message (the coded JSON error under /api/, a short page elsewhere),
wherever it fails (a view, HTTP Basic, a middleware's session lookup, the session saved at the
end, under WSGI and ASGI), and a step that fails part way leaves nothing applied (its one
transaction rolled back)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends import utils
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from characters.models import Character
from tests import factories


@pytest.fixture
def anna(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5))


def _drop_the_database(monkeypatch, error=OperationalError):
    def execute(self, *args, **kwargs):
        raise error("server closed the connection unexpectedly")

    monkeypatch.setattr(utils.CursorWrapper, "execute", execute)


@pytest.mark.django_db
@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_api_answers_503_with_the_coded_error(monkeypatch, anna, alice, error):
    client = APIClient()
    client.force_authenticate(alice)
    _drop_the_database(monkeypatch, error)

    response = client.get(f"/api/characters/{anna.pk}/board/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "service_unavailable"
    assert body["params"] == {}
    assert "database" in body["detail"]


@pytest.mark.django_db
def test_the_api_detail_is_translated(monkeypatch, anna, alice):
    client = APIClient()
    client.force_authenticate(alice)
    _drop_the_database(monkeypatch)

    response = client.get(f"/api/characters/{anna.pk}/board/", HTTP_ACCEPT_LANGUAGE="fr")

    assert response.status_code == 503
    assert "base de données" in response.json()["detail"]


@pytest.mark.django_db
def test_a_page_answers_a_short_503_page(monkeypatch, anna, alice):
    client = Client()
    client.force_login(alice)
    client.get(f"/characters/{anna.pk}/")  # the session is read once, then the database goes
    _drop_the_database(monkeypatch)

    response = client.get(f"/characters/{anna.pk}/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    assert b"Service unavailable" in response.content


@pytest.mark.django_db
def test_an_ew1_move_whose_journal_write_fails_applies_nothing(monkeypatch, anna, alice):
    """The move's position, PA and XP are written before its journal entry: the entry failing
    rolls them all back."""
    import combat.services

    def record_action(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(combat.services, "record_action", record_action)
    client = APIClient()
    client.force_authenticate(alice)
    actions = ActionRecord.objects.count()

    response = client.post(f"/api/characters/{anna.pk}/move/", {"dx": 1, "dy": 0},
                           format="json")

    assert response.status_code == 503
    assert response.json()["code"] == "service_unavailable"
    character = Character.objects.select_related("ew1").get(pk=anna.pk)
    assert (character.x, character.y) == (5, 5)
    assert (character.ew1.pa, character.ew1.xp) == (Decimal("12"), 0)
    assert ActionRecord.objects.count() == actions


# --- outside the views: middleware, the session saved at the end of the request ---------------
# Django answers an exception no view caught with handler500 (config.api.server_error), which
# answers the database failing with the same 503. The test client would raise the exception
# again after the response (as it does for any 500): these tests read the response instead.

def _unavailable_page(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    assert b"Service unavailable" in response.content


def _unavailable_json(response, words: str = "database") -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert (body["code"], body["params"]) == ("service_unavailable", {})
    assert words in body["detail"]


def _session_read_by_a_middleware(settings) -> None:
    """Django's LoginRequiredMiddleware (after AuthenticationMiddleware) reads ``request.user``
    in its ``process_view``: the session and the user are looked up in a middleware."""
    at = settings.MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware")
    settings.MIDDLEWARE = [*settings.MIDDLEWARE[:at + 1],
                           "django.contrib.auth.middleware.LoginRequiredMiddleware",
                           *settings.MIDDLEWARE[at + 1:]]


@pytest.mark.django_db
@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_session_lookup_failing_in_a_middleware_answers_the_503_page(
        monkeypatch, settings, anna, alice, error):
    _session_read_by_a_middleware(settings)
    client = Client(raise_request_exception=False)
    client.force_login(alice)  # a session cookie; its lookup is what fails
    _drop_the_database(monkeypatch, error)

    _unavailable_page(client.get(f"/characters/{anna.pk}/"))


@pytest.mark.django_db
def test_a_session_lookup_failing_in_a_middleware_answers_the_coded_error(
        monkeypatch, settings, anna, alice):
    _session_read_by_a_middleware(settings)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    _drop_the_database(monkeypatch)

    response = client.get(f"/api/characters/{anna.pk}/", HTTP_ACCEPT_LANGUAGE="fr")

    _unavailable_json(response, "base de données")


@pytest.mark.django_db
def test_under_asgi_a_middleware_failure_answers_503_too(monkeypatch, settings, alice):
    """The async handler converts a middleware's exception in a worker thread: the 503 all
    the same."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    _session_read_by_a_middleware(settings)
    client = AsyncClient(raise_request_exception=False)
    client.force_login(alice)
    _drop_the_database(monkeypatch)

    _unavailable_page(async_to_sync(client.get)("/characters/"))
    _unavailable_json(async_to_sync(client.get)("/api/characters/"))


@pytest.mark.django_db
def test_the_session_saved_after_a_login_failing_answers_503(monkeypatch, alice):
    """The connection drops after the login view's last query: SessionMiddleware saves the new
    session on the way out, and that fails."""
    from allauth.account.views import LoginView  # the login page's view (accounts.urls)

    alice.set_password("a long password")
    alice.save()
    form_valid = LoginView.form_valid

    def then_drop(self, form):
        response = form_valid(self, form)
        _drop_the_database(monkeypatch)
        return response

    monkeypatch.setattr(LoginView, "form_valid", then_drop)
    client = Client(raise_request_exception=False)

    response = client.post("/accounts/login/", {"username": "alice",
                                                "password": "a long password"})

    _unavailable_page(response)


@pytest.mark.django_db
@pytest.mark.parametrize("password", ["a long password", "wrong"])
def test_an_api_request_with_basic_auth_answers_503(monkeypatch, anna, alice, password):
    """HTTP Basic looks the user up (and django-axes its failed logins): with the database
    down, the coded 503, for right and wrong credentials alike (nothing was checked)."""
    import base64

    alice.set_password("a long password")
    alice.save()
    credentials = base64.b64encode(f"alice:{password}".encode()).decode()
    client = Client(raise_request_exception=False)
    _drop_the_database(monkeypatch)

    response = client.get(f"/api/characters/{anna.pk}/",
                          HTTP_AUTHORIZATION=f"Basic {credentials}")

    _unavailable_json(response)
