"""The limits of a sheet the game master writes: what the admin refuses before saving.

Source: 000_afeb9d2c9ccd2b72.txt: "Caractéristiques" (LUK, "Chance est uniquement utilisé pour
les personnages"), "Réduction des dégats" (objects, doors and creatures block a fixed amount;
characters roll DEF), "Compétences de base" (each skill's maximum), "Évolution des caracs" (the
campaign's ``characteristic_max``) and the levels up to ``max_level``. PA and PV now are never
above their maxima (PA are never negative, the database says so too); the max PV is at least 1.
Choices: docs/rules/eternal-war-one-ii.md, "Sheets made by the game master".
"""

from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping

from gamerules.ew1.errors import InvalidSheet
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.skills import SKILLS

CHARACTERISTICS = ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")


def sheet_problems(*, player: bool, characteristics: Mapping[str, int | None],  # noqa: PLR0913  the sheet's fields, named
                   skills: Mapping[str, int], level: int, pa: Decimal | int,
                   pa_max: Decimal | int, pv: int, pv_max: int, fixed_reduction: int | None,
                   params: EW1Parameters) -> dict[str, InvalidSheet]:
    """What is wrong with a sheet, by field: a characteristic code, a skill code, "level",
    "pa", "pv", "pv_max" or "fixed_reduction" -> the first InvalidSheet of that field (keys
    "characteristic_above_max", "luck_players_only", "luck_needed", "skill_above_max",
    "level_above_max", "pa_above_max", "pv_above_max", "pv_max_least_1",
    "reduction_pieces_only", "reduction_needed"). Empty when the sheet is within its limits.
    ``player``: the character is a player character (the others are creatures, doors and
    objects); ``characteristics`` maps each code of CHARACTERISTICS to its value (LUK None for
    the others); ``skills`` maps skill codes to values (the field's own bounds, 0 and more,
    are the form's)."""
    problems: dict[str, InvalidSheet] = {}
    for code in CHARACTERISTICS:
        value = characteristics.get(code)
        if code == "LUK" and value is not None and not player:
            problems[code] = InvalidSheet("luck_players_only")
        elif code == "LUK" and value is None and player:
            problems[code] = InvalidSheet("luck_needed")
        elif value is not None and value > params.characteristic_max:
            problems[code] = InvalidSheet("characteristic_above_max",
                                          maximum=params.characteristic_max, value=value)
    for rule in SKILLS:
        value = skills.get(rule.code)
        if value is not None and value > rule.maximum:
            problems[rule.code] = InvalidSheet("skill_above_max", maximum=rule.maximum,
                                               value=value)
    if level > params.max_level:
        problems["level"] = InvalidSheet("level_above_max", maximum=params.max_level,
                                         value=level)
    if pa > pa_max:
        problems["pa"] = InvalidSheet("pa_above_max", pa=pa, pa_max=pa_max)
    if pv_max < 1:
        problems["pv_max"] = InvalidSheet("pv_max_least_1")
    elif pv > pv_max:
        problems["pv"] = InvalidSheet("pv_above_max", pv=pv, pv_max=pv_max)
    if player and fixed_reduction is not None:
        problems["fixed_reduction"] = InvalidSheet("reduction_pieces_only")
    elif not player and fixed_reduction is None:
        problems["fixed_reduction"] = InvalidSheet("reduction_needed")
    return problems
