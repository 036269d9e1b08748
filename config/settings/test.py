"""Test settings: the base settings with fast hashing and no HTTPS redirects. DATABASE_URL and
REDIS_URL still come from the environment (CI points them at PostgreSQL and Redis)."""

import importlib
import os
import re

# Under pytest-xdist (make test) each worker has its own test database (pytest-django adds the
# worker's id to its name) and here its own Redis database: the cache, the throttles' counters
# and a test's Celery broker are not shared between workers. Set before the base settings read
# it, and in the environment, so that the processes a test starts use the same one.
# The processes inherit the worker's id too: the shift is computed from the URL as first given
# (kept in PERCENTILE_TEST_REDIS_URL), so that it is applied once.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _given = os.environ.setdefault("PERCENTILE_TEST_REDIS_URL", os.environ["REDIS_URL"])
    _url = re.match(r"^(redis://[^/]*)(?:/(\d+))?$", _given)
    if _url:
        _db = (int(_url.group(2) or 0) + int(_worker[2:])) % 16
        os.environ["REDIS_URL"] = f"{_url.group(1)}/{_db}"
        # Importing this module imported the package, and with it the base settings, first.
        from . import base as _base, celery as _celery
        importlib.reload(_base)
        importlib.reload(_celery)

from .base import *  # noqa: E402, F403
from .celery import *  # noqa: E402, F403

DEBUG = False
# Not a published key, so start-up accepts it with DEBUG off (config.secrets).
SECRET_KEY = "test-settings-only-" + "k" * 40
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LANGUAGE_CODE = "en"
JOURNAL_STRICT = True  # an undeclared journal kind raises (campaigns.journal)

# Uploaded pictures of the tests in their own folder, served by Django (the live server's pages).
MEDIA_ROOT = VAR_DIR / "test-media"  # noqa: F405
SERVE_MEDIA = True
