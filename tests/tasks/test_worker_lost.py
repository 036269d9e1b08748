"""Issue 17, item 5: a Celery worker killed mid-task (SIGKILL of the worker itself, as the
out-of-memory killer or a vanished machine would) loses nothing. Its message was taken but not
acknowledged (late acks): Redis keeps it aside, and once the visibility timeout has passed the
next worker puts it back in the queue and runs it; the task is idempotent, so its effect is
applied exactly once. The task is the reaction timeout: an attack whose defender never answered
resolves with "no reaction", its damage dealt once and journaled once.

test_delivery.py covers the other case, a pool process killed under a living worker (requeued
at once through WorkerLostError)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import uuid
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from campaigns.models import ActionRecord
from config.celery import app
from encounters import services as enc
from encounters.models import Encounter, PendingReaction
from encounters.tasks import default_due_reactions
from homebrew import play
from homebrew.models import HomebrewSheet
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import build_world, make_sheet
from tests.tasks.test_delivery import CELERY, ROOT, _children, _until

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
TASK = "encounters.tasks.default_due_reactions"
# The new worker's visibility timeout: the message has been out longer than this when it
# starts, so its first sweep puts it back at once. Production keeps the default (above every
# time limit, config/settings/celery.py).
VISIBILITY = 2


@contextmanager
def celery_worker(queue: str, log: Path, **env: str):
    """``celery worker`` (one pool process) on ``queue``, on this test's database; yields the
    process once it is ready. Stopped (SIGTERM, then SIGKILL) at the end if still alive."""
    db = connection.settings_dict
    environment = {**os.environ, **env, "DATABASE_URL":
                   f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    with open(log, "w") as out:
        process = subprocess.Popen(
            [str(CELERY), "-A", "config", "worker", "--pool=prefork", "--concurrency=1",
             "-Q", queue, "--without-mingle", "--without-gossip", "--without-heartbeat",
             "--loglevel=INFO", f"--hostname={log.stem}-{queue}@%h"],
            cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT)
    try:
        _until(lambda: "ready" in log.read_text(), 60, "the worker to start")
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def _waiting_for_the_encounter() -> set[int]:
    """PostgreSQL backends (not ours) of this test's database waiting for a lock in a query on
    the encounters (the query's text is cut at 1 kB: its FOR UPDATE is not in it); another
    xdist worker's tests use their own database on the same server."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else frozen for the transaction
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND pid <> pg_backend_pid() AND datname = current_database() AND query ILIKE %s",
            ["%encounters_encounter%"])
        return {row[0] for row in cursor.fetchall()}


def _unacknowledged(task_id: str) -> bool:
    """The task's message is in kombu's set of messages taken and not acknowledged."""
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        return any(task_id in value.decode()
                   for value in channel.client.hvals(channel.unacked_key))


def _results(log: Path) -> dict[str, str]:
    """Each task that succeeded in the worker's log, with what it returned."""
    return dict(re.findall(r"\[([0-9a-f-]{36})\] succeeded in [0-9.e-]+s: (.*)",
                           log.read_text()))


@pytest.fixture
def queue():
    name = f"percentile-test-{uuid.uuid4().hex}"
    yield name
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(name)


@pytest.fixture
def due_attack(alice, bob):
    """Aria's sword hit on Bran (5 damage rolled) a minute ago; Bran never answered, and his
    30 seconds to parry or dodge are over. Returns (the world, the encounter, the prompt)."""
    hb = build_world(alice, bob)
    make_sheet(hb.bran, posture="defensive")  # a posture that may parry or dodge
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Fight")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.bran, hb.goblin)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = play.encounter_attack(
        user=alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
        target_id=c[hb.bran.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk, description="A thrust"),
        rng=FakeRandom(40, 5), now=timezone.now() - timedelta(minutes=1))
    assert step.reaction is not None and step.reaction.deadline < timezone.now()
    return hb, e, step.reaction


def test_the_reaction_timeout_whose_worker_is_killed_runs_again_on_the_next_worker_once(
        due_attack, queue, tmp_path):
    hb, e, prompt = due_attack
    hp = HomebrewSheet.objects.get(pk=hb.bran.pk).hp
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"

    with transaction.atomic():
        # Hold the task mid-run: it waits for the encounter's lock, which this test holds.
        Encounter.objects.select_for_update().get(pk=e.pk)
        with celery_worker(queue, first_log) as first:
            task_id = default_due_reactions.apply_async(queue=queue).id
            _until(_waiting_for_the_encounter, 30, "the task to start")
            (child,) = _children(first.pid)
            first.send_signal(signal.SIGKILL)  # the worker itself, not only its pool process
            assert first.wait(10) == -signal.SIGKILL
            # Its pool process dies with it (Celery sets PDEATHSIG): nothing finishes that run.
            _until(lambda: not Path(f"/proc/{child}").exists(), 10, "the pool process to die")
    # The lock is released; the killed run's session had no COMMIT to send.
    assert f"{TASK}[{task_id}] received" in first_log.read_text()
    assert "succeeded" not in first_log.read_text()
    assert _unacknowledged(task_id)  # kept aside by Redis, not lost
    assert PendingReaction.objects.get(pk=prompt.pk).status == "pending"

    with celery_worker(queue, second_log, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY)):
        # The next worker's sweep puts the message back in the queue, and runs it.
        _until(lambda: f"[{task_id}] succeeded" in second_log.read_text(), 20,
               "the task to be delivered again")
        # Delivered once more (a duplicate, the next tick): nothing changes.
        again = default_due_reactions.apply_async(queue=queue).id
        _until(lambda: f"[{again}] succeeded" in second_log.read_text(), 20,
               "the second run")

    # The redelivered run defaulted the one prompt; the duplicate found nothing due.
    assert _results(second_log) == {task_id: "1", again: "0"}
    assert not _unacknowledged(task_id)
    reaction = PendingReaction.objects.get(pk=prompt.pk)
    assert (reaction.status, reaction.choice) == ("defaulted", "none")
    assert HomebrewSheet.objects.get(pk=hb.bran.pk).hp == hp - 5  # the 5 damage, once
    [entry] = ActionRecord.objects.filter(summary__encounter=e.pk)
    assert entry.kind == "homebrew_attack" and entry.summary["answer"]["choice"] == "none"
    assert Encounter.objects.get(pk=e.pk).reaction_deadline is None
