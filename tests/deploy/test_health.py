"""``/healthz`` (issue 9, item 9): JSON, 200 when the database and Redis answer, 503 when
either does not; anonymous, and never redirected to HTTPS (load balancers poll over HTTP)."""

import os

import pytest
from django.db.utils import OperationalError
from django.test import override_settings

CLOSED_PORT = "redis://127.0.0.1:8189/0"  # in this branch's port range, nothing listens there


@pytest.mark.django_db
@override_settings(REDIS_URL="")
def test_healthy_without_redis_configured(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok",
                               "checks": {"database": "ok", "redis": "not configured"}}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
@override_settings(REDIS_URL=CLOSED_PORT)
def test_unreachable_redis_answers_503(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"] == "ConnectionError"


@pytest.mark.django_db
@override_settings(REDIS_URL="")
def test_unreachable_database_answers_503(client, monkeypatch):
    from django.db import connection

    def broken(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "OperationalError",
                                         "redis": "not configured"}


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True)
def test_not_redirected_to_https(client):
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/accounts/login/").status_code == 301  # everything else is


@pytest.mark.redis
@pytest.mark.django_db
def test_healthy_with_redis(client):
    with override_settings(REDIS_URL=os.environ["REDIS_URL"]):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}
