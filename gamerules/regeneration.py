"""Resources that come back with real time (PA, PV), derived from a stored anchor.

A resource is stored as (value, anchor). What the player has at ``now`` is the stored value plus one
step per whole period elapsed since the anchor, capped; the anchor then moves by whole periods only,
never to ``now``, so no partial period is lost. Applying it twice, at t1 then t2, gives exactly what
applying it once at t2 gives: periodic ticks, late ticks and reads all agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

Number = int | Decimal


@dataclass(frozen=True)
class Accrual:
    """Times are Unix seconds."""

    value: Number
    anchor: int
    gained: Number
    next_at: int | None  # when the next step comes, None when at or above the cap


def accrue(*, value: Number, cap: Number, anchor: int, now: int, period: int,
           step: Number = 1) -> Accrual:
    """Regenerate ``value`` towards ``cap`` by ``step`` per whole ``period`` (seconds) since
    ``anchor`` (Unix seconds), as seen at ``now`` (Unix seconds).

    A value already at or above the cap is kept (a GM may have raised it) and the anchor still
    moves by whole periods, so time spent full is never banked. Raises ValueError when
    ``period`` is not positive. Source: 000_afeb9d2c9ccd2b72.txt, "Expérience et Points
    d'action" (1 PA / 2 h) and "Caractéristiques fixes" (1 PV / 6 h).
    """
    if period <= 0:
        raise ValueError("The regeneration period must be positive.")
    periods = max(0, (now - anchor) // period)
    new_anchor = anchor + periods * period
    if value >= cap:
        return Accrual(value, new_anchor, 0, None)
    new_value = min(cap, value + periods * step)
    next_at = new_anchor + period if new_value < cap else None
    return Accrual(new_value, new_anchor, new_value - value, next_at)
