"""Every API error is JSON ``{code, detail}``, 500s and unknown URLs included (issue 8, item
1), never Django's HTML page."""

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests import factories


@pytest.fixture
def api(db):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(factories.user("reader"))
    return client


def test_a_crash_in_an_endpoint_answers_json_500(api, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("characters.api.characters_of", broken)
    response = api.get("/api/characters/")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error" and response.json()["detail"]
    assert "boom" not in response.content.decode()  # no internals shown
    assert "RuntimeError: boom" in caplog.text  # but logged, with the traceback


@pytest.mark.parametrize("debug", [False, True])
def test_a_crash_answers_json_with_debug_on_too(api, monkeypatch, settings, debug):
    settings.DEBUG = debug
    monkeypatch.setattr("characters.api.characters_of", lambda *a, **kw: 1 / 0)
    response = api.get("/api/characters/")
    assert response.status_code == 500 and response.json()["code"] == "server_error"


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_url_answers_json_404(api, settings, debug):
    """With DEBUG on (``make run``) too, where Django draws its debug page instead of calling
    handler404 (issue 19, item 6)."""
    settings.DEBUG = debug
    for url in ("/api/no-such-endpoint/", "/api/characters/-1/", "/api/campaigns/1.5/x/"):
        response = api.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"code": "not_found", "detail": "No such endpoint."}
    french = api.get("/api/no-such-endpoint/", HTTP_ACCEPT_LANGUAGE="fr").json()["detail"]
    assert french == "Ce point d'accès n'existe pas."
    # A missing slash still redirects to the endpoint; a view's own 404 keeps its code.
    assert api.get("/api/campaigns").status_code == 301
    assert api.get("/api/characters/999999/").json()["detail"] == "No such character."


def test_a_crash_outside_the_views_answers_json_under_api_only(db, monkeypatch):
    class Boom:
        def __init__(self, get_response):
            pass

        def __call__(self, request):
            raise RuntimeError("middleware")

    import sys
    module = type(sys)("tests_boom_middleware")
    module.Boom = Boom
    monkeypatch.setitem(sys.modules, "tests_boom_middleware", module)
    from django.conf import settings
    with override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, "tests_boom_middleware.Boom"]):
        client = APIClient(raise_request_exception=False)
        api, page = client.get("/api/campaigns/"), client.get("/accounts/login/")
    assert api.status_code == 500 and api.json()["code"] == "server_error"
    assert page.status_code == 500 and "html" in page["Content-Type"]
