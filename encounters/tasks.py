from celery import shared_task

from encounters.services import reactions_default_due


@shared_task(name="encounters.tasks.default_due_reactions", time_limit=60, soft_time_limit=50)
def default_due_reactions() -> int:
    """Default every reaction prompt past its deadline ("no reaction"), for encounters nobody
    is polling. Idempotent: each prompt is re-checked under its encounter's lock. Beat sends it
    every 10 seconds (config/settings/celery.py); the pages' polls also default a due prompt."""
    return reactions_default_due()
