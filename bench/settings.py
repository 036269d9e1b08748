"""Settings of the gunicorn that ``bench.load`` starts: the test settings (no HTTPS redirect,
static files from the app folders) with one extra URL, the bare one-query view."""

from config.settings.test import *  # noqa: F401,F403

ROOT_URLCONF = "bench.urls"
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "ERROR"}}
