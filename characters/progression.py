"""XP and the level, PA cap and maximum PV that follow from it."""

from __future__ import annotations

from characters.models import EternalWarSheet
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import level_for_xp, pa_cap, pv_max


def grant_xp(sheet: EternalWarSheet, xp: int, params: EW1Parameters) -> int:
    """Add ``xp`` in memory and raise the level, PA cap and max PV to match (never lowered).
    Returns the number of levels gained. Source: 000_afeb9d2c9ccd2b72.txt, "Progression d'XP",
    "Évolution des caracs" (PA +1 every 10 levels, PV +2 per level)."""
    if xp <= 0:
        return 0
    sheet.xp += xp
    level = min(params.max_level, level_for_xp(sheet.xp))
    gained = max(0, level - sheet.level)
    if gained:
        sheet.level = level
        sheet.pa_max = max(sheet.pa_max, pa_cap(level, base=params.pa_base,
                                                levels_per_bonus=params.pa_cap_levels_per_bonus))
        sheet.pv_max = max(sheet.pv_max, pv_max(level, base=params.pv_base,
                                                per_level=params.pv_per_level))
    return gained
