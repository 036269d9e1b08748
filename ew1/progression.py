"""XP and the level, PA cap and maximum PV that follow from it."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.journal import record_action
from characters.rules import require_owner
from ew1.models import EternalWarSheet
from gamerules.ew1.levelup import LevelUpError, points_between, validate_allocation
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import level_for_xp, pa_cap, pv_max
from notifications.services import notify


def grant_xp(sheet: EternalWarSheet, xp: int, params: EW1Parameters) -> int:
    """Add ``xp`` in memory and raise the level, PA cap and max PV to match (never lowered);
    each level gained banks its skill and characteristic points (spent with ``level_up_spend``).
    Returns the number of levels gained. Source: 000_afeb9d2c9ccd2b72.txt, "Progression d'XP",
    "Évolution des caracs" (PA +1 every 10 levels, PV +2 per level)."""
    if xp <= 0:
        return 0
    sheet.xp += xp
    level = min(params.max_level, level_for_xp(sheet.xp))
    gained = max(0, level - sheet.level)
    if gained:
        skill_points, characteristic_points = points_between(
            sheet.level, level,
            characteristic_points_per_level=params.characteristic_points_per_level)
        sheet.skill_points += skill_points
        sheet.characteristic_points += characteristic_points
        sheet.skills_raised = {}
        sheet.level = level
        sheet.pa_max = max(sheet.pa_max, Decimal(pa_cap(
            level, base=params.pa_base, levels_per_bonus=params.pa_cap_levels_per_bonus)))
        sheet.pv_max = max(sheet.pv_max, pv_max(level, base=params.pv_base,
                                                per_level=params.pv_per_level))
        _tell_level_up(sheet)
    return gained


def _tell_level_up(sheet: EternalWarSheet) -> None:
    """The character's player is told a level-up waits (its points to spend, its spell offer),
    once the action that granted the XP commits (notifications; no query: the callers' sheets
    come with their character)."""
    character = sheet.character
    if character.owner_id is None:
        return
    notify(users=[character.owner_id], code="level_up", campaign_id=character.campaign_id,
           params={"character": character.name},
           link=reverse("ew1:level-up", args=[character.pk]))


@transaction.atomic
def level_up_spend(*, user, character_id: int, add_skills: dict[str, int],
                   add_characteristics: dict[str, int], now: datetime | None = None
                   ) -> EternalWarSheet:
    """Spend banked skill and characteristic points. Validated by
    ``gamerules.ew1.levelup.validate_allocation`` (per-skill cap per level-up, skill maxima,
    characteristic maximum, points available). Raises LevelUpError, Forbidden, NotFound."""
    sheet = (EternalWarSheet.objects.select_for_update(of=("self",))
             .select_related("character__campaign").filter(character_id=character_id).first())
    if sheet is None:
        raise NotFound("no_such_character")
    require_owner(user, sheet.character, "not_yours_to_level_up")
    params = sheet.character.campaign.parameters
    allocation = validate_allocation(
        level=sheet.level, skills=sheet.skills, characteristics=sheet.characteristics,
        skill_points=sheet.skill_points, characteristic_points=sheet.characteristic_points,
        add_skills=add_skills, add_characteristics=add_characteristics,
        already_raised=sheet.skills_raised,
        skill_cap_floor=params.skill_cap_floor, characteristic_max=params.characteristic_max)
    if not any(add_skills.values()) and not any(add_characteristics.values()):
        raise LevelUpError("choose_least_one")
    sheet.skills = allocation.skills
    sheet.skills_raised = {code: sheet.skills_raised.get(code, 0) + add_skills.get(code, 0)
                           for code in {*sheet.skills_raised, *add_skills}}
    for code, value in allocation.characteristics.items():
        setattr(sheet, code, value)
    sheet.skill_points -= sum(add_skills.values())
    sheet.characteristic_points -= sum(add_characteristics.values())
    sheet.save(update_fields=["skills", "skills_raised", "skill_points", "characteristic_points",
                              *allocation.characteristics])
    record_action(campaign=sheet.character.campaign, kind="level_up", now=now or timezone.now(),
                  user=user, actor=sheet.character,
                  summary={"skills": add_skills, "characteristics": add_characteristics,
                           "level": sheet.level})
    return sheet
