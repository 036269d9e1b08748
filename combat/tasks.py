from celery import shared_task

from campaigns.versions import version_bump
from combat.creatures import creatures_act


@shared_task(name="combat.tasks.creatures_act", time_limit=120, soft_time_limit=100)
def creatures_act_task() -> int:
    """Beat task: every creature may brawl one adjacent character (see combat.creatures)."""
    done = creatures_act()
    version_bump(campaign_id=None)  # every board poll renders again
    return done
