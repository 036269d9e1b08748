from celery import shared_task

from campaigns.versions import version_bump
from characters.regeneration import regenerate_all


@shared_task(name="characters.tasks.regenerate_resources", time_limit=120, soft_time_limit=100)
def regenerate_resources() -> int:
    """Beat task: materialise PA and PV everywhere. Idempotent (see characters.regeneration)."""
    done = regenerate_all()
    version_bump(campaign_id=None)  # every board poll renders again
    return done
