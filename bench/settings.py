"""Settings of the gunicorn that ``bench.load`` starts: the test settings (no HTTPS redirect,
static files from the app folders) with one extra URL, the bare one-query view. The cache's
keys are the run's own (prefixed with its throwaway database's name): a run never reads the
fragments an earlier run cached in the same Redis for the same encounter ids and versions."""

from config.settings.test import *  # noqa: F403
from config.settings.test import CACHES, DATABASES

ROOT_URLCONF = "bench.urls"
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "ERROR"}}
CACHES = {name: {**cache, "KEY_PREFIX": f"{cache.get('KEY_PREFIX', '')}-{DATABASES['default']['NAME']}"}
          for name, cache in CACHES.items()}
