import contextlib
import os
import random
import shutil

import pytest
from hypothesis import HealthCheck, settings

from tests import factories

# Property tests draw the same examples on every run (derandomize) and have no time limit: on a
# loaded 2-core CI machine Hypothesis' deadline and its "too slow" health check made them
# fail by chance, which is a flaky test. A test's own @settings still wins.
settings.register_profile("percentile", derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("percentile")

REQUIRE_SERVICES = os.environ.get("PERCENTILE_REQUIRE_SERVICES") == "1"
CHROMIUM = "/usr/bin/chromium"


def _missing(marker: str) -> str | None:
    """Why a test with ``marker`` cannot run here, or None."""
    if marker == "postgres" and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    if marker == "redis" and not os.environ.get("REDIS_URL"):
        return "needs a Redis server: set REDIS_URL=redis://..."
    if marker == "browser" and not shutil.which(CHROMIUM):
        return f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    return None


# Tests that run alone on one pytest-xdist worker (the "serial" group, with --dist loadgroup):
# those that commit (transactional, the live server, the processes of the deployment test),
# time a real server or stream, or let on_commit callbacks announce on Redis pub/sub, whose
# one channel the workers share. The rest spread over the workers.
SERIAL_MARKERS = ("browser", "deployment", "postgres", "redis")
SERIAL_FIXTURES = {"live_server", "transactional_db", "django_db_reset_sequences",
                   "django_db_serialized_rollback", "django_capture_on_commit_callbacks"}
SERIAL_DIRECTORIES = ("tests/live/", "tests/deploy/", "tests/tasks/", "tests/browser/")


def _serial(item) -> bool:
    if any(item.get_closest_marker(m) for m in SERIAL_MARKERS):
        return True
    if SERIAL_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    db = item.get_closest_marker("django_db")
    if db and (db.kwargs.get("transaction") or db.kwargs.get("serialized_rollback")):
        return True
    return item.path.relative_to(item.config.rootpath).as_posix().startswith(SERIAL_DIRECTORIES)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _serial(item):
            item.add_marker(pytest.mark.xdist_group("serial"))


def pytest_runtest_setup(item):
    for marker in ("postgres", "redis", "browser"):
        if item.get_closest_marker(marker):
            reason = _missing(marker)
            if reason and REQUIRE_SERVICES:
                pytest.fail(f"CI requires this test to run: {reason}")
            if reason:
                pytest.skip(reason)


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: LocaleMiddleware activates a request's
    language in the thread and leaves it there, so without this a French request in one test
    made the next test's labels French, depending on how xdist ordered them."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty shared cache when it lives outside the database (Redis in
    CI, process memory): the throttles' and rate limits' counters (django-ratelimit's fixed
    windows), the board versions and the encounter fragments cached by a test are not seen by
    the next one on the same worker, nor by the live server (one per worker, session-wide),
    whatever order xdist runs them in. The database cache (SQLite runs) is the test database's
    table, rolled back or flushed with it. A cache that cannot be reached is left to the test
    (the Redis-down tests)."""
    from django.core.cache import caches
    from django.core.cache.backends.db import DatabaseCache

    cache = caches["default"]
    if not isinstance(cache, DatabaseCache):
        with contextlib.suppress(Exception):  # unreachable Redis: the tests of that case decide
            cache.clear()


@pytest.fixture
def rng():
    return random.Random(1234)


@pytest.fixture
def campaign(db):
    return factories.campaign()


@pytest.fixture
def alice(db):
    return factories.user("alice")


@pytest.fixture
def bob(db):
    return factories.user("bob")


@pytest.fixture
def unchanged():
    """``with unchanged(): <refused request>`` fails unless nothing at all changed
    (tests.snapshots)."""
    from tests.snapshots import unchanged_state

    return unchanged_state


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The ASGI application served by uvicorn (tests.asgi_server), in place of pytest-django's
    WSGI live server: every journey runs on the production stack, server push included.
    pytest-django still gives each test using it a transactional database. One per session:
    django-eventstream subscribes to Redis once per process, in the first server's loop."""
    from tests.asgi_server import AsgiLiveServer

    with django_db_blocker.unblock():
        server = AsgiLiveServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _no_encounter_system_known():
    """Each test starts with no encounter's rule system known to the process
    (encounters.access.system_of): ids come back between tests (SQLite's rolled back sequences,
    reset sequences), and a system learned in one test would be another test's encounter's."""
    from encounters import access

    access.forget_systems()
    yield
