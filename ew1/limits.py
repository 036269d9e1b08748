"""Per-user rate limits shared by every web process (django-ratelimit on the default cache:
Redis in production, the database cache in the embedded set-up)."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from django_ratelimit.core import get_usage

REROLL_GROUP = "characters.reroll"


@dataclass(frozen=True)
class Allowance:
    limit: int
    used: int
    seconds_left: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


def reroll_allowance(*, user, per_minute: int, consume: bool) -> Allowance:
    """How many creation rerolls ``user`` has left this minute; ``consume`` counts one more.
    The window is django-ratelimit's fixed minute (with its per-key offset)."""
    # get_usage reads only ``method`` and what the key function reads from the request.
    caller = SimpleNamespace(user=user, method="POST")
    usage = get_usage(caller, group=REROLL_GROUP, key=lambda group, request: str(request.user.pk),
                      rate=f"{per_minute}/m", increment=consume)
    if usage is None:  # RATELIMIT_ENABLE = False
        return Allowance(per_minute, 0, 60)
    # In the window's last second django-ratelimit says 0 seconds left: the rerolls come back
    # within that second, so say 1 (a Retry-After of 0 would invite an immediate retry).
    return Allowance(usage["limit"], usage["count"], max(1, usage["time_left"]))
