"""The character: an ego (mind, skills, Moxie, lucidity) sleeved in a morph (body).

Source: 001_e6266c120d4801b4.txt, "Succès / Échecs": "Les tests se font à l'aide de
compétences, échelonnées de 1 à 99. Quand on ne possède pas une compétence, on peut se défausser
sur l'aptitude correspondante (COGnition, COOrdination, INTuition, RÉFlexes, ASTuce, SOMatique,
VOLonté.)"; "Combat", "Dommages": "la caractéristique de DURabilité (~30) de son morph",
"Chaque morph possède un Seuil de Blessure (~7-10+)"; "Santé Mentale & stress": "ego (pendant
psychique du perso, par opposition au morph)", "LUCidité (équivalent à la DUR physique)";
"Actions": "VITesse (base 1, variable selon le morph et les implants possédés)".

Shapes (the first edition's, ECLIPSE-PHASE-NOTES.md and docs/rules/eclipse-phase.md
"Characters"): an aptitude is the ego's value plus the morph's bonus, capped by the morph's
aptitude maximum (``Morph.aptitude_max``; none, or ``aptitude_max_per_morph`` off: the flat
``aptitude_max``). A skill is its linked aptitude plus the ranks the ego learnt
(``Ego.skills``, 0-99), at most 99: resleeving moves every linked skill, trained or not, and a
trained skill is never below its untrained default. An untrained skill defaults to its linked
aptitude (``SKILL_APTITUDES``; a skill outside the catalogue needs its aptitude named), except
the skills that cannot default (``NO_DEFAULT_SKILLS``: the psi skills and the technical ones,
refused with ``SkillUntrained`` unless ``default_any_skill`` is on). Lucidity, trauma threshold
and insanity rating come from the aptitude WIL (ego + morph) unless the ego sets them. A pain
filter (a morph's trait, or an implant added to a body) ignores one wound's malus on tests
and initiative (``felt_wounds``). ``Character.resleeve`` changes the morph and keeps the ego
(and its stress); the new body starts undamaged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any, Final

from gamerules.eclipse_phase.errors import InvalidSheet, SkillUntrained
from gamerules.eclipse_phase.gear import Armour
from gamerules.eclipse_phase.params import EclipsePhaseParameters


class Aptitude(StrEnum):
    COG = "COG"  # COGnition
    COO = "COO"  # COOrdination
    INT = "INT"  # INTuition
    REF = "REF"  # RÉFlexes
    SAV = "SAV"  # ASTuce (savvy)
    SOM = "SOM"  # SOMatique
    WIL = "WIL"  # VOLonté


# The first edition's skills that combat uses, with their linked aptitude.
SKILL_APTITUDES: dict[str, Aptitude] = {
    "fray": Aptitude.REF,  # dodge ("esquive")
    "blades": Aptitude.SOM, "clubs": Aptitude.SOM, "unarmed_combat": Aptitude.SOM,
    "beam_weapons": Aptitude.COO, "kinetic_weapons": Aptitude.COO,
    "seeker_weapons": Aptitude.COO, "spray_weapons": Aptitude.COO,
    "throwing_weapons": Aptitude.COO, "gunnery": Aptitude.INT,
    "perception": Aptitude.INT, "infiltration": Aptitude.COO,
    "freerunning": Aptitude.SOM, "freefall": Aptitude.REF, "climbing": Aptitude.SOM,
    "psi_assault": Aptitude.WIL, "medicine": Aptitude.COG, "psychosurgery": Aptitude.INT,
    "control": Aptitude.WIL, "sense": Aptitude.INT,
    "demolitions": Aptitude.COG, "infosec": Aptitude.COG, "programming": Aptitude.COG,
}

# The first edition's skills marked "no defaulting" (EPSheet's skill list, Bathtor/EPSheet
# model/.../Skills.scala: the psi skills control, psi assault and sense; the technical
# demolitions, infosec and programming): untrained, they cannot be used at all.
NO_DEFAULT_SKILLS: frozenset[str] = frozenset(
    {"psi_assault", "control", "sense", "demolitions", "infosec", "programming"})

SKILL_MIN, SKILL_MAX = 1, 99  # a skill's rating (aptitude + ranks, at most 99)
RANKS_MIN, RANKS_MAX = 0, 99  # what an ego learnt of a skill


class MorphKind(StrEnum):
    BIOMORPH = "biomorph"
    SYNTHMORPH = "synthmorph"
    POD = "pod"  # biological with synthetic parts: dies like a biomorph

    @property
    def synthetic(self) -> bool:
        return self is MorphKind.SYNTHMORPH


class Trait(StrEnum):
    AMBIDEXTROUS = "ambidextrous"
    EXTRA_LIMBS = "extra_limbs"
    PAIN_FILTER = "pain_filter"  # one wound's malus ignored (first edition's implant)


# Two limbs hold a weapon each, the off hand at -20; more limbs (seed 001, "Deux Armes (ou plus)":
# "Les octomorphes ou certains synthémorphes avec 6-10+ membres, peuvent utiliser de nombreuses
# armes sans malus") take no off-hand malus.
TWO_LIMBS: Final = 2


@dataclass(frozen=True)
class Morph:
    """A body. ``durability`` (DUR); ``wound_threshold`` and ``death_rating`` None: computed;
    ``armour_energy``/``armour_kinetic`` built-in armour; ``speed`` SPD (action phases);
    ``aptitude_bonus`` added to the ego's aptitudes; ``limbs`` able to hold a weapon (2; an
    octomorph 8); ``initiative_bonus`` added to the initiative base; ``aptitude_max`` the
    highest aptitude in this body (None: the campaign's flat ``aptitude_max``)."""

    name: str
    kind: MorphKind = MorphKind.BIOMORPH
    durability: int = 30
    wound_threshold: int | None = None
    death_rating: int | None = None
    armour_energy: int = 0
    armour_kinetic: int = 0
    speed: int = 1
    traits: frozenset[Trait] = frozenset()
    mesh_implants: bool = True
    limbs: int = TWO_LIMBS
    aptitude_bonus: Mapping[Aptitude, int] = field(default_factory=dict)
    initiative_bonus: int = 0
    aptitude_max: int | None = None

    def __post_init__(self) -> None:
        if self.aptitude_max is not None and self.aptitude_max < 1:
            raise InvalidSheet("morph_least_1", name="aptitude_max")
        if self.durability < 1:
            raise InvalidSheet("morph_dur_least", durability=self.durability)
        if self.speed < 1:
            raise InvalidSheet("morph_spd_least", speed=self.speed)
        for name in ("wound_threshold", "death_rating"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InvalidSheet("morph_least_1", name=name)
        if self.armour_energy < 0 or self.armour_kinetic < 0 or self.limbs < 0:
            raise InvalidSheet("armour_limbs_are")

    @property
    def ambidextrous(self) -> bool:
        return Trait.AMBIDEXTROUS in self.traits

    @property
    def extra_limbs(self) -> bool:
        return Trait.EXTRA_LIMBS in self.traits or self.limbs > TWO_LIMBS

    @property
    def pain_filter(self) -> bool:
        return Trait.PAIN_FILTER in self.traits

    def felt_wounds(self, wounds: int) -> int:
        """The wounds whose malus counts on tests and initiative: one fewer with a pain
        filter (first edition: it "ignores the -10 modifier from one wound")."""
        return max(0, wounds - 1) if self.pain_filter else wounds

    def cap(self, params: EclipsePhaseParameters) -> int:
        """The highest aptitude in this body: its own maximum (the first edition's per-morph
        value) unless the campaign plays the flat ``aptitude_max`` (``aptitude_max_per_morph``
        off) or the morph gives none."""
        if params.aptitude_max_per_morph and self.aptitude_max is not None:
            return self.aptitude_max
        return params.aptitude_max

    def wt(self, params: EclipsePhaseParameters) -> int:
        """The wound threshold: the morph's, else ceil(DUR / ``wound_threshold_divisor``)."""
        if self.wound_threshold is not None:
            return self.wound_threshold
        return max(1, -(-self.durability // params.wound_threshold_divisor))

    def dr(self, params: EclipsePhaseParameters) -> int:
        """The death rating: the morph's, else ceil(DUR x 1.5) (biomorph, pod) or DUR x 2
        (synthmorph)."""
        if self.death_rating is not None:
            return self.death_rating
        factor = params.death_multiplier_synth if self.kind.synthetic else params.death_multiplier_bio
        return math.ceil(Decimal(self.durability) * factor)

    def spd(self, params: EclipsePhaseParameters) -> int:
        return min(self.speed, params.speed_max)


@dataclass(frozen=True)
class Ego:
    """The mind. ``aptitudes`` every one of the seven (the ego's own, before any morph);
    ``skills`` name -> ranks learnt 0-99 (trained skills only: a skill listed is trained, even
    at 0 ranks); ``skill_aptitudes`` links a skill outside ``SKILL_APTITUDES``; ``lucidity``,
    ``trauma_threshold``, ``insanity_rating`` None: computed from the aptitude WIL
    (``Character.luc``)."""

    name: str
    aptitudes: Mapping[Aptitude, int]
    skills: Mapping[str, int] = field(default_factory=dict)
    skill_aptitudes: Mapping[str, Aptitude] = field(default_factory=dict)
    moxie: int = 3
    lucidity: int | None = None
    trauma_threshold: int | None = None
    insanity_rating: int | None = None

    def __post_init__(self) -> None:
        missing = [a.value for a in Aptitude if a not in self.aptitudes]
        if missing:
            raise InvalidSheet("every_aptitude_needed", missing=", ".join(missing))
        for name, ranks in self.skills.items():
            if not RANKS_MIN <= ranks <= RANKS_MAX:
                raise InvalidSheet("skill_ranks", low=RANKS_MIN, high=RANKS_MAX, skill=name,
                                   ranks=ranks)
        if self.moxie < 0:
            raise InvalidSheet("moxie_never_negative", moxie=self.moxie)

    def linked(self, name: str) -> Aptitude | None:
        """The aptitude a skill is linked to (the ego's own link first, then the catalogue)."""
        return self.skill_aptitudes.get(name) or SKILL_APTITUDES.get(name)


# --- what the game master writes: names from the known lists -----------------------------------
# The admin's JSON fields (a morph's traits and aptitude bonuses, a sleeve's implants, an ego's
# skills and the aptitudes of other skills) are read strictly here: an unknown name is refused
# with the list it should come from, rather than dropped when the sheet is played.

def trait_of(name: Any) -> Trait:
    """The trait named ``name``. Raises InvalidSheet ("unknown_trait")."""
    if isinstance(name, str) and name in Trait.__members__.values():
        return Trait(name)
    raise InvalidSheet("unknown_trait", trait=name, known=", ".join(t.value for t in Trait))


def traits_of(names: Any) -> frozenset[Trait]:
    """The traits of a list of names. Raises InvalidSheet ("traits_shape", "unknown_trait")."""
    if not isinstance(names, (list, tuple)):
        raise InvalidSheet("traits_shape")
    return frozenset(trait_of(n) for n in names)


def aptitude_of(code: Any) -> Aptitude:
    """The aptitude of ``code`` ("COG"...). Raises InvalidSheet ("unknown_aptitude")."""
    if isinstance(code, str) and code in Aptitude.__members__:
        return Aptitude(code)
    raise InvalidSheet("unknown_aptitude", aptitude=code, known=", ".join(a.value for a in Aptitude))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def aptitude_bonus_of(values: Any) -> dict[Aptitude, int]:
    """A morph's bonuses ({"SOM": 5}). Raises InvalidSheet ("aptitude_bonus_shape",
    "unknown_aptitude")."""
    if not isinstance(values, Mapping) or not all(_whole(v) for v in values.values()):
        raise InvalidSheet("aptitude_bonus_shape")
    return {aptitude_of(k): v for k, v in values.items()}


def skill_links_of(values: Any) -> dict[str, Aptitude]:
    """An ego's links of skills outside the catalogue ({"pilot_groundcraft": "REF"}). Raises
    InvalidSheet ("skill_links_shape", "unknown_aptitude")."""
    if not isinstance(values, Mapping) or not all(isinstance(k, str) and k for k in values):
        raise InvalidSheet("skill_links_shape")
    return {k: aptitude_of(v) for k, v in values.items()}


def skills_of(values: Any, links: Mapping[str, Aptitude]) -> dict[str, int]:
    """An ego's trained skills and their ranks ({"fray": 25}), each in the catalogue or linked
    in ``links``. Raises InvalidSheet ("skills_shape", "unknown_skill", "skill_ranks")."""
    if not isinstance(values, Mapping) or not all(_whole(v) for v in values.values()):
        raise InvalidSheet("skills_shape")
    for name, ranks in values.items():
        if name not in SKILL_APTITUDES and name not in links:
            raise InvalidSheet("unknown_skill", skill=name)
        if not RANKS_MIN <= ranks <= RANKS_MAX:
            raise InvalidSheet("skill_ranks", low=RANKS_MIN, high=RANKS_MAX, skill=name,
                               ranks=ranks)
    return dict(values)


def names_of(values: Any) -> tuple[str, ...]:
    """A list of names (derangements, disorders). Raises InvalidSheet ("names_shape")."""
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) and v.strip()
                                                         for v in values):
        raise InvalidSheet("names_shape")
    return tuple(values)


def ranks_for(ratings: Mapping[str, int], aptitudes: Mapping[Aptitude, int],
              links: Mapping[str, Aptitude] | None = None) -> dict[str, int]:
    """What an ego learnt of each skill rated ``ratings`` under its own aptitudes, before any
    morph: the rating less the linked aptitude, never below 0 (a skill without a linked
    aptitude keeps its rating as ranks). How eclipse's migration 0004 reads the ratings stored
    before skills were aptitude + ranks, and how the demo's tables are written."""
    out = {}
    for name, rating in ratings.items():
        linked = (links or {}).get(name) or SKILL_APTITUDES.get(name)
        out[name] = max(0, rating - (aptitudes[linked] if linked else 0))
    return out


@dataclass(frozen=True)
class SkillRating:
    """How a skill's rating is made: ``aptitude`` its linked aptitude's code ("" for none),
    ``ego_aptitude`` the ego's own value, ``aptitude_value`` with the morph's bonus under its
    maximum, ``ranks`` learnt (0 untrained), ``rating`` what a test reads. ``from_ego`` (the
    ego's aptitude and ranks) + ``from_morph`` (the bonus, less what the maximum cuts) =
    ``rating``."""

    name: str
    aptitude: str
    ego_aptitude: int
    aptitude_value: int
    ranks: int
    rating: int
    trained: bool
    usable: bool

    @property
    def from_ego(self) -> int:
        return self.ego_aptitude + self.ranks

    @property
    def from_morph(self) -> int:
        return self.rating - self.from_ego


@dataclass(frozen=True)
class Character:
    """An ego in a morph, with armour ``worn`` over the morph's own."""

    ego: Ego
    morph: Morph
    worn: tuple[Armour, ...] = ()

    def aptitude(self, which: Aptitude, params: EclipsePhaseParameters) -> int:
        """The ego's aptitude plus the morph's bonus, capped by the morph's aptitude maximum
        (``Morph.cap``), at least 1."""
        value = self.ego.aptitudes[which] + self.morph.aptitude_bonus.get(which, 0)
        return max(1, min(value, self.morph.cap(params)))

    def rating(self, name: str, params: EclipsePhaseParameters) -> SkillRating:
        """The skill's rating and how it is made: linked aptitude + ranks (at most 99) when
        trained, the linked aptitude when untrained (seed: "se défausser sur l'aptitude
        correspondante"); ``usable`` false for an untrained skill that cannot default. Raises
        InvalidSheet for an unknown untrained skill."""
        linked = self.ego.linked(name)
        trained = name in self.ego.skills
        if linked is None and not trained:
            raise InvalidSheet("unknown_skill_name", skill=name)
        ego_value = self.ego.aptitudes[linked] if linked else 0
        value = self.aptitude(linked, params) if linked else 0
        ranks = self.ego.skills.get(name, 0)
        rating = max(SKILL_MIN, min(SKILL_MAX, value + ranks))
        usable = trained or name not in NO_DEFAULT_SKILLS or params.default_any_skill
        return SkillRating(name, linked.value if linked else "", ego_value, value, ranks, rating,
                           trained, usable)

    def skill(self, name: str, params: EclipsePhaseParameters) -> int:
        """The rating a test reads (``rating``). Raises InvalidSheet for an unknown untrained
        skill, SkillUntrained for an untrained one that cannot default."""
        r = self.rating(name, params)
        if not r.usable:
            raise SkillUntrained("skill_cannot_default", skill=name)
        return r.rating

    def can_use(self, name: str, params: EclipsePhaseParameters) -> bool:
        """Whether a test of ``name`` may be rolled (trained, or allowed to default)."""
        try:
            return self.rating(name, params).usable
        except InvalidSheet:
            return False

    def trained(self, name: str) -> bool:
        return name in self.ego.skills

    def luc(self, params: EclipsePhaseParameters) -> int:
        """Lucidity: the ego's, else the aptitude WIL (ego + morph) x ``lucidity_per_wil``."""
        if self.ego.lucidity is not None:
            return self.ego.lucidity
        return self.aptitude(Aptitude.WIL, params) * params.lucidity_per_wil

    def tt(self, params: EclipsePhaseParameters) -> int:
        """Trauma threshold: the ego's, else ceil(LUC / ``trauma_threshold_divisor``)."""
        if self.ego.trauma_threshold is not None:
            return self.ego.trauma_threshold
        return max(1, -(-self.luc(params) // params.trauma_threshold_divisor))

    def ir(self, params: EclipsePhaseParameters) -> int:
        """Insanity rating: the ego's, else LUC x ``insanity_per_lucidity``."""
        if self.ego.insanity_rating is not None:
            return self.ego.insanity_rating
        return self.luc(params) * params.insanity_per_lucidity

    @property
    def pain_filter(self) -> bool:
        return self.morph.pain_filter

    def armour(self, kind: str) -> int:
        """Total armour against "energy" or "kinetic" (the morph's plus what is worn)."""
        if kind == "energy":
            return self.morph.armour_energy + sum(a.energy for a in self.worn)
        if kind == "kinetic":
            return self.morph.armour_kinetic + sum(a.kinetic for a in self.worn)
        return 0  # psi: no armour

    def resleeve(self, morph: Morph) -> Character:
        """The same ego in ``morph`` (worn armour stays with the old body)."""
        return replace(self, morph=morph, worn=())
