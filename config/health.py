"""``/healthz``: what a load balancer polls. JSON, 200 when the database and Redis answer, 503
otherwise; no login, no session, no cookie, a second's timeout on each check.

Shape: ``{"status": "ok" | "unavailable", "checks": {"database": "ok" | "<error class>",
"redis": "ok" | "not configured" | "<error class>"}}``. Redis counts only when ``REDIS_URL`` is
set (the embedded default runs without it).
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

TIMEOUT_S = 1.0


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is "unavailable", named by its class
        return type(exc).__name__
    return "ok"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=TIMEOUT_S,
                                      socket_connect_timeout=TIMEOUT_S)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return type(exc).__name__
    return "ok"


@never_cache
@require_GET
def healthz(request):
    checks = {"database": _database(), "redis": _redis()}
    healthy = all(v in ("ok", "not configured") for v in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", "checks": checks},
                        status=200 if healthy else 503)
