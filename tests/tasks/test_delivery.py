"""Celery delivery (issue 9): late acknowledgement, redelivery when the worker process running a
task dies, a visibility timeout above the time limits, and a first tick when beat starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from celery import signals
from django.db import connection, transaction
from django.utils import timezone

from config.celery import app
from ew1.models import EternalWarSheet
from ew1.regeneration import unix
from ew1.tasks import regenerate_resources
from tests import factories
from tests.tasks.test_regenerate_resources import TASK, worker  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")


def test_tasks_are_acknowledged_after_they_run_and_requeued_when_their_worker_dies():
    app.loader.import_default_modules()
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    task = app.tasks[TASK]
    assert task.acks_late and task.reject_on_worker_lost


@pytest.mark.redis
def test_the_visibility_timeout_is_above_every_time_limit():
    """A message not acknowledged within the visibility timeout is delivered again: if a task
    could still be running then, it would run twice at once."""
    app.loader.import_default_modules()
    limits = [t.time_limit for t in app.tasks.values() if t.time_limit]
    timeout = app.conf.broker_transport_options["visibility_timeout"]
    assert limits and timeout > max([*limits, app.conf.task_time_limit])


@pytest.mark.redis
def test_every_worker_looks_for_abandoned_messages_every_ten_seconds_at_most():
    """A message whose worker died comes back within the visibility timeout plus one sweep
    (kombu's default sweeps for them only one time in ten: 100 s). test_worker_lost.py runs it."""
    options = app.conf.broker_transport_options
    assert options["unacked_restore_throttle"] == 1
    assert 1 <= options["unacked_restore_interval"] <= 10


def test_beat_sends_the_regeneration_tick_when_it_starts(monkeypatch):
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, **kw: sent.append((name, kw)))

    signals.beat_init.send(sender=None)

    assert [name for name, _ in sent] == [TASK]
    assert sent[0][1]["expires"] == app.conf.beat_schedule["regenerate-resources"]["options"][
        "expires"]


@pytest.mark.redis
def test_a_starting_beat_ticks_at_once_through_a_worker(alice, campaign, worker, monkeypatch):  # noqa: F811
    """The real signal path: beat's start sends the tick, a worker runs it."""
    queue, wait = worker
    start = timezone.now() - timedelta(hours=2, minutes=1)
    sheet = factories.character(owner=alice, campaign=campaign, name="Early", now=start,
                                pa=Decimal("1")).ew1
    entry = app.conf.beat_schedule["regenerate-resources"]
    monkeypatch.setitem(entry, "options", {**entry["options"], "queue": queue})
    ids = []
    real = app.send_task
    monkeypatch.setattr(app, "send_task", lambda *a, **kw: ids.append(real(*a, **kw).id))

    signals.beat_init.send(sender=None)

    assert wait(ids[0]) == 1
    assert EternalWarSheet.objects.get(pk=sheet.pk).pa == Decimal("2")


# --- a worker process killed mid-tick -------------------------------------------------------------

def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _waiting_backends() -> set[int]:
    """PostgreSQL backends (not ours) of this test's database waiting for a lock on the sheet
    table: another xdist worker's tests (their own database, the same server) are not this
    tick."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else frozen for the transaction
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND pid <> pg_backend_pid() AND datname = current_database() AND query ILIKE %s",
            ["%characters_eternalwarsheet%"])
        return {row[0] for row in cursor.fetchall()}


def _until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker_process(transactional_db, tmp_path):
    """``celery worker`` in a process of its own (one pool process), on a queue of its own, using
    this test's database. Yields (queue, the worker's pid, its log)."""
    queue = f"percentile-test-{uuid.uuid4().hex}"
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL":
           f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    log = tmp_path / "worker.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [str(CELERY), "-A", "config", "worker", "--pool=prefork", "--concurrency=1",
             "-Q", queue, "--without-mingle", "--without-gossip", "--without-heartbeat",
             "--loglevel=INFO", f"--hostname={queue}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _until(lambda: "ready" in log.read_text(), 60, "the worker to start")
        yield queue, process.pid, log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)


@pytest.mark.redis
@pytest.mark.postgres
def test_a_tick_whose_worker_is_killed_is_delivered_again_and_exact(alice, campaign,
                                                                   worker_process):
    queue, pid, log = worker_process
    start = timezone.now() - timedelta(hours=6, minutes=30)
    sheet = factories.character(owner=alice, campaign=campaign, name="Survivor", now=start,
                                pa=Decimal("1"), pv=90).ew1

    with transaction.atomic():
        # Hold the tick mid-statement: its UPDATE waits for this lock.
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE characters_eternalwarsheet IN EXCLUSIVE MODE")
        regenerate_resources.apply_async(queue=queue)
        first = _until(_waiting_backends, 30, "the tick to start")
        (child,) = _children(pid)
        os.kill(child, signal.SIGKILL)  # the pool process running the tick dies
        with connection.cursor() as cursor:  # and its database session with it
            cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) pid",
                           [list(first)])
        again = _until(lambda: _waiting_backends() - first, 30, "the tick to be delivered again")
        assert _children(pid) and _children(pid) != [child]
    # The lock is released: the redelivered tick runs to its end.
    _until(lambda: "succeeded" in log.read_text(), 30, "the tick to finish")

    after = EternalWarSheet.objects.get(pk=sheet.pk)
    assert (after.pa, after.pa_anchor) == (Decimal("4"), unix(start) + 3 * 7200)
    assert (after.pv, after.pv_anchor) == (91, unix(start) + 6 * 3600)
    text = log.read_text()
    assert "WorkerLostError" in text and text.count("succeeded") == 1, text
    assert again
