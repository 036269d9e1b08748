import os
from pathlib import Path

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("percentile")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_init.connect
@signals.beat_init.connect
def _make_broker_folders(**_):
    # kombu's filesystem transport expects its folders to exist.
    from django.conf import settings

    for key in ("data_folder_in", "data_folder_out", "processed_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(str(folder)).mkdir(parents=True, exist_ok=True)


@signals.beat_init.connect
def _first_tick(sender=None, **_):
    """Send the ``PERCENTILE_BEAT_AT_START`` entries once when beat starts: an interval schedule
    would otherwise first run one interval later (5 min without regeneration after a deploy)."""
    from django.conf import settings

    schedule = app.conf.beat_schedule
    for name in settings.PERCENTILE_BEAT_AT_START:
        entry = schedule[name]
        app.send_task(entry["task"], args=entry.get("args", ()), kwargs=entry.get("kwargs", {}),
                      **entry.get("options", {}))
