"""The API's throttles hold under concurrency (issue 9, item 4): with DRF's read-then-write
counter, 8 threads let 692 calls through a 600/minute limit; config.throttling counts atomically
in Redis, so exactly the limit passes whatever the number of threads."""

from __future__ import annotations

import os
import threading
import time
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.core.management import call_command
from rest_framework.test import APIClient

from config import throttling
from tests import factories
from tests.concurrency import run_together

THREADS = 8


@pytest.fixture
def frozen_window(monkeypatch):
    """django-ratelimit's clock stopped, so that no run straddles the edge of a window."""
    from django_ratelimit import core
    now = int(time.time())
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def redis_cache(settings):
    """The default cache on the Redis of REDIS_URL, under a prefix of this test's own."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": os.environ["REDIS_URL"],
                                   "KEY_PREFIX": f"test-throttle-{uuid.uuid4().hex}"}}
    yield caches["default"]
    caches["default"].clear()


def _hammer(check, calls_per_thread: int) -> int:
    """Run ``check()`` ``calls_per_thread`` times in each of THREADS threads released together;
    return how many answered True."""
    barrier = threading.Barrier(THREADS)
    passed = []

    def worker():
        barrier.wait()
        passed.append(sum(1 for _ in range(calls_per_thread) if check()))

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sum(passed)


@pytest.mark.redis
@pytest.mark.parametrize("limit", [1, 100, 600])
def test_the_user_throttle_lets_exactly_its_rate_through_8_threads(redis_cache, frozen_window,
                                                                   limit):
    class Throttle(throttling.UserRateThrottle):
        rate = f"{limit}/minute"

    user = SimpleNamespace(pk=42, is_authenticated=True)
    request = SimpleNamespace(user=user, method="GET", META={"REMOTE_ADDR": "127.0.0.1"})
    passed = _hammer(lambda: Throttle().allow_request(request, None),
                     calls_per_thread=limit // THREADS + 25)
    assert passed == limit


@pytest.mark.redis
def test_the_anonymous_throttle_counts_per_address_under_threads(redis_cache, frozen_window):
    class Throttle(throttling.AnonRateThrottle):
        rate = "50/minute"

    anonymous = SimpleNamespace(pk=None, is_authenticated=False)

    def from_address(address):
        request = SimpleNamespace(user=anonymous, method="GET", headers={},
                                  META={"REMOTE_ADDR": address})
        return lambda: Throttle().allow_request(request, None)

    assert _hammer(from_address("10.0.0.1"), calls_per_thread=20) == 50
    assert _hammer(from_address("10.0.0.2"), calls_per_thread=20) == 50


@pytest.mark.redis
def test_over_http_8_threads_get_exactly_the_rate_and_429s_after(transactional_db, settings,
                                                                  redis_cache, frozen_window):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "user": "30/minute", "anon": "60/minute"}}
    player = factories.user("hammer")

    def calls():
        client = APIClient()
        client.force_authenticate(player)
        return [client.get("/api/campaigns/") for _ in range(10)]

    responses = [r for batch in run_together(*[calls] * THREADS) for r in batch]
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] * 30 + [429] * (THREADS * 10 - 30)
    refused = next(r for r in responses if r.status_code == 429)
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) >= 1


def test_the_embedded_default_still_throttles_without_redis(db, settings, frozen_window):
    """The database cache (no REDIS_URL) keeps counting: the 6th call in the window is a 429."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                                   "LOCATION": "percentile_cache"}}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "user": "5/minute", "anon": "2/minute"}}
    call_command("createcachetable")  # absent when the run's cache is Redis
    caches["default"].clear()
    client = APIClient()
    client.force_authenticate(factories.user("steady"))
    codes = [client.get("/api/campaigns/").status_code for _ in range(7)]
    assert codes == [200] * 5 + [429] * 2
    caches["default"].clear()


CHILD = """
import os, sys, threading, time, types
import django
django.setup()
import django_ratelimit.core as core
from config import throttling

core.time = types.SimpleNamespace(time=lambda: {now})  # the parent's frozen window

class Throttle(throttling.UserRateThrottle):
    rate = "{limit}/minute"

request = types.SimpleNamespace(user=types.SimpleNamespace(pk={pk}, is_authenticated=True),
                                method="GET", META={{}})
counts = []

def hammer():
    counts.append(sum(1 for _ in range({calls}) if Throttle().allow_request(request, None)))

threads = [threading.Thread(target=hammer) for _ in range(4)]
time.sleep(max(0, {start} - time.time()))  # every process starts together
for t in threads: t.start()
for t in threads: t.join()
print(sum(counts))
"""


@pytest.mark.redis
def test_processes_share_the_count(tmp_path):
    """Three processes of four threads each, on the same Redis: exactly the limit in all."""
    import subprocess
    import sys
    from pathlib import Path

    limit, processes = 90, 3
    code = CHILD.format(now=int(time.time()), limit=limit, pk=uuid.uuid4().int % 10 ** 12,
                        calls=limit // 4, start=time.time() + 20)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    children = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                                 cwd=Path(__file__).resolve().parents[2],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for _ in range(processes)]
    outputs = [child.communicate(timeout=120) for child in children]
    assert all(child.returncode == 0 for child in children), outputs
    passed = [int(out.strip().splitlines()[-1]) for out, _ in outputs]
    assert sum(passed) == limit
