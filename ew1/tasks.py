from celery import shared_task

from campaigns.versions import live_boards, version_bump
from ew1.daily_pa import daily_pa_reset
from ew1.live import announce_pieces
from ew1.regeneration import regenerate_all


# The names are those they had in the characters app, before the move: the beat schedule
# (config/settings/celery.py) and the messages already queued call the tasks by name.
@shared_task(name="characters.tasks.regenerate_resources", time_limit=120, soft_time_limit=100)
def regenerate_resources() -> int:
    """Beat task: materialise PA and PV everywhere. Idempotent (see ew1.regeneration). The
    pages showing a sheet it changed are told (its board, its sheet pages), after the epoch."""
    changed: list[int] = []
    done = regenerate_all(changed=changed)
    version_bump(campaign_id=None)  # every board poll renders again
    announce_pieces(changed)
    return done


@shared_task(name="characters.tasks.reset_daily_pa", time_limit=120, soft_time_limit=100)
def reset_daily_pa() -> int:
    """Beat task: start the new game day's PA count at 0 where a campaign's local midnight has
    passed. Idempotent, exact on DST days and after a missed day (see ew1.daily_pa)."""
    campaigns: list[int] = []
    done = daily_pa_reset(campaigns=campaigns)
    version_bump(campaign_id=None)  # the "PA spent today" every board shows
    live_boards(campaigns)  # their boards' pages, after the epoch
    return done
