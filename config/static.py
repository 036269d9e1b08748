"""Static files in production: the hashed-name manifest must exist before the app serves.

With ``DEBUG`` off, the manifest storage (whitenoise's ``CompressedManifestStaticFilesStorage``)
turns every ``{% static %}`` into a manifest look-up, and a missing manifest makes every page
answer 500 ("Missing staticfiles manifest entry"). The production path runs
``manage.py collectstatic --noinput`` before starting the web processes (docs/deploy.md); the web
entry points call :func:`static_files_check` so that a forgotten step stops the process at start
with a clear message instead of serving errors.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import storages


def static_files_check() -> None:
    """Raise ImproperlyConfigured when ``DEBUG`` is off, the static storage hashes names, and
    ``STATIC_ROOT`` holds no manifest. No database access."""
    storage = storages["staticfiles"]
    if settings.DEBUG or not isinstance(storage, ManifestFilesMixin):
        return
    if not storage.manifest_storage.exists(storage.manifest_name):
        raise ImproperlyConfigured(
            f"No static files manifest in STATIC_ROOT ({settings.STATIC_ROOT}): run "
            "`python manage.py collectstatic --noinput` before starting the web processes "
            "(docs/deploy.md).")
