"""Celery: Redis when REDIS_URL is set, otherwise kombu's filesystem broker under var/."""

from datetime import timedelta

from .base import REDIS_URL, VAR_DIR

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
else:
    _queue = VAR_DIR / "celery-broker"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue), "data_folder_out": str(_queue),
        "processed_folder": str(VAR_DIR / "celery-processed"),
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "regenerate-resources": {
        "task": "characters.tasks.regenerate_resources",
        "schedule": timedelta(minutes=5),
        # A late tick is useless once the next is due; the tick is idempotent anyway.
        "options": {"expires": 4 * 60},
    },
    "expire-effects": {
        "task": "magic.tasks.expire_effects",
        "schedule": timedelta(minutes=15),
        "options": {"expires": 14 * 60},
    },
    "release-cooldowns": {
        "task": "combat.tasks.release_cooldowns",
        "schedule": timedelta(minutes=5),
        "options": {"expires": 4 * 60},
    },
    # Every 10 minutes: the new game day's count is derived anyway (a spend after midnight starts
    # from 0 before this runs); the reset only writes it down.
    "reset-daily-pa": {
        "task": "characters.tasks.reset_daily_pa",
        "schedule": timedelta(minutes=10),
        "options": {"expires": 9 * 60},
    },
    "creatures-act": {
        "task": "combat.tasks.creatures_act",
        "schedule": timedelta(minutes=10),
        "options": {"expires": 9 * 60},
    },
}
