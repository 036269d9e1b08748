"""Weapons, armour and magazines.

Source: 001_e6266c120d4801b4.txt, "Dommages": "3 types de dommages : énergie (feu, lasers,
plasmas, etc.), cinétique (coups, armes à feu, etc.), psi. Armures protègent contre
énergie/cinétique"; "VD de l'arme – (Armure du personnage – Pénétration d'Armure (PA) de l'arme
utilisée)"; "Options & Complications": the firing modes "Coup par Coup (CC)", "Semi-auto (SA)",
"Tir en rafales (TR)", "Tir auto (TA)"; "Armes à Rayons"; "Explosifs et zones d'effet" (blast,
"explosion uniforme", "cônes"; "Déclencheurs : airburst [...] impact [...] signal [...] timer");
"Arme à deux mains dans une seule main : -20"; "Attaque de contact"; the ranged table's range
bands ("Tir à bout-portant (-2m) : +10", "Portée courte : NA", "moyenne : -10", "longue :
-20", "extrême : -30").

Shapes: ``dv`` is dice notation ("2d10+3"; gamerules.dice); ``ap`` is the armour penetration as
a positive number (the first edition prints "AP -4": give 4 or -4, both mean 4); ``ranges`` are
the upper bounds in metres of the short, medium, long and extreme bands (point blank is under
2 m whatever the weapon); ``magazine`` 0 for a weapon without ammunition.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from gamerules.dice import DiceNotationError, parse
from gamerules.eclipse_phase.errors import FiringRefused, InvalidSheet, OutOfAmmo


class DamageType(StrEnum):
    ENERGY = "energy"
    KINETIC = "kinetic"
    PSI = "psi"


class FiringMode(StrEnum):
    SS = "SS"  # single shot, "Coup par Coup (CC)"
    SA = "SA"  # semi-automatic
    BF = "BF"  # burst fire, "Tir en rafales (TR)"
    FA = "FA"  # full automatic, "Tir auto (TA)"


class BlastKind(StrEnum):
    BLAST = "blast"  # "explosion": DV -2 per metre from the centre
    UNIFORM = "uniform"  # "explosion uniforme": the same DV in the whole area
    CONE = "cone"  # "cônes": targets by range band


class Trigger(StrEnum):
    AIRBURST = "airburst"  # after a set distance travelled
    IMPACT = "impact"  # on contact
    SIGNAL = "signal"  # on a remote command
    TIMER = "timer"  # at a set time


class WeaponMishap(StrEnum):
    """What the defender's winning critical does to the attacker's weapon (the GM picks:
    "arme de l'attaquant détruite, coincée, enrayée")."""

    DAMAGED = "damaged"
    JAMMED = "jammed"
    DESTROYED = "destroyed"


class RangeBand(StrEnum):
    POINT_BLANK = "point_blank"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    EXTREME = "extreme"


POINT_BLANK_M = 2  # "Tir à bout-portant (-2m)": under 2 m

# The first edition's weapon skills (its "Combat skills" less fray, the dodge): the melee
# ones, the ranged ones, and psi assault for a psi attack.
MELEE_SKILLS = frozenset({"blades", "clubs", "unarmed_combat"})
RANGED_SKILLS = frozenset({"beam_weapons", "kinetic_weapons", "seeker_weapons", "spray_weapons",
                           "throwing_weapons", "gunnery"})
WEAPON_SKILLS = MELEE_SKILLS | RANGED_SKILLS | {"psi_assault"}


@dataclass(frozen=True)
class Weapon:
    """A weapon template. ``skill`` the skill it uses ("blades", "kinetic_weapons"...);
    ``melee`` True for melee weapons (then ``ranges``, ``magazine`` and ``modes`` are unused);
    ``modes`` the firing modes it offers; ``beam`` a laser or plasma weapon (sweep,
    concentration); ``homing`` a seeker (no indirect-fire malus); ``blast`` and
    ``blast_radius_m``/``trigger`` for explosives; ``touch`` a touch-only attack (+20);
    ``reach`` a melee weapon with reach (table: "Avantage de portée : +10")."""

    name: str
    skill: str
    dv: str
    ap: int = 0
    damage_type: DamageType = DamageType.KINETIC
    melee: bool = False
    modes: frozenset[FiringMode] = frozenset()
    magazine: int = 0
    ranges: tuple[int, int, int, int] = (0, 0, 0, 0)
    beam: bool = False
    homing: bool = False
    blast: BlastKind | None = None
    blast_radius_m: int = 0
    trigger: Trigger | None = None
    two_handed: bool = False
    touch: bool = False
    reach: bool = False

    def __post_init__(self) -> None:
        try:
            parse(self.dv)
        except DiceNotationError:
            raise InvalidSheet("invalid_dv", dv=self.dv) from None
        object.__setattr__(self, "ap", abs(self.ap))
        if self.skill not in WEAPON_SKILLS:
            raise InvalidSheet("unknown_weapon_skill", skill=self.skill,
                               known=", ".join(sorted(WEAPON_SKILLS)))
        if self.magazine < 0 or self.blast_radius_m < 0:
            raise InvalidSheet("magazine_blast_radius")
        if self.melee and self.modes:
            raise InvalidSheet("melee_no_modes", weapon=self.name,
                               modes=" ".join(sorted(m.value for m in self.modes)))
        if not self.melee and self.blast is None and not self.modes:
            raise InvalidSheet("ranged_weapon_needs", weapon=self.name)
        if list(self.ranges) != sorted(self.ranges):
            raise InvalidSheet("range_bands_grow", ranges=list(self.ranges))

    def range_band(self, distance_m: float) -> RangeBand:
        """The band of a target ``distance_m`` metres away. Raises FiringRefused beyond the
        extreme band (or at any distance but point blank for a weapon without ranges)."""
        if distance_m < 0:
            raise FiringRefused("distance_never_negative", distance=distance_m)
        if distance_m < POINT_BLANK_M:
            return RangeBand.POINT_BLANK
        for band, top in zip((RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG,
                              RangeBand.EXTREME), self.ranges):
            if distance_m <= top:
                return band
        raise FiringRefused("out_range_m", distance=distance_m, name=self.name,
                            extreme=self.ranges[3])


@dataclass(frozen=True)
class Armour:
    """Worn armour: energy / kinetic values (added to the morph's own)."""

    name: str
    energy: int = 0
    kinetic: int = 0

    def __post_init__(self) -> None:
        if self.energy < 0 or self.kinetic < 0:
            raise InvalidSheet("armour_values_are")


@dataclass(frozen=True)
class Magazine:
    """The rounds loaded in one weapon (``loaded`` of ``capacity``) and the full spare
    magazines carried. Reloading is a complex action (turn.ActionKind.COMPLEX)."""

    capacity: int
    loaded: int
    spares: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.loaded <= self.capacity or self.spares < 0:
            raise InvalidSheet("invalid_magazine", loaded=self.loaded, capacity=self.capacity)

    @classmethod
    def full(cls, weapon: Weapon, spares: int = 0) -> Magazine:
        return cls(weapon.magazine, weapon.magazine, spares)

    def spend(self, rounds: int) -> Magazine:
        """``rounds`` fewer loaded. Raises OutOfAmmo (nothing spent) when fewer are loaded."""
        if rounds > self.loaded:
            raise OutOfAmmo("rounds_needed_loaded", needed=rounds, loaded=self.loaded)
        return replace(self, loaded=self.loaded - rounds)

    def reload(self) -> Magazine:
        """A full magazine from the spares (the rest of the old one is lost with it: the
        first edition tracks magazines, not loose rounds). Raises OutOfAmmo without spares."""
        if self.spares < 1:
            raise OutOfAmmo("no_spare_magazine", spares=0)
        return Magazine(self.capacity, self.capacity, self.spares - 1)
