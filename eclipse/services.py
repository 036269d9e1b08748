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

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import CampaignClosed, InvalidInput, NotFound
from campaigns.journal import record_action
from campaigns.models import Campaign, RuleSystem
from campaigns.numbers import whole_number
from campaigns.permissions import admits, oversees
from characters.models import Character
from characters.rules import require
from characters.services import NAME_MAX, _visible
from eclipse.errors import (EclipseServiceError, GameMasterOnly, InEncounter, NoSleeve,
                            NotCarried, NotEclipse, NoSuchTemplate)
from eclipse.models import (APTITUDE_FIELDS, ArmourTemplate, CarriedWeapon, EclipseSheet,
                            MorphTemplate, Sleeve, WeaponTemplate, WornArmour)
from eclipse.selectors import health_of, lock_sheets, mind_of
from encounters.models import Combatant, Encounter
from encounters.services import characters_changed
from gamerules.eclipse_phase import health as rules_health
from gamerules.eclipse_phase import stress as rules_stress
from gamerules.eclipse_phase.creation import validate_creation
from gamerules.eclipse_phase.errors import NoMoxie
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude
from notifications.services import notify

KIND_CREATE, KIND_RESLEEVE = "eclipse_create", "eclipse_resleeve"
KIND_EQUIP, KIND_UNEQUIP = "eclipse_equip", "eclipse_unequip"
KIND_HEAL, KIND_RECOVER, KIND_MOXIE = "eclipse_heal", "eclipse_recover", "eclipse_moxie"
AMOUNT_MAX = 1000  # healing, stress and spares given at once

MORPH_FIELDS = ("name", "kind", "durability", "wound_threshold", "death_rating", "armour_energy",
                "armour_kinetic", "speed", "aptitude_bonus", "limbs", "initiative_bonus",
                "traits", "mesh_implants", "aptitude_max")
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
                   implants=list(source.sleeve.implants or []),
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


# --- shared checks ---------------------------------------------------------------------------

def require_actor(user, character: Character) -> None:
    """``user`` manages ``character`` (characters.manage: its player, and the GM, who plays
    the others and hands out bodies and gear to everyone). ``user`` None: a trusted caller.
    Raises NotFound (cannot even see it) or Forbidden."""
    require(user, "characters.manage", character)


def require_game_master(user, campaign: Campaign) -> None:
    if user is not None and not oversees(user, campaign):
        raise GameMasterOnly()


def _locked(character: Character | int) -> EclipseSheet:
    """The sheet locked until the transaction ends, with its character, campaign and current
    sleeve (two queries: the lock, then the read; the sleeves and gear of a sheet change only
    under its lock), after the encounters it fights in (two more: encounters.services.
    characters_changed; every caller changes what their pages show). Raises NotFound."""
    pk = character if isinstance(character, int) else character.pk
    # Its encounters' pages show the change (gauges, gear, ammunition): their versions bumped,
    # pushed on commit; locked before the sheet, as a step does (encounters.services).
    characters_changed([pk])
    lock_sheets([pk])  # locked first, read after (a hit or a healing is not lost)
    sheet = (EclipseSheet.objects
             .select_related("character__campaign", "character__owner", "sleeve")
             .filter(pk=pk).first())
    if sheet is None:
        raise NotFound("no_such_character")
    require_eclipse(sheet.character.campaign)
    return sheet


def _not_fighting(user, sheet: EclipseSheet) -> None:
    """A player changes body or gear outside a running encounter (there, drawing, reloading and
    the rest are actions of the turn); the GM may at any time. Raises InEncounter."""
    if user is not None and oversees(user, sheet.character.campaign):
        return
    if Combatant.objects.filter(character_id=sheet.pk, removed=False,
                                encounter__state=Encounter.State.RUNNING).exists():
        raise InEncounter(name=sheet.character.name)


def _template(model, campaign: Campaign, template_id: int):
    row = model.objects.filter(pk=template_id, campaign=campaign).first()
    if row is None:
        raise NoSuchTemplate()
    return row


def _amount(value: Any, *, low: int = 0, high: int = AMOUNT_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EclipseServiceError("amount_range", code="invalid_input", low=low, high=high)
    return value


def _journal(sheet: EclipseSheet, kind: str, *, user, now: datetime | None,
             summary: dict[str, Any], rolls=()):
    return record_action(campaign=sheet.character.campaign, kind=kind, now=now or timezone.now(),
                         user=user, actor=sheet.character, summary=summary, rolls=rolls)


def _new_sleeve(sheet: EclipseSheet, template: MorphTemplate, now: datetime) -> Sleeve:
    return Sleeve.objects.create(owner=sheet, template=template, created_at=now,
                                 **{name: getattr(template, name) for name in MORPH_FIELDS})


# --- creation --------------------------------------------------------------------------------

def aptitudes_from(values: Mapping[str, Any]) -> dict[Aptitude, int]:
    """``values`` by aptitude code ("COG") or field name ("cognition"), as whole numbers.
    Raises InvalidSheet ("every_aptitude_needed") for a missing one."""
    out: dict[Aptitude, int] = {}
    for aptitude, field in APTITUDE_FIELDS.items():
        raw = values.get(aptitude.value, values.get(field))
        if raw is not None and not isinstance(raw, bool) and isinstance(raw, int):
            out[aptitude] = raw
    return out


@transaction.atomic
def eclipse_character_create(*, user, campaign: Campaign, name: str,
                             aptitudes: Mapping[str, Any], skills: Mapping[str, int] | None = None,
                             morph_id: int | None = None, now: datetime | None = None
                             ) -> Character:
    """A new Eclipse Phase player character of ``user``: an ego with ``aptitudes`` (by code or
    field name) and trained ``skills`` (the ranks learnt, added to the linked aptitude), Moxie
    at the campaign's default, sleeved in a new body of the morph template ``morph_id`` (none:
    an ego without a body until resleeved), whose aptitude maximum caps what its tests read.

    Raises NotEclipse, InvalidInput ("name_length", "name_taken"), CampaignClosed,
    NoSuchTemplate, InvalidSheet (gamerules.eclipse_phase.creation: aptitudes 5-30 spending
    105 points, skills of the catalogue with 1-99 ranks). Journaled (eclipse_create)."""
    params = require_eclipse(campaign)
    now = now or timezone.now()
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise InvalidInput("name_length", name_max=NAME_MAX)
    if not admits(user, campaign):
        raise CampaignClosed()
    trained = {str(k).strip(): v for k, v in (skills or {}).items() if v not in (None, 0)}
    if any(isinstance(v, bool) or not isinstance(v, int) for v in trained.values()):
        raise EclipseServiceError("amount_range", code="invalid_input", low=1, high=99)
    ego = validate_creation(name, aptitudes_from(aptitudes), trained, params)
    morph = _template(MorphTemplate, campaign, morph_id) if morph_id is not None else None
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # queue creations
    if Character.objects.filter(campaign=campaign, name__iexact=name).exists():
        raise InvalidInput("name_taken", name=name)
    try:
        with transaction.atomic():
            character = Character.objects.create(campaign=campaign, owner=user, name=name)
    except IntegrityError:
        raise InvalidInput("name_taken", name=name) from None
    sheet = EclipseSheet.objects.create(
        character=character, skills=dict(ego.skills), moxie=params.moxie_max_default,
        moxie_max=params.moxie_max_default,
        **{APTITUDE_FIELDS[a]: v for a, v in ego.aptitudes.items()})
    if morph is not None:
        sheet.sleeve = _new_sleeve(sheet, morph, now)
        sheet.save(update_fields=["sleeve"])
    _journal(sheet, KIND_CREATE, user=user, now=now,
             summary={"aptitudes": {a.value: v for a, v in ego.aptitudes.items()},
                      "skills": dict(ego.skills), "morph": morph.name if morph else ""})
    return character


# --- resleeving ------------------------------------------------------------------------------

@transaction.atomic
def resleeve(*, user, character: Character | int, morph_id: int, now: datetime | None = None
             ) -> EclipseSheet:
    """The ego moves into a new, undamaged body of the template ``morph_id``; it keeps its
    aptitudes, skills' ranks, Moxie, stress and traumas (gamerules.eclipse_phase.sheet.
    Character.resleeve): every linked skill and the lucidity then follow the new body's bonuses
    under its aptitude maximum. The old body stays as it was (its damage, wounds and worn armour), among the
    ego's ``sleeves``. The player or the GM; a player not while fighting. Raises NotFound,
    Forbidden, NoSuchTemplate, InEncounter. Journaled (eclipse_resleeve)."""
    now = now or timezone.now()
    sheet = _locked(character)
    require_actor(user, sheet.character)
    _not_fighting(user, sheet)
    morph = _template(MorphTemplate, sheet.character.campaign, morph_id)
    old = sheet.sleeve
    sheet.sleeve = _new_sleeve(sheet, morph, now)
    sheet.save(update_fields=["sleeve"])
    _journal(sheet, KIND_RESLEEVE, user=user, now=now,
             summary={"from": old.name if old else "", "to": morph.name,
                      "old_damage": old.damage if old else 0,
                      "old_wounds": old.wounds if old else 0, "stress": sheet.stress,
                      "traumas": sheet.traumas})
    return sheet


# --- gear ------------------------------------------------------------------------------------

@transaction.atomic
def weapon_equip(*, user, character: Character | int, template_id: int, spares: int = 0,
                 now: datetime | None = None) -> CarriedWeapon:
    """The character takes a weapon of the campaign's templates, its magazine full and
    ``spares`` full magazines (0 to 1000; none for a weapon without ammunition). The player or
    the GM; a player not while fighting. Raises NotFound, Forbidden, NoSuchTemplate,
    InEncounter, EclipseServiceError ("amount_range"). Journaled (eclipse_equip)."""
    sheet = _locked(character)
    require_actor(user, sheet.character)
    _not_fighting(user, sheet)
    weapon = _template(WeaponTemplate, sheet.character.campaign, template_id)
    weapon.rules()  # a template the rules refuse (a DV written past the admin) is not carried
    spares = _amount(spares) if weapon.magazine else 0
    carried = CarriedWeapon.objects.create(sheet=sheet, template=weapon, loaded=weapon.magazine,
                                           spares=spares)
    _journal(sheet, KIND_EQUIP, user=user, now=now,
             summary={"weapon": weapon.name, "loaded": carried.loaded, "spares": spares})
    return carried


@transaction.atomic
def weapon_unequip(*, user, character: Character | int, carried_id: int,
                   now: datetime | None = None) -> None:
    """The character drops a carried weapon. Raises NotFound, Forbidden, NotCarried,
    InEncounter. Journaled (eclipse_unequip)."""
    sheet = _locked(character)
    require_actor(user, sheet.character)
    _not_fighting(user, sheet)
    carried = (CarriedWeapon.objects.select_related("template")
               .filter(pk=carried_id, sheet=sheet).first())
    if carried is None:
        raise NotCarried()
    name = carried.template.name
    carried.delete()
    _journal(sheet, KIND_UNEQUIP, user=user, now=now, summary={"weapon": name})


def _sleeve_of(sheet: EclipseSheet) -> Sleeve:
    if sheet.sleeve is None:
        raise NoSleeve(name=sheet.character.name)
    return sheet.sleeve


@transaction.atomic
def armour_wear(*, user, character: Character | int, template_id: int,
                now: datetime | None = None) -> WornArmour:
    """The character's current body puts on armour of the campaign's templates (once each).
    Raises NotFound, Forbidden, NoSuchTemplate, NoSleeve, InEncounter, EclipseServiceError
    ("armour_worn_already"). Journaled (eclipse_equip)."""
    sheet = _locked(character)
    require_actor(user, sheet.character)
    _not_fighting(user, sheet)
    sleeve = _sleeve_of(sheet)
    armour = _template(ArmourTemplate, sheet.character.campaign, template_id)
    if WornArmour.objects.filter(sleeve=sleeve, template=armour).exists():
        raise EclipseServiceError("armour_worn_already", code="armour_worn_already",
                                  name=armour.name)
    worn = WornArmour.objects.create(sleeve=sleeve, template=armour)
    _journal(sheet, KIND_EQUIP, user=user, now=now,
             summary={"armour": armour.name, "energy": armour.energy, "kinetic": armour.kinetic})
    return worn


@transaction.atomic
def armour_remove(*, user, character: Character | int, worn_id: int,
                  now: datetime | None = None) -> None:
    """The current body takes armour off. Raises NotFound, Forbidden, NoSleeve, InEncounter,
    EclipseServiceError ("no_such_armour_worn", 404). Journaled (eclipse_unequip)."""
    sheet = _locked(character)
    require_actor(user, sheet.character)
    _not_fighting(user, sheet)
    sleeve = _sleeve_of(sheet)
    worn = WornArmour.objects.select_related("template").filter(pk=worn_id, sleeve=sleeve).first()
    if worn is None:
        raise NotCarried("no_such_armour_worn")
    name = worn.template.name
    worn.delete()
    _journal(sheet, KIND_UNEQUIP, user=user, now=now, summary={"armour": name})


# --- the game master's actions ---------------------------------------------------------------

@transaction.atomic
def heal(*, user, character: Character | int, damage: int = 0, wounds: int = 0,
         now: datetime | None = None) -> Sleeve:
    """The GM heals the current body: ``damage`` and ``wounds`` removed, never below 0
    (gamerules.eclipse_phase.health.heal). Raises NotFound, GameMasterOnly, NoSleeve,
    EclipseServiceError ("amount_range"). Journaled (eclipse_heal)."""
    sheet = _locked(character)
    require_game_master(user, sheet.character.campaign)
    sleeve = _sleeve_of(sheet)
    before = health_of(sleeve)
    after = rules_health.heal(before, damage=_amount(damage), wounds=_amount(wounds))
    sleeve.damage, sleeve.wounds = after.damage, after.wounds
    sleeve.save(update_fields=["damage", "wounds"])
    _journal(sheet, KIND_HEAL, user=user, now=now,
             summary={"sleeve": sleeve.name, "damage": [before.damage, after.damage],
                      "wounds": [before.wounds, after.wounds]})
    if after != before:  # its player is told, once this commits (the GM is not named)
        notify(users=[sheet.character.owner_id], code="healed_hidden",
               campaign_id=sheet.character.campaign_id,
               params={"character": sheet.character.name})
    return sleeve


@transaction.atomic
def stress_recover(*, user, character: Character | int, method: str, stress: int = 0,
                   traumas: int = 0, remove: Sequence[str] = (), now: datetime | None = None
                   ) -> EclipseSheet:
    """The GM's recovery of the ego by ``method`` "rest" or "psychosurgery": ``stress`` and
    ``traumas`` removed, and with psychosurgery the named derangements or disorders
    (gamerules.eclipse_phase.stress.recover; a permanently insane ego recovers no more).
    Raises NotFound, GameMasterOnly, EclipseServiceError ("not_a_recovery", "amount_range"),
    RecoveryRefused, InvalidSheet. Journaled (eclipse_recover)."""
    try:
        chosen = rules_stress.Recovery(method)
    except ValueError:
        raise EclipseServiceError("not_a_recovery", code="invalid_input", method=method) from None
    sheet = _locked(character)
    require_game_master(user, sheet.character.campaign)
    before = mind_of(sheet)
    after = rules_stress.recover(before, chosen, stress=_amount(stress),
                                 traumas=_amount(traumas), remove=tuple(remove))
    _write_mind(sheet, after)
    _journal(sheet, KIND_RECOVER, user=user, now=now,
             summary={"method": chosen.value, "stress": [before.stress, after.stress],
                      "traumas": [before.traumas, after.traumas], "removed": list(remove)})
    return sheet


SV_NOTATION_MAX = 24
KIND_STRESS = "eclipse_stress"


def _stress_value(sv: Any, rng) -> tuple[int, Any]:
    """A stress value: a whole number 0-1000, or dice notation ("1d10", "1d10+2"), rolled.
    Returns the value and the dice roll (None for a number). Raises EclipseServiceError
    ("stress_value_bad")."""
    from gamerules import dice

    if isinstance(sv, int) and not isinstance(sv, bool):
        return _amount(sv), None
    text = str(sv or "").strip().replace(" ", "")
    if text.isascii() and text.isdigit():  # not "²", nor 5,000 digits (campaigns.numbers)
        number = whole_number(text, negative=False, digits=9)
        if number is None:
            raise EclipseServiceError("amount_range", code="invalid_input", low=0,
                                      high=AMOUNT_MAX)
        return _amount(number), None
    if not text or len(text) > SV_NOTATION_MAX:
        raise EclipseServiceError("stress_value_bad", code="invalid_input", value=text[:40])
    try:
        roll = dice.roll(text, rng)
    except ValueError:
        raise EclipseServiceError("stress_value_bad", code="invalid_input",
                                  value=text) from None
    return min(max(0, roll.total), AMOUNT_MAX), roll


@transaction.atomic
def stress_inflict(*, user, character: Character | int, sv: Any, resist: bool = True,
                   source: str = "", rng=None, now: datetime | None = None
                   ) -> rules_stress.StressResult:
    """The GM inflicts a stress value on the ego (in or out of an encounter): ``sv`` a number
    or dice ("1d10", rolled), resisted with a WIL x3 test unless ``resist`` is off, the
    wounds of the current body and the traumas counted (gamerules.eclipse_phase.stress.
    take_stress). The stress kept, the new traumas and the insanity reached go on the sheet;
    the derangements due are named by the GM afterwards (derangement_name). Raises NotFound,
    GameMasterOnly, EclipseServiceError ("stress_value_bad", "amount_range"), InvalidSheet.
    Journaled (eclipse_stress) with the SV roll and the WIL test."""
    import random

    from campaigns.journal import roll_row
    from eclipse.defence import test_json, test_row
    from eclipse.selectors import rules_of

    rng = rng or random.SystemRandom()
    sheet = _locked(character)
    require_game_master(user, sheet.character.campaign)
    params = require_eclipse(sheet.character.campaign)
    value, roll = _stress_value(sv, rng)
    loaded = rules_of(sheet)
    result = rules_stress.take_stress(loaded.character, loaded.mind, value, rng, params,
                                      resist=resist, wounds=loaded.health.wounds)
    _write_mind(sheet, result.after)
    rolls = []
    if roll is not None:
        rolls.append(roll_row(label="stress value", roll=roll, actor=sheet.character))
    if result.resist is not None:
        rolls.append(test_row(result.resist, sheet.character))
    _journal(sheet, KIND_STRESS, user=user, now=now, rolls=rolls,
             summary={"sv": value, "sv_dice": str(sv) if roll is not None else "",
                      "resisted": resist, "test": test_json(result.resist),
                      "taken": result.taken, "trauma_threshold": result.trauma_threshold,
                      "new_traumas": result.new_traumas,
                      "stress": [result.before.stress, result.after.stress],
                      "traumas": [result.before.traumas, result.after.traumas],
                      "derangements_due": result.derangements_due,
                      "disorder_due": result.disorder_due,
                      "condition": result.condition.value,
                      "source": (source or "").strip()[:120]})
    return result


def _write_mind(sheet: EclipseSheet, mind: rules_stress.Mind) -> None:
    sheet.stress, sheet.traumas, sheet.insane = mind.stress, mind.traumas, mind.insane
    sheet.derangements, sheet.disorders = list(mind.derangements), list(mind.disorders)
    sheet.save(update_fields=["stress", "traumas", "insane", "derangements", "disorders"])


@transaction.atomic
def derangement_name(*, user, character: Character | int, name: str, disorder: bool = False,
                     now: datetime | None = None) -> EclipseSheet:
    """The GM names a derangement (or disorder) the ego now has (a trauma asks for one).
    Raises NotFound, GameMasterOnly, InvalidSheet ("derangement_needs_name"). Journaled."""
    sheet = _locked(character)
    require_game_master(user, sheet.character.campaign)
    label = (name or "").strip()[:120]
    after = rules_stress.name_derangement(mind_of(sheet), label, disorder=disorder)
    _write_mind(sheet, after)
    _journal(sheet, KIND_RECOVER, user=user, now=now,
             summary={"named": label, "disorder": disorder})
    return sheet


@transaction.atomic
def moxie_spend(*, user, character: Character | int, reason: str = "",
                now: datetime | None = None) -> EclipseSheet:
    """One Moxie point spent (a test flipped at the table, the GM's call). The player or the GM.
    A test rolled here flips with gamerules.eclipse_phase.checks.spend_moxie in its own action.
    Raises NotFound, Forbidden, NoMoxie ("no_moxie_point"). Journaled (eclipse_moxie)."""
    sheet = _locked(character)
    require_actor(user, sheet.character)
    if sheet.moxie < 1:
        raise NoMoxie("no_moxie_point", moxie=sheet.moxie)
    sheet.moxie -= 1
    sheet.save(update_fields=["moxie"])
    _journal(sheet, KIND_MOXIE, user=user, now=now,
             summary={"spent": 1, "moxie": sheet.moxie, "reason": (reason or "").strip()[:120]})
    return sheet


@transaction.atomic
def moxie_refresh(*, user, character: Character | int, now: datetime | None = None
                  ) -> EclipseSheet:
    """The GM refreshes Moxie to its maximum (a new session). Raises NotFound, GameMasterOnly,
    EclipseServiceError ("moxie_full"). Journaled (eclipse_moxie)."""
    sheet = _locked(character)
    require_game_master(user, sheet.character.campaign)
    if sheet.moxie >= sheet.moxie_max:
        raise EclipseServiceError("moxie_full", code="moxie_full", max=sheet.moxie_max)
    before, sheet.moxie = sheet.moxie, sheet.moxie_max
    sheet.save(update_fields=["moxie"])
    _journal(sheet, KIND_MOXIE, user=user, now=now,
             summary={"refreshed": [before, sheet.moxie], "moxie": sheet.moxie})
    return sheet


__all__ = ["armour_remove", "armour_wear", "derangement_name", "eclipse_character_create", "heal",
           "moxie_refresh", "moxie_spend", "resleeve", "sheet_default", "sheets_copy",
           "stress_inflict", "stress_recover", "weapon_equip", "weapon_unequip"]
