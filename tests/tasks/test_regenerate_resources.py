"""The regeneration task, run by a real Celery worker over Redis (the broker CI uses)."""

import os
import threading
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from celery import signals
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.celery import app
from ew1.models import EternalWarSheet
from ew1.regeneration import unix
from ew1.tasks import regenerate_resources
from tests import factories

TASK = "characters.tasks.regenerate_resources"


def test_the_beat_schedule_runs_the_regeneration_task():
    schedule = settings.CELERY_BEAT_SCHEDULE
    entries = [e for e in schedule.values() if e["task"] == TASK]
    assert len(entries) == 1
    entry = entries[0]
    assert entry["schedule"] <= timedelta(minutes=10)
    assert entry["options"]["expires"] <= entry["schedule"].total_seconds()
    assert app.conf.beat_schedule == schedule


def test_the_task_is_registered_with_time_limits():
    app.loader.import_default_modules()
    task = app.tasks[TASK]
    assert task.name == regenerate_resources.name
    assert 0 < task.soft_time_limit < task.time_limit


@pytest.mark.django_db
def test_the_task_body_is_the_bulk_tick(alice, campaign):
    sheet = factories.character(owner=alice, campaign=campaign, name="Eager",
                                now=timezone.now() - timedelta(hours=4, minutes=1),
                                pa=Decimal("3")).ew1
    assert regenerate_resources.run() == 1
    assert EternalWarSheet.objects.get(pk=sheet.pk).pa == 5
    assert regenerate_resources.run() == 0


@pytest.fixture
def worker(transactional_db):
    """A real worker thread consuming a queue of its own (other test runs may share the Redis
    server); each finished task is reported as (task id, return value)."""
    redis_url = os.environ["REDIS_URL"]
    assert app.conf.broker_url == redis_url
    queue = f"percentile-test-{uuid.uuid4().hex}"
    done: dict[str, object] = {}
    finished = threading.Condition()

    def on_postrun(task_id=None, retval=None, **_):
        connection.close()  # the worker thread's own connection
        with finished:
            done[task_id] = retval
            finished.notify_all()

    def wait(task_id, timeout=30):
        with finished:
            assert finished.wait_for(lambda: task_id in done, timeout), "the task never ran"
        return done[task_id]

    signals.task_postrun.connect(on_postrun, weak=False)
    try:
        with start_worker(app, perform_ping_check=False, queues=[queue], shutdown_timeout=30):
            yield queue, wait
    finally:
        signals.task_postrun.disconnect(on_postrun)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)


@pytest.mark.redis
def test_a_worker_regenerates_pa_and_a_second_run_changes_nothing(alice, campaign, worker):
    queue, wait = worker
    start = timezone.now() - timedelta(hours=6, minutes=30)
    sheet = factories.character(owner=alice, campaign=campaign, name="Worker", now=start,
                                pa=Decimal("1"), pv=90).ew1

    assert wait(regenerate_resources.apply_async(queue=queue).id) == 1  # one sheet updated
    after = EternalWarSheet.objects.get(pk=sheet.pk)
    assert (after.pa, after.pa_anchor) == (Decimal("4"), unix(start) + 3 * 7200)
    assert (after.pv, after.pv_anchor) == (91, unix(start) + 6 * 3600)

    assert wait(regenerate_resources.apply_async(queue=queue).id) == 0
    again = EternalWarSheet.objects.get(pk=sheet.pk)
    assert (again.pa, again.pa_anchor, again.pv, again.pv_anchor) == (
        after.pa, after.pa_anchor, after.pv, after.pv_anchor)
