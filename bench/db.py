"""The throwaway database: Django's test-database machinery with a fixed name."""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

# Unique to the run: two benches (or a bench and a crashed one's leftovers) never share it.
BENCH_DB_NAME = f"percentile_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"


def configure_environment() -> None:
    """Environment for ``django.setup()``: test settings (no HTTPS redirect, fast hashing), no
    Redis (the cache lives in the throwaway database), Celery tasks run in-process."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.pop("REDIS_URL", None)


@contextlib.contextmanager
def throwaway_database():
    """Create and migrate the bench database, point the default connection at it, drop it on
    exit. Yields a label such as ``postgresql percentile_bench_123_0abc1234``."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings_dict = connection.settings_dict
    if connection.vendor == "sqlite":
        folder = Path(settings.BASE_DIR) / "var" / "bench"
        folder.mkdir(parents=True, exist_ok=True)
        name = str(folder / f"{BENCH_DB_NAME}.sqlite3")
    else:
        name = BENCH_DB_NAME
    if settings_dict["NAME"] == name:
        raise SystemExit(f"DATABASE_URL already names {name!r}; point it at another database.")
    settings_dict.setdefault("TEST", {})["NAME"] = name
    old_name = settings_dict["NAME"]
    setup_test_environment()  # the test Client's host, and responses carry their context
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield f"{connection.vendor} {name}"
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
