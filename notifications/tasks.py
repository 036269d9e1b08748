from dataclasses import asdict

from celery import shared_task

from notifications.services import digest_send


@shared_task(name="notifications.tasks.send_digests", time_limit=120, soft_time_limit=100)
def send_digests() -> dict:
    """Mail the digests due (notifications.services.digest_send). Idempotent: a notification is
    mailed once (``digested_at``). Beat sends it every 5 minutes (config/settings/celery.py)."""
    return asdict(digest_send())
