"""Issue 17, item 5: with the cache's Redis unreachable the API keeps answering (the throttles
fail open with a warning) and /healthz reports Redis down."""

from __future__ import annotations

import logging

from django.core.cache import caches
from rest_framework.test import APIClient

CLOSED = "redis://127.0.0.1:1/4"  # nothing listens on port 1


def test_api_answers_with_redis_down_and_logs_it(db, alice, settings, caplog):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": CLOSED}}
    caches["default"].close()
    client = APIClient()
    client.force_login(alice)
    with caplog.at_level(logging.WARNING, logger="config.throttling"):
        response = client.get("/api/characters/")
    assert response.status_code == 200, response.content
    assert "cache unavailable" in caplog.text


def test_healthz_reports_redis_down(db, settings):
    settings.REDIS_URL = CLOSED
    response = APIClient().get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] != "ok"
