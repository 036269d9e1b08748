"""Celery: Redis when REDIS_URL is set, otherwise kombu's filesystem broker under var/."""

from datetime import timedelta

from .base import REDIS_URL, VAR_DIR, env

CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240

CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, int | str]
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # A message taken but not acknowledged (its worker was killed, or its machine vanished)
    # goes back to the queue once it has been out this many seconds: above the longest time
    # limit, or a task still running would be delivered a second time. Tests lower it.
    _visibility = env.int("CELERY_VISIBILITY_TIMEOUT", default=CELERY_TASK_TIME_LIMIT + 60)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": _visibility,
        # Every worker looks for such messages every tenth of the timeout, between 1 and 10 s
        # (kombu's default scans one sweep in 10: up to 100 s more).
        "unacked_restore_interval": max(1, min(10, _visibility // 10)),
        "unacked_restore_throttle": 1,
    }
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
# Every task is idempotent, so acknowledge a message only once its task has finished, and put
# it back in the queue when the worker process running it dies (killed, out of memory): the
# tick then runs again at once instead of waiting for the next beat.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # with late acks, a worker holds one message at a time
# Beat sends these entries once when it starts (config.celery), then on their schedule.
PERCENTILE_BEAT_AT_START = ["regenerate-resources"]
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
    # A reaction prompt nobody answers takes its default ("no reaction") at its deadline: the
    # pages' polls do it within a second; this sweep covers encounters nobody is watching.
    "default-due-reactions": {
        "task": "encounters.tasks.default_due_reactions",
        "schedule": timedelta(seconds=10),
        "options": {"expires": 9},
    },
    # The notifications' e-mail digest: idempotent (each notification mailed once, digested_at).
    "notification-digests": {
        "task": "notifications.tasks.send_digests",
        "schedule": timedelta(minutes=5),
        "options": {"expires": 4 * 60},
    },
    "creatures-act": {
        "task": "combat.tasks.creatures_act",
        "schedule": timedelta(minutes=10),
        "options": {"expires": 9 * 60},
    },
}
