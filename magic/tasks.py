from celery import shared_task

from magic.effects import effects_expire


@shared_task(name="magic.tasks.expire_effects", time_limit=60, soft_time_limit=50)
def expire_effects() -> int:
    """Beat task: delete expired shields (damage never reads them anyway). Idempotent."""
    return effects_expire()
