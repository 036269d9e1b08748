"""Test settings: the base settings with fast hashing and no HTTPS redirects. DATABASE_URL and
REDIS_URL still come from the environment (CI points them at PostgreSQL and Redis)."""

from .base import *  # noqa: F401,F403
from .celery import *  # noqa: F401,F403

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
