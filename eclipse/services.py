"""The Eclipse Phase services: creation, copies, resleeving, gear, and the GM's healing, stress
recovery and Moxie.

Every surface (pages, API, admin, the shared encounter) calls these. Each one checks permission
and state, then changes the game in one transaction (the sheet locked ``FOR UPDATE``) and
journals what it did (campaigns.journal). The rules are gamerules.eclipse_phase; the source is
001_e6266c120d4801b4.txt; the choices are in docs/rules/eclipse-phase.md ("Django side").
``user=None`` means a trusted caller (the demo, the encounter); with a user, the services check
that the user plays the character, or oversees the campaign for a non-player one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from eclipse.errors import NotEclipse
from eclipse.models import (APTITUDE_FIELDS, CarriedWeapon, EclipseSheet, Sleeve, WornArmour)
from gamerules.eclipse_phase.params import EclipsePhaseParameters

MORPH_FIELDS = ("name", "kind", "durability", "wound_threshold", "death_rating", "armour_energy",
                "armour_kinetic", "speed", "aptitude_bonus", "limbs", "initiative_bonus",
                "traits", "mesh_implants")
EGO_COPIED = (*APTITUDE_FIELDS.values(), "skills", "skill_aptitudes", "moxie_max", "lucidity",
              "trauma_threshold", "insanity_rating", "mental_notes")


def require_eclipse(campaign: Campaign) -> EclipsePhaseParameters:
    """The campaign's parameters. Raises NotEclipse for a campaign of another system."""
    if campaign.rule_system != RuleSystem.ECLIPSE_PHASE:
        raise NotEclipse()
    return campaign.parameters


def sheet_default(*, character: Character) -> EclipseSheet:
    """A sheet with the model's defaults (every aptitude 15, no sleeve) and the campaign's
    Moxie, for a character made in the admin (RuleSystemSpec.new_sheet)."""
    params = require_eclipse(character.campaign)
    sheet, _ = EclipseSheet.objects.get_or_create(
        character=character, defaults={"moxie": params.moxie_max_default,
                                       "moxie_max": params.moxie_max_default})
    return sheet


def sheets_copy(*, template: Character, characters: Sequence[Character],
                now: datetime | None = None) -> list[EclipseSheet]:
    """Fresh copies of ``template``'s sheet for ``characters`` (the GM's copies of a creature in
    an encounter, RuleSystemSpec.copy_sheets): the same ego (stress and traumas at 0, Moxie
    full), a new undamaged sleeve of the same morph with the same armour, the same weapons with
    full magazines and the spares carried. Seven queries whatever the number of copies (the
    template's sheet, weapons, armour; the sheets, sleeves, the sheets' sleeve, weapons and
    armour written in bulk). Raises NotFound when the template has no sheet. Call inside a
    transaction."""
    now = now or timezone.now()
    source = (EclipseSheet.objects.select_related("sleeve").filter(character=template).first())
    if source is None:
        raise NotFound("no_such_character")
    weapons = list(source.weapons.select_related("template"))
    armour = list(source.sleeve.armour.all()) if source.sleeve is not None else []
    sheets = EclipseSheet.objects.bulk_create([
        EclipseSheet(character=c, moxie=source.moxie_max,
                     **{name: getattr(source, name) for name in EGO_COPIED})
        for c in characters])
    if source.sleeve is not None:
        sleeves = Sleeve.objects.bulk_create([
            Sleeve(owner=sheet, template_id=source.sleeve.template_id, created_at=now,
                   **{name: getattr(source.sleeve, name) for name in MORPH_FIELDS})
            for sheet in sheets])
        for sheet, sleeve in zip(sheets, sleeves):
            sheet.sleeve = sleeve
        EclipseSheet.objects.bulk_update(sheets, ["sleeve"])
        WornArmour.objects.bulk_create([WornArmour(sleeve=sleeve, template_id=w.template_id)
                                        for sleeve in sleeves for w in armour])
    CarriedWeapon.objects.bulk_create([
        CarriedWeapon(sheet=sheet, template_id=w.template_id, loaded=w.template.magazine,
                      spares=w.spares)
        for sheet in sheets for w in weapons])
    return sheets
