"""The notifications' e-mail digest (issue 22, item 4) run by a real Celery worker over Redis:
each notification unseen past NOTIFICATION_DIGEST_AFTER is mailed once (locmem mail), a second
run mails nothing; the beat schedule names the task with its expiry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from config.celery import app
from notifications.models import Notification, NotificationSettings
from notifications.tasks import send_digests
from tests import factories
from tests.tasks.test_regenerate_resources import worker  # noqa: F401 - the worker fixture


def test_beat_sends_the_digest_every_five_minutes():
    entry = app.conf.beat_schedule["notification-digests"]
    assert entry["task"] == send_digests.name == "notifications.tasks.send_digests"
    assert entry["schedule"] == timedelta(minutes=5)
    assert entry["options"]["expires"] < 5 * 60
    assert send_digests.time_limit and send_digests.soft_time_limit < send_digests.time_limit


@pytest.mark.redis
def test_a_worker_mails_each_unseen_notification_once(worker, settings):  # noqa: F811
    queue, wait = worker
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.NOTIFICATION_DIGEST_AFTER = 10
    reader = factories.user("reader")
    NotificationSettings.objects.create(user=reader, digest=True)
    old = timezone.now() - timedelta(minutes=11)
    for name in ("Hero", "Brenna"):
        Notification.objects.create(user=reader, kind="turn", code="turn", created_at=old,
                                    params={"character": name, "encounter": "Ambush"})
    Notification.objects.create(user=reader, kind="turn", code="turn", created_at=timezone.now(),
                                params={"character": "Later", "encounter": "Ambush"})

    assert wait(send_digests.apply_async(queue=queue).id) == {"mails": 1, "notifications": 2}
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [reader.email]
    assert "It is Hero's turn in Ambush." in mail.outbox[0].body
    assert "Later" not in mail.outbox[0].body
    assert wait(send_digests.apply_async(queue=queue).id) == {"mails": 0, "notifications": 0}
    assert len(mail.outbox) == 1
    assert Notification.objects.filter(digested_at__isnull=False).count() == 2
