from celery import shared_task

from campaigns.versions import version_bump
from combat.cooldowns import cooldowns_release
from combat.creatures import creatures_act
from ew1.live import announce_pieces


@shared_task(name="combat.tasks.creatures_act", time_limit=120, soft_time_limit=100)
def creatures_act_task() -> int:
    """Beat task: every creature attacks an adjacent prey or steps toward one (see
    combat.creatures)."""
    done = creatures_act()
    version_bump(campaign_id=None)  # every board poll renders again
    return done


@shared_task(name="combat.tasks.release_cooldowns", time_limit=120, soft_time_limit=100)
def release_cooldowns() -> dict:
    """Beat task: notify (or reincarnate, when asked) characters whose suicide block ended.
    Idempotent: each suicide is handled once (see combat.cooldowns)."""
    done = cooldowns_release()
    if done.noticed or done.reincarnated:
        version_bump(campaign_id=None)  # reincarnated pieces appear on boards
        announce_pieces(done.characters)  # their boards and sheets (the notice), after the epoch
    return {"noticed": done.noticed, "reincarnated": done.reincarnated}
