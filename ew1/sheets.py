"""Every character has its rule-system sheet: the default Eternal War One II sheet of each kind,
and the service that makes one for a character that lacks it (the admin calls it on every save).

Defaults (docs/rules/eternal-war-one-ii.md, "Sheets made by the game master"):

- a player character gets the mean of each creation roll, rounded down (FOR, DEF, DEX, LUK
  3d6 -> 10; TAI, INT 2d6+6 -> 13; seed 000, "Caractéristiques de base des personnages"), the
  level-1 skill bases ("Compétences de base"), ``pa_base`` PA and ``pv_base`` PV at level 0;
- a creature gets 10 in every characteristic but LUK (none) and the skill bases of those
  values, like ``ew1.services.piece_create``;
- a door or an object gets 0 everywhere (it never acts) and no LUK.

Pieces (creatures, doors, objects) have a fixed damage reduction of 0 instead of DEF rolls.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.regeneration import unix
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import pa_cap, pv_max
from gamerules.ew1.skills import SKILLS, base_skills

# kind -> characteristics (LUK None: the kind has no luck).
CHARACTERISTICS: dict[str, dict[str, int | None]] = {
    Character.Kind.PLAYER: {"FOR": 10, "DEF": 10, "TAI": 13, "INT": 13, "DEX": 10, "LUK": 10},
    Character.Kind.CREATURE: {"FOR": 10, "DEF": 10, "TAI": 10, "INT": 10, "DEX": 10, "LUK": None},
    Character.Kind.DOOR: {"FOR": 0, "DEF": 0, "TAI": 0, "INT": 0, "DEX": 0, "LUK": None},
    Character.Kind.OBJECT: {"FOR": 0, "DEF": 0, "TAI": 0, "INT": 0, "DEX": 0, "LUK": None},
}
# Kinds whose skills are 0 rather than the level-1 bases: they never act.
INERT = {Character.Kind.DOOR, Character.Kind.OBJECT}


def sheet_defaults(*, kind: str, params: EW1Parameters, level: int = 0) -> dict[str, Any]:
    """The field values of a default sheet of ``kind`` at ``level`` (PA and PV full; anchors
    not included). Raises KeyError for an unknown kind."""
    values = dict(CHARACTERISTICS[kind])
    if kind in INERT:
        skills = {s.code: 0 for s in SKILLS}
    else:
        skills = base_skills({k: v or 0 for k, v in values.items()})  # LUK: None for creatures
    pa = pa_cap(level, base=params.pa_base, levels_per_bonus=params.pa_cap_levels_per_bonus)
    pv = pv_max(level, base=params.pv_base, per_level=params.pv_per_level)
    return {**values, "level": level, "xp": 0, "skills": skills, "pa": pa, "pa_max": pa,
            "pv": pv, "pv_max": pv, "skill_points": 0, "characteristic_points": 0,
            "skills_raised": {},
            "fixed_reduction": None if kind == Character.Kind.PLAYER else 0}


def sheet_ensure(*, character: Character, now: datetime | None = None) -> EternalWarSheet:
    """The character's sheet, created with ``sheet_defaults`` for its kind if it has none (its
    anchors at ``now``). Idempotent: two calls, or two racing requests, make one sheet."""
    existing = EternalWarSheet.objects.filter(character=character).first()
    if existing is not None:
        return existing
    ts = unix(now or timezone.now())
    values = sheet_defaults(kind=character.kind, params=character.campaign.parameters)
    try:
        with transaction.atomic():
            sheet = EternalWarSheet.objects.create(character=character, pa_anchor=ts,
                                                   pv_anchor=ts, **values)
    except IntegrityError:  # made meanwhile by another request
        return EternalWarSheet.objects.get(character=character)
    character.ew1 = sheet
    return sheet
