"""Explosives and area effects: blast, uniform blast, cones; triggers.

Source: 001_e6266c120d4801b4.txt, "Explosifs et zones d'effet": "les dégâts des armes de type «
explosion » diminue la VD de 2 par mètre d'écart avec l'épicentre. Les armes de type « explosion
uniforme » inflige les mêmes dégâts dans toute la zone d'effet. Les armes à effet de zone de type
« cônes » peuvent atteindre une cible à bout portant, deux cibles à portée moyenne et trois
cibles ou plus à portée longue ou extrême. Leur VD obtient 1d10 à bout portant, -1d10 à portée
longue ou extrême. Déclencheurs : airburst = explosion auto après une distance parcourue, impact
= explosion au toucher, signal = explosion sur télécommande, timer = explosion chronométrée."

Choices (docs/rules/eclipse-phase.md): the DV is rolled once for every target of one
explosion; a blast loses 2 DV per full metre from the centre (``blast_dv_per_m``), never below 0;
a uniform blast reaches ``blast_radius_m`` (inclusive); a cone hits 1 target at point blank and
short range, 2 at medium, 3 or more at long and extreme (``cone_targets_*``), with +1d10 DV at
point blank and -1d10 at long and extreme (one extra die rolled for all its targets); armour
applies to each target (health.take_hit).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from gamerules.dice import DiceRoll, RandomSource, bounds, roll
from gamerules.eclipse_phase.errors import ManoeuvreRefused
from gamerules.eclipse_phase.gear import BlastKind, RangeBand, Trigger, Weapon
from gamerules.eclipse_phase.params import EclipsePhaseParameters


def blast_dv(dv: int, distance_m: float, params: EclipsePhaseParameters) -> int:
    """A blast's DV at ``distance_m`` from the centre: -2 per full metre, never below 0."""
    return max(0, dv - params.blast_dv_per_m * math.floor(distance_m))


@dataclass(frozen=True)
class Area:
    """What an explosive covers, for the map's preview: ``kind`` (BlastKind's value);
    ``radius_m`` a blast's reach from its centre (a plain blast: the first whole metre where
    the weapon's highest roll has no DV left, that metre itself not reached, ``closed``
    False; None when the campaign takes no DV a metre: every distance; a uniform blast: its
    radius, reached, ``closed`` True); a cone 0 (its targets follow from the range bands of
    the weapon, ``Weapon.ranges``, not from an area)."""

    kind: str
    radius_m: int | None
    closed: bool


def area_of(weapon: Weapon, params: EclipsePhaseParameters) -> Area | None:
    """The area ``weapon`` covers (None: it does not explode). A plain blast of highest DV
    ``top`` reaches every distance d with ``top - blast_dv_per_m * floor(d) > 0``: d under
    ceil(top / blast_dv_per_m) metres (2d10+4, top 24, -2 a metre: under 12 m), as
    eclipse.positions.blast_targets decides who is reached."""
    if weapon.blast is None:
        return None
    if weapon.blast is BlastKind.BLAST:
        if params.blast_dv_per_m == 0:
            return Area(weapon.blast.value, None, True)
        top = bounds(weapon.dv)[1]
        return Area(weapon.blast.value, max(0, math.ceil(top / params.blast_dv_per_m)), False)
    if weapon.blast is BlastKind.CONE:
        return Area(weapon.blast.value, 0, True)
    return Area(weapon.blast.value, weapon.blast_radius_m, True)


def uniform_dv(dv: int, distance_m: float, radius_m: int) -> int:
    return dv if distance_m <= radius_m else 0


def cone_targets(band: RangeBand, params: EclipsePhaseParameters) -> int:
    """How many targets a cone may hit at this range band (at long and extreme: at least)."""
    return {RangeBand.POINT_BLANK: params.cone_targets_point_blank,
            RangeBand.SHORT: params.cone_targets_short,
            RangeBand.MEDIUM: params.cone_targets_medium}.get(band, params.cone_targets_long)


def cone_dice(band: RangeBand) -> int:
    """+1 (one d10 added) at point blank, -1 (one d10 taken off) at long and extreme, else 0."""
    if band is RangeBand.POINT_BLANK:
        return 1
    if band in (RangeBand.LONG, RangeBand.EXTREME):
        return -1
    return 0


@dataclass(frozen=True)
class Explosion:
    """One explosion: ``roll`` the weapon's DV, ``cone_roll`` the cone's extra d10 (None
    without), ``dv`` the rolled DV before distance, ``by_target`` (who, distance, DV)."""

    weapon: Weapon
    roll: DiceRoll
    cone_roll: DiceRoll | None
    dv: int
    by_target: tuple[tuple[Hashable, float, int], ...]


def explode(weapon: Weapon, targets: Sequence[tuple[Hashable, float]], rng: RandomSource,
            params: EclipsePhaseParameters, *, band: RangeBand | None = None) -> Explosion:
    """Roll the DV once and give each target (who, metres from the centre; for a cone, metres
    from the weapon) its DV. Raises ManoeuvreRefused for a weapon that does not explode, a cone
    without a range band, or more cone targets than the band allows (at long and extreme range
    there is no cap)."""
    if weapon.blast is None:
        raise ManoeuvreRefused("does_not_explode", weapon=weapon.name)
    thrown = roll(weapon.dv, rng)
    cone_roll = None
    dv = thrown.total
    if weapon.blast is BlastKind.CONE:
        if band is None:
            raise ManoeuvreRefused("cone_needs_range")
        cap = cone_targets(band, params)
        if len(targets) > cap and band not in (RangeBand.LONG, RangeBand.EXTREME):
            raise ManoeuvreRefused("cone_hits_most", max=cap, band=band.value, targets=len(targets))
        sign = cone_dice(band)
        if sign:
            cone_roll = roll("1d10" if sign > 0 else "-1d10", rng)
            dv = max(0, dv + cone_roll.total)
        return Explosion(weapon, thrown, cone_roll, dv, tuple((w, d, dv) for w, d in targets))
    if weapon.blast is BlastKind.UNIFORM:
        return Explosion(weapon, thrown, None, dv, tuple(
            (w, d, uniform_dv(dv, d, weapon.blast_radius_m)) for w, d in targets))
    return Explosion(weapon, thrown, None, dv, tuple((w, d, blast_dv(dv, d, params))
                                                     for w, d in targets))


def detonates(trigger: Trigger, *, travelled_m: float = 0, set_distance_m: float | None = None,
              impact: bool = False, signal: bool = False, elapsed_s: float = 0,
              timer_s: float | None = None) -> bool:
    """Whether a charge with this trigger goes off now: airburst once it has travelled its set
    distance, impact on contact, signal on the command, timer once its time has elapsed."""
    if trigger is Trigger.AIRBURST:
        return set_distance_m is not None and travelled_m >= set_distance_m
    if trigger is Trigger.IMPACT:
        return impact
    if trigger is Trigger.SIGNAL:
        return signal
    return timer_s is not None and elapsed_s >= timer_s
