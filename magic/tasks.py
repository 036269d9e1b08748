from celery import shared_task

from campaigns.versions import version_bump
from ew1.live import announce_pieces
from magic.effects import effects_expire


@shared_task(name="magic.tasks.expire_effects", time_limit=60, soft_time_limit=50)
def expire_effects() -> int:
    """Beat task: delete expired shields (damage never reads them anyway). Idempotent."""
    targets: list[int] = []
    done = effects_expire(targets=targets)
    version_bump(campaign_id=None)  # every board poll renders again
    announce_pieces(targets)  # the boards and sheets that showed a shield, after the epoch
    return done
