"""API throttles that hold under concurrency, across threads, processes and machines.

DRF's own throttles read a list of timestamps from the cache and write it back: two requests at
the same moment both read the old list, so 8 threads let 692 calls through a 600/minute limit.
These count with django-ratelimit instead: one ``cache.add`` (SET NX) and one ``cache.incr``
(INCR) per request, both atomic in Redis, in a fixed window per user or address (django-ratelimit's
minute, with its per-key offset). Without Redis (the embedded default) the database cache keeps
the same count across processes, only without the atomicity.

Rates are DRF's (``DEFAULT_THROTTLE_RATES``: ``API_USER_RATE``, ``API_ANON_RATE``), read when a
request comes, as "600/minute" or django-ratelimit's "600/m". A refused call is DRF's 429 with
``Retry-After`` (the seconds left in the window). With the cache unreachable (Redis down) the
throttles fail open: the call is let through and a warning is logged (docs/deploy.md)."""

from __future__ import annotations

import logging

from django_ratelimit.core import get_usage
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle


logger = logging.getLogger(__name__)


class AtomicRateThrottle(BaseThrottle):
    """Count each request of one key (``key_for``) in the cache; refuse past the scope's rate."""

    scope: str = ""
    rate: str | None = None  # None: DEFAULT_THROTTLE_RATES[scope]

    def key_for(self, request) -> str | None:
        """Who is counted (None: this throttle does not apply)."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        self.seconds_left = None
        key = self.key_for(request)
        rate = self.rate or api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if key is None or rate is None:
            return True
        try:
            usage = get_usage(request, group=f"api.throttle.{self.scope}",
                              key=lambda group, request: key, rate=rate, increment=True)
        except Exception as exc:  # the cache (Redis) is down: fail open, the call goes through
            logger.warning("API throttle %s not counted, cache unavailable: %s", self.scope,
                           type(exc).__name__)
            return True
        if usage is None:  # RATELIMIT_ENABLE = False
            return True
        self.seconds_left = max(1, usage["time_left"])
        return not usage["should_limit"]

    def wait(self) -> float | None:
        return self.seconds_left


class UserRateThrottle(AtomicRateThrottle):
    """Authenticated calls, per user (``API_USER_RATE``, default 600/minute)."""

    scope = "user"

    def key_for(self, request) -> str | None:
        user = request.user
        return f"user:{user.pk}" if user and user.is_authenticated else None


class AnonRateThrottle(AtomicRateThrottle):
    """Anonymous calls, per address (``API_ANON_RATE``, default 60/minute): DRF's ``get_ident``
    (``REMOTE_ADDR``, or ``X-Forwarded-For`` with DRF's ``NUM_PROXIES``)."""

    scope = "anon"

    def key_for(self, request) -> str | None:
        user = request.user
        return None if user and user.is_authenticated else f"ip:{self.get_ident(request)}"
