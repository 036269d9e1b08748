"""The character: an ego (mind, skills, Moxie, lucidity) sleeved in a morph (body).

Source: 001_e6266c120d4801b4.txt, "Succès / Échecs": "Les tests se font à l'aide de
compétences, échelonnées de 1 à 99. Quand on ne possède pas une compétence, on peut se défausser
sur l'aptitude correspondante (COGnition, COOrdination, INTuition, RÉFlexes, ASTuce, SOMatique,
VOLonté.)"; "Combat", "Dommages": "la caractéristique de DURabilité (~30) de son morph",
"Chaque morph possède un Seuil de Blessure (~7-10+)"; "Santé Mentale & stress": "ego (pendant
psychique du perso, par opposition au morph)", "LUCidité (équivalent à la DUR physique)";
"Actions": "VITesse (base 1, variable selon le morph et les implants possédés)".

Shapes: aptitudes are ints (1 to ``aptitude_max``, the ego's value plus the morph's bonus);
skills 1-99; an untrained skill defaults to its linked aptitude (``SKILL_APTITUDES``; a skill
that is not in the catalogue needs its aptitude named). Where the morph or ego gives no wound
threshold, death rating, lucidity, trauma threshold or insanity rating, the first edition's
formulas compute them from the parameters. ``Character.resleeve`` changes the morph and keeps
the ego (and its stress); the new body starts undamaged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from typing import Mapping

from gamerules.eclipse_phase.errors import InvalidSheet
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
}

SKILL_MIN, SKILL_MAX = 1, 99


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


@dataclass(frozen=True)
class Morph:
    """A body. ``durability`` (DUR); ``wound_threshold`` and ``death_rating`` None: computed;
    ``armour_energy``/``armour_kinetic`` built-in armour; ``speed`` SPD (action phases);
    ``aptitude_bonus`` added to the ego's aptitudes; ``limbs`` able to hold a weapon (2; an
    octomorph 8); ``initiative_bonus`` added to the initiative base."""

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
    limbs: int = 2
    aptitude_bonus: Mapping[Aptitude, int] = field(default_factory=dict)
    initiative_bonus: int = 0

    def __post_init__(self) -> None:
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
        return Trait.EXTRA_LIMBS in self.traits or self.limbs > 2

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
    """The mind. ``aptitudes`` every one of the seven; ``skills`` name -> rating 1-99 (trained
    skills only); ``skill_aptitudes`` links a skill outside ``SKILL_APTITUDES``; ``lucidity``,
    ``trauma_threshold``, ``insanity_rating`` None: computed from WIL."""

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
        for name, rating in self.skills.items():
            if not SKILL_MIN <= rating <= SKILL_MAX:
                raise InvalidSheet("skill_rated", skill_min=SKILL_MIN, skill_max=SKILL_MAX,
                                   skill=name, rating=rating)
        if self.moxie < 0:
            raise InvalidSheet("moxie_never_negative", moxie=self.moxie)

    def luc(self, params: EclipsePhaseParameters) -> int:
        """Lucidity: the ego's, else WIL x ``lucidity_per_wil``."""
        if self.lucidity is not None:
            return self.lucidity
        return self.aptitudes[Aptitude.WIL] * params.lucidity_per_wil

    def tt(self, params: EclipsePhaseParameters) -> int:
        """Trauma threshold: the ego's, else ceil(LUC / ``trauma_threshold_divisor``)."""
        if self.trauma_threshold is not None:
            return self.trauma_threshold
        return max(1, -(-self.luc(params) // params.trauma_threshold_divisor))

    def ir(self, params: EclipsePhaseParameters) -> int:
        """Insanity rating: the ego's, else LUC x ``insanity_per_lucidity``."""
        if self.insanity_rating is not None:
            return self.insanity_rating
        return self.luc(params) * params.insanity_per_lucidity


@dataclass(frozen=True)
class Character:
    """An ego in a morph, with armour ``worn`` over the morph's own."""

    ego: Ego
    morph: Morph
    worn: tuple[Armour, ...] = ()

    def aptitude(self, which: Aptitude, params: EclipsePhaseParameters) -> int:
        """The ego's aptitude plus the morph's bonus, capped at ``aptitude_max``."""
        value = self.ego.aptitudes[which] + self.morph.aptitude_bonus.get(which, 0)
        return min(value, params.aptitude_max)

    def skill(self, name: str, params: EclipsePhaseParameters) -> int:
        """The skill's rating, or its linked aptitude when untrained (seed: "se défausser sur
        l'aptitude correspondante"). Raises InvalidSheet for an unknown untrained skill."""
        if name in self.ego.skills:
            return self.ego.skills[name]
        linked = self.ego.skill_aptitudes.get(name) or SKILL_APTITUDES.get(name)
        if linked is None:
            raise InvalidSheet("unknown_skill_name", skill=name)
        return self.aptitude(linked, params)

    def trained(self, name: str) -> bool:
        return name in self.ego.skills

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
