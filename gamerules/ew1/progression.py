"""Levels from XP, the PA cap and maximum PV by level, damage-reduction rolls by level.

Source: 000_afeb9d2c9ccd2b72.txt, "Progression d'XP", "Évolution des caracs" and
"Calcule de la réductions de dégâts". The seed gives the XP thresholds of levels 0-5, 99 and 100
only; between levels 5 and 99 each level costs a fixed ratio more than the one before, starting
from the seed's 110 XP of level 5, the ratio chosen so that level 99 starts exactly at 50,001
(docs/rules/eternal-war-one-ii.md, "Levels").
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from gamerules.tables import RangeTable

SEED_THRESHOLDS = {0: 0, 1: 1, 2: 101, 3: 201, 4: 301, 5: 411, 99: 50_001, 100: 100_001}


@lru_cache(maxsize=1)
def xp_thresholds() -> tuple[int, ...]:
    """Minimum XP of each level 0..100 (101 ints, increasing)."""
    first_step = SEED_THRESHOLDS[5] - SEED_THRESHOLDS[4]  # 110
    span = SEED_THRESHOLDS[99] - SEED_THRESHOLDS[5]  # 49,590 over levels 6..99

    def total(ratio: float) -> float:
        return sum(first_step * ratio**k for k in range(1, 95))

    low, high = 1.0, 2.0
    for _ in range(200):  # bisection for the growth ratio; total() is increasing in ratio
        mid = (low + high) / 2
        low, high = (mid, high) if total(mid) < span else (low, mid)
    ratio = (low + high) / 2
    levels = [SEED_THRESHOLDS[lvl] for lvl in range(6)]
    accumulated = 0.0
    for k in range(1, 94):  # levels 6..98
        accumulated += first_step * ratio**k
        levels.append(SEED_THRESHOLDS[5] + round(accumulated))
    levels += [SEED_THRESHOLDS[99], SEED_THRESHOLDS[100]]
    return tuple(levels)


def level_for_xp(xp: int, thresholds: tuple[int, ...] | None = None) -> int:
    """The level a character with ``xp`` experience points has (0..100)."""
    table = thresholds or xp_thresholds()
    return max(0, bisect_right(table, xp) - 1)


@dataclass(frozen=True)
class LevelProgress:
    level: int
    xp: int
    level_start: int
    next_level_at: int | None  # None at the top level
    percent: int  # 0..100 towards the next level


def level_progress(xp: int, thresholds: tuple[int, ...] | None = None) -> LevelProgress:
    table = thresholds or xp_thresholds()
    level = level_for_xp(xp, table)
    start = table[level]
    if level + 1 >= len(table):
        return LevelProgress(level, xp, start, None, 100)
    nxt = table[level + 1]
    return LevelProgress(level, xp, start, nxt, int(100 * (xp - start) / (nxt - start)))


def pa_cap(level: int, *, base: int, levels_per_bonus: int) -> int:
    """PA cap: ``base`` (12) plus 1 every ``levels_per_bonus`` (10) levels."""
    return base + level // levels_per_bonus


def pv_max(level: int, *, base: int, per_level: int) -> int:
    """Maximum PV: ``base`` (100) plus ``per_level`` (2) per level."""
    return base + per_level * level


# Damage-reduction rolls: 3 up to level 3, then straight up to 20 at level 100.
DAMAGE_REDUCTION_ROLLS = RangeTable(
    [(0, 3, 3)] + [(lvl, lvl, 3 + round(17 * (lvl - 3) / 97)) for lvl in range(4, 101)]
)


def damage_reduction_rolls(level: int) -> int:
    return DAMAGE_REDUCTION_ROLLS.lookup(level)
