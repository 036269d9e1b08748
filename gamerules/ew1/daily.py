"""The daily PA cap of Eternal War One II: how much a character may still spend on this game day.

The seed says “12 PA par jour” and plays an example day “avec 24 PA” (12 in the pool, plus 1 PA
every 2 hours over 24 hours), so a campaign caps the PA spent per game day (``daily_pa_cap``,
24; 0 means no cap). A game day runs from midnight to midnight in the campaign's time zone
(``game_day_time_zone``, UTC): 23 or 25 hours long on the days the clocks change.

The count is stored with the local date it belongs to: a count of another day is 0 today, so a
spend never depends on a reset having run. Source: 000_afeb9d2c9ccd2b72.txt, “Expérience et
Points d'action (PA)”; docs/rules/eternal-war-one-ii.md, “Daily PA cap”.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from gamerules.ew1.errors import DailyPACapReached


def game_day(now: datetime, zone: str) -> date:
    """The local date of the aware instant ``now`` in the IANA time zone ``zone``. Raises
    ValueError for a naive ``now``."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("game_day needs an aware datetime.")
    return now.astimezone(ZoneInfo(zone)).date()


def spent_on(day: date, *, spent: Decimal, spent_day: date | None) -> Decimal:
    """PA spent on ``day``, given the stored count and the day it belongs to (PA)."""
    return spent if spent_day == day else Decimal(0)


@dataclass(frozen=True)
class DailySpend:
    """A spend allowed by the cap: the game day and the count before and after (PA)."""

    day: date
    before: Decimal
    after: Decimal
    cap: int  # 0: no cap


def daily_spend(*, cost: Decimal, spent: Decimal, spent_day: date | None, today: date,
                cap: int) -> DailySpend:
    """Check that ``cost`` PA fit in what is left of ``today``'s cap. Raises DailyPACapReached
    (with ``spent`` and ``cap``) when they do not; a cap of 0 allows everything."""
    before = spent_on(today, spent=spent, spent_day=spent_day)
    after = before + Decimal(cost)
    if cap and after > cap:
        raise DailyPACapReached(spent=before, cap=cap, cost=cost)
    return DailySpend(today, before, after, cap)
