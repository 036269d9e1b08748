import os
import random
import shutil

import pytest

from tests import factories

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


def pytest_runtest_setup(item):
    for marker in ("postgres", "redis", "browser"):
        if item.get_closest_marker(marker):
            reason = _missing(marker)
            if reason and REQUIRE_SERVICES:
                pytest.fail(f"CI requires this test to run: {reason}")
            if reason:
                pytest.skip(reason)


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
