"""Reading Eclipse Phase sheets: the rows turned into the pure rules' values in constant queries.

``loaded_sheets(ids)`` reads any number of sheets in three queries (the sheets with their
characters, campaigns and current sleeves; their carried weapons with templates; the armour
worn over their current sleeves with templates); ``rules_of(sheet)`` then builds, in memory,
the pure ``gamerules.eclipse_phase.sheet.Character`` (ego, morph, worn armour), the sleeve's
``health.Health``, the ego's ``stress.Mind`` and each carried weapon's ``gear.Weapon`` and
``gear.Magazine``. Services and the encounter read these; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from campaigns import live
from campaigns.errors import NotFound, SheetMissing
from campaigns.permissions import allowed
from characters.models import Character
from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve, WornArmour
from gamerules.eclipse_phase import gear
from gamerules.eclipse_phase.errors import EclipseError
from gamerules.eclipse_phase.health import Health
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import (Aptitude, Ego, Morph, MorphKind, Trait,
                                            aptitude_bonus_of, names_of, skill_links_of,
                                            skills_of, traits_of)
from gamerules.eclipse_phase.sheet import Character as RulesCharacter
from gamerules.eclipse_phase.stress import Mind

SHEET_RELATED = ("character__campaign", "sleeve")


def weapons_prefetch() -> Prefetch:
    return Prefetch("weapons", queryset=CarriedWeapon.objects.select_related("template"))


def armour_prefetch(prefix: str = "sleeve__") -> Prefetch:
    return Prefetch(f"{prefix}armour", queryset=WornArmour.objects.select_related("template"))


def sheets_loaded(queryset: QuerySet | None = None) -> QuerySet:
    """Sheets with everything ``rules_of`` reads: three queries whatever their number."""
    qs = queryset if queryset is not None else EclipseSheet.objects.all()
    return qs.select_related(*SHEET_RELATED).prefetch_related(weapons_prefetch(),
                                                             armour_prefetch())


def lock_sheets(character_ids: Iterable[int]) -> list[int]:
    """Lock the sheets of ``character_ids`` until the caller's transaction ends (``SELECT ...
    FOR UPDATE``, in id order, one query) and return their ids, sorted. Read them after, never
    in the locking query: PostgreSQL re-checks only the locked row once the lock is had, so a
    sleeve joined to it would be the one from before the holder's change.

    A sheet is locked to be changed (every writer of Eclipse sheets locks here: the sheet
    services, the encounter's actions): its sheet pages are told once the transaction commits
    (the ``character-<id>`` topic, campaigns.live; once per transaction, and nothing if it
    rolls back)."""
    ids = sorted(set(character_ids))
    list(EclipseSheet.objects.select_for_update().filter(pk__in=ids).order_by("pk")
         .values_list("pk", flat=True))
    live.announce_all(live.topic("character", pk) for pk in ids)
    return ids


def locked_sheets(character_ids: Iterable[int]) -> dict[int, EclipseSheet]:
    """``loaded_sheets`` after ``lock_sheets``: the GM's healing and a Moxie spent lock them
    too (eclipse.services), so a write made from what was read here cannot lose theirs."""
    return loaded_sheets(lock_sheets(character_ids))


def loaded_sheets(character_ids: Iterable[int]) -> dict[int, EclipseSheet]:
    """The sheets of ``character_ids`` (missing ones left out), by character id."""
    return {s.pk: s for s in sheets_loaded(EclipseSheet.objects.filter(pk__in=set(character_ids)))}


def morph_of(row, *, strict: bool = False) -> Morph:
    """The pure morph of a MorphTemplate or a Sleeve row (a sleeve's implants added after it
    was made, a pain filter, count as its traits). ``strict`` (the admin's check): an unknown
    aptitude or trait raises InvalidSheet instead of being left out, as a stored row's are."""
    if strict:
        bonus = aptitude_bonus_of(row.aptitude_bonus or {})
        traits = traits_of(row.traits or []) | traits_of(getattr(row, "implants", None) or [])
        return _morph(row, bonus, traits)
    bonus = {Aptitude(k): int(v) for k, v in (row.aptitude_bonus or {}).items()
             if k in Aptitude.__members__}
    known = {x.value for x in Trait}
    given = [*(row.traits or []), *(getattr(row, "implants", None) or [])]
    traits = frozenset(Trait(t) for t in given if t in known)
    return _morph(row, bonus, traits)


def _morph(row, bonus, traits) -> Morph:
    return Morph(name=row.name, kind=MorphKind(row.kind), durability=row.durability,
                 wound_threshold=row.wound_threshold, death_rating=row.death_rating,
                 armour_energy=row.armour_energy, armour_kinetic=row.armour_kinetic,
                 speed=row.speed, traits=traits, mesh_implants=row.mesh_implants,
                 limbs=row.limbs, aptitude_bonus=bonus, initiative_bonus=row.initiative_bonus,
                 aptitude_max=row.aptitude_max)


def ego_of(sheet: EclipseSheet, *, strict: bool = False) -> Ego:
    """The pure ego of a sheet row. ``strict`` (the admin's check): a skill outside the
    catalogue and unlinked, an unknown aptitude, or a list that is not one raise InvalidSheet
    instead of being left out."""
    if strict:
        links = skill_links_of(sheet.skill_aptitudes or {})
        skills_of(sheet.skills or {}, links)
        names_of(sheet.derangements or [])
        names_of(sheet.disorders or [])
        return Ego(name="", aptitudes=sheet.aptitudes(),  # the name is not the ego's to check
                   skills=dict(sheet.skills or {}), skill_aptitudes=links, moxie=sheet.moxie,
                   lucidity=sheet.lucidity, trauma_threshold=sheet.trauma_threshold,
                   insanity_rating=sheet.insanity_rating)
    links = {name: Aptitude(code) for name, code in (sheet.skill_aptitudes or {}).items()
             if code in Aptitude.__members__}
    return Ego(name=sheet.character.name, aptitudes=sheet.aptitudes(),
               skills={k: int(v) for k, v in (sheet.skills or {}).items()},
               skill_aptitudes=links, moxie=sheet.moxie, lucidity=sheet.lucidity,
               trauma_threshold=sheet.trauma_threshold, insanity_rating=sheet.insanity_rating)


def health_of(sleeve: Sleeve | None) -> Health:
    if sleeve is None:
        return Health()
    return Health(damage=sleeve.damage, wounds=sleeve.wounds, knocked_down=sleeve.knocked_down,
                  stunned=sleeve.stunned)


def mind_of(sheet: EclipseSheet) -> Mind:
    return Mind(stress=sheet.stress, traumas=sheet.traumas,
                derangements=tuple(sheet.derangements or ()),
                disorders=tuple(sheet.disorders or ()), insane=sheet.insane)


NO_MORPH = Morph(name="(no morph)", durability=1)  # an ego without a sleeve (infomorph)


@dataclass(frozen=True)
class Armed:
    """A carried weapon: its row, the pure weapon and its magazine."""

    row: CarriedWeapon
    weapon: gear.Weapon
    magazine: gear.Magazine


@dataclass(frozen=True)
class Loaded:
    """One sheet as the rules see it. ``sheet`` is the row it came from."""

    sheet: EclipseSheet
    character: RulesCharacter
    health: Health
    mind: Mind
    weapons: tuple[Armed, ...]

    @property
    def sleeved(self) -> bool:
        return self.sheet.sleeve_id is not None


def worn_armour(sleeve: Sleeve | None) -> tuple[gear.Armour, ...]:
    if sleeve is None:
        return ()
    return tuple(w.template.rules() for w in sleeve.armour.all())


def rules_of(sheet: EclipseSheet) -> Loaded:
    """The pure values of a sheet loaded by ``sheets_loaded`` (no query). Raises InvalidSheet
    for a row the rules refuse (a value written around the services)."""
    sleeve = sheet.sleeve
    morph = morph_of(sleeve) if sleeve is not None else NO_MORPH
    character = RulesCharacter(ego=ego_of(sheet), morph=morph, worn=worn_armour(sleeve))
    weapons = tuple(Armed(w, w.template.rules(), w.magazine()) for w in sheet.weapons.all())
    return Loaded(sheet, character, health_of(sleeve), mind_of(sheet), weapons)


def character_with_sheet(*, user, character_id: int) -> Character:
    """The character with its campaign, sheet, current sleeve, weapons and armour (three
    queries), if ``user`` may see it. Raises NotFound (missing or not visible), SheetMissing."""
    character = (Character.objects
                 .select_related("campaign", "owner", "eclipse__sleeve")
                 .prefetch_related(Prefetch("eclipse__weapons",
                                            queryset=CarriedWeapon.objects.select_related(
                                                "template")),
                                   armour_prefetch("eclipse__sleeve__"))
                 .filter(pk=character_id).first())
    if character is None or not allowed(user, "characters.view_sheet", character):
        raise NotFound("no_such_character")
    if not hasattr(character, "eclipse"):
        raise SheetMissing()
    return character


def loaded_view(character) -> Loaded | None:
    """``rules_of`` the character's sheet, loading what it lacks (three queries at most, none
    when ``character_with_sheet`` loaded it). None without a sheet; a sheet the rules refuse
    (written around the services) is shown as None too."""
    sheet = getattr(character, "eclipse", None)
    if sheet is None:
        return None
    prefetch_related_objects([sheet], "sleeve", armour_prefetch(), weapons_prefetch())
    try:
        return rules_of(sheet)
    except EclipseError:
        return None


@dataclass(frozen=True)
class AptitudeLine:
    code: str
    ego: int
    bonus: int
    total: int


@dataclass(frozen=True)
class SkillLine:
    """A skill as the sheet shows it: ``rating`` what a test reads, ``from_ego`` the ego's own
    aptitude and ranks, ``from_morph`` the morph's bonus less what its maximum cuts;
    ``usable`` false for an untrained skill that cannot default."""

    name: str
    rating: int
    trained: bool
    aptitude: str
    ranks: int = 0
    from_ego: int = 0
    from_morph: int = 0
    usable: bool = True

    def as_json(self) -> dict:
        return {"rating": self.rating, "aptitude": self.aptitude, "ranks": self.ranks,
                "from_ego": self.from_ego, "from_morph": self.from_morph,
                "trained": self.trained, "usable": self.usable}


@dataclass(frozen=True)
class Figures:
    """What the sheet shows, computed from ``loaded`` with the campaign's ``params``: the
    aptitudes with the morph's bonus under its maximum (``aptitude_max``), the skills (trained
    and the catalogue's defaults, each split into what comes from the ego and from the morph),
    the morph's thresholds, the ego's lucidity in this morph, the conditions."""

    loaded: Loaded
    aptitude_max: int
    pain_filter: bool
    aptitudes: tuple[AptitudeLine, ...]
    skills: tuple[SkillLine, ...]
    durability: int
    wound_threshold: int
    death_rating: int
    speed: int
    lucidity: int
    trauma_threshold: int
    insanity_rating: int
    armour_energy: int
    armour_kinetic: int
    condition: str
    mental_condition: str
    initiative_base: int


def figures_of(loaded: Loaded, params: EclipsePhaseParameters) -> Figures:
    from gamerules.eclipse_phase.health import condition
    from gamerules.eclipse_phase.sheet import SKILL_APTITUDES
    from gamerules.eclipse_phase.stress import mental_condition
    from gamerules.eclipse_phase.turn import initiative_base

    c = loaded.character
    aptitudes = tuple(AptitudeLine(a.value, c.ego.aptitudes[a], c.morph.aptitude_bonus.get(a, 0),
                                   c.aptitude(a, params)) for a in Aptitude)
    names = sorted(set(SKILL_APTITUDES) | set(c.ego.skills))
    skills = []
    for name in names:
        if c.ego.linked(name) is None and not c.trained(name):
            continue
        r = c.rating(name, params)
        skills.append(SkillLine(name, r.rating, r.trained, r.aptitude, r.ranks, r.from_ego,
                                r.from_morph, r.usable))
    morph = c.morph
    return Figures(
        loaded, morph.cap(params), morph.pain_filter, aptitudes, tuple(skills),
        morph.durability, morph.wt(params), morph.dr(params),
        morph.spd(params), c.luc(params), c.tt(params), c.ir(params),
        c.armour("energy"), c.armour("kinetic"),
        condition(loaded.health, morph, params).value if loaded.sleeved else "",
        mental_condition(loaded.mind, c, params).value, initiative_base(c, params))


def params_of(encounter) -> EclipsePhaseParameters:
    """The Eclipse Phase parameters of ``encounter``'s campaign (the defaults for another
    system's, whose parameters are not Eclipse Phase's)."""
    params = encounter.campaign.parameters
    return params if isinstance(params, EclipsePhaseParameters) else EclipsePhaseParameters()
