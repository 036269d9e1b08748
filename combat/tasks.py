from celery import shared_task

from combat.creatures import creatures_act


@shared_task(name="combat.tasks.creatures_act", time_limit=120, soft_time_limit=100)
def creatures_act_task() -> int:
    """Beat task: every creature attacks an adjacent prey or steps toward one (see
    combat.creatures)."""
    return creatures_act()
