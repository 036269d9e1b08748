"""Eclipse Phase on the encounter's positions (issue 12, item 9): what the distances between
combatants decide once the GM placed them (encounters: ``Combatant.x``/``y``, metres).

- **Attack range**: the band follows from the distance and the weapon's ranges
  (gear.Weapon.range_band: point blank under 2 m, then the short/medium/long/extreme upper
  bounds inclusive); beyond the extreme range the attack is refused. *Choice*: a melee attack
  needs the target within ``MELEE_REACH_M`` (1 m), ``REACH_WEAPON_M`` (2 m) with a reach
  weapon. Without both positions the attacker's pick stays.
- **Move**: the destination is at most the pace's metres away in a straight line (walk 4 m,
  run 20 m, + the Freerunning or Freefall extension while running: manoeuvres.movement).
- **Explosives**: a blast centred on a point or a combatant reaches every placed combatant
  whose DV is not 0 at the weapon's highest roll (-2 a metre); a uniform blast those within
  its radius; a cone's distances are measured from the attacker, its band from the farthest
  target. The centre must be within the weapon's extreme range of a placed thrower.
- **Bursts**: the gaps between consecutive targets (firing.Burst.spacing_m).
- **Suppressive fire**: the zone (firing.SuppressiveZone, 20 m wide ahead of the attacker,
  towards the combatant aimed at) decides who of the placed combatants is in it.

Distances are exact (gamerules.encounter.space): 4 m is a walk, 4.01 m is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from typing import Any

from eclipse.play_errors import BadChoice, PlayError
from encounters.services import set_position
from gamerules.dice import RandomSource, bounds
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.checks import SkillTest, Strain, skill_test
from gamerules.eclipse_phase.explosives import blast_dv
from gamerules.eclipse_phase.gear import BlastKind, RangeBand, Weapon
from gamerules.eclipse_phase.manoeuvres import Movement, Pace, movement
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.encounter import space
from gamerules.errors import gettext_noop

MELEE_REACH_M = 1
REACH_WEAPON_M = 2
FREERUN_SKILLS = ("freerunning", "freefall")

MESSAGES: dict[str, str] = {
    "ep_out_of_reach": gettext_noop(
        "%(target)s is %(distance)s m away: %(weapon)s reaches %(reach)s m."),
    "ep_no_position": gettext_noop("%(name)s has no position: the game master places it first."),
    # one template a pace (the pace's name is words of the sentence, not a value to fill in)
    "ep_move_too_far_walk": gettext_noop(
        "That is %(distance)s m away: walking takes %(name)s %(allowed)s m at most."),
    "ep_move_too_far_run": gettext_noop(
        "That is %(distance)s m away: running takes %(name)s %(allowed)s m at most."),
    "ep_centre_needed": gettext_noop("Give the blast's centre: a combatant or a point."),
}


class PositionRefused(PlayError):
    code = "ep_out_of_reach"
    messages = MESSAGES


def _m(value: Decimal) -> float:
    return float(value.quantize(space.CENTIMETRE))


@dataclass(frozen=True)
class Range:
    """How far the target stands: ``distance_m`` exact, ``band`` (None in melee),
    ``reach_m`` the melee reach."""

    distance_m: Decimal
    band: RangeBand | None
    reach_m: int = 0

    def record(self) -> dict[str, Any]:
        """What the attack's payload (and so its journal entry) keeps."""
        return {"distance_m": _m(self.distance_m), "range_from": "positions",
                **({"reach_m": self.reach_m} if self.reach_m else {})}


def attack_range(attacker, target, weapon: Weapon) -> Range | None:
    """The range of ``attacker``'s attack on ``target`` (Combatants) with ``weapon``; None when
    either has no position. Raises PositionRefused ("ep_out_of_reach") in melee beyond reach,
    FiringRefused ("out_range_m") beyond the extreme range."""
    a, b = attacker.point, target.point
    if a is None or b is None:
        return None
    distance = space.distance(a, b)
    if weapon.melee:
        reach = REACH_WEAPON_M if weapon.reach else MELEE_REACH_M
        if not space.within(a, b, reach):
            raise PositionRefused(code="ep_out_of_reach", target=target.name,
                                  distance=_m(distance), weapon=weapon.name, reach=reach)
        return Range(distance, None, reach)
    return Range(distance, weapon.range_band(float(distance)))


# --- moving ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    movement: Movement
    summary: dict[str, Any]
    test: SkillTest | None = None


def move(combatant, me, pace: Pace, params: EclipsePhaseParameters, *, x: Any = None,
         y: Any = None, extension: str = "", rng: RandomSource | None = None) -> Move:
    """``combatant`` (``me`` its eclipse.selectors.Loaded) walks or runs; with a destination
    (``x``, ``y`` metres) its position moves there, at most the pace's metres away. A run may
    be extended by a Freerunning or Freefall test (``extension``), rolled with ``rng``; the
    running malus counts on it. Raises PlayError("ep_bad_choice"), PositionRefused
    ("ep_no_position", "ep_move_too_far"), PositionError (a bad destination)."""
    test = None
    if extension:
        if extension not in FREERUN_SKILLS or rng is None:
            raise BadChoice(value=extension)
        running = movement(Pace.RUN, params).modifiers if pace is Pace.RUN else ()
        test = skill_test(me.character.skill(extension, params), rng, params, label=extension,
                          modifiers=running,
                          strain=Strain(wounds=me.health.wounds, traumas=me.mind.traumas,
                                        pain_filter=me.character.pain_filter))
    moved = movement(pace, params, extension=test)
    summary: dict[str, Any] = {}
    where = space.point(x, y)
    if where is not None:
        start = combatant.point
        if start is None:
            raise PositionRefused(code="ep_no_position", name=combatant.name)
        distance = space.distance(start, where)
        if not space.within(start, where, moved.metres):
            raise PositionRefused(f"ep_move_too_far_{pace.value}", code="ep_move_too_far",
                                  distance=_m(distance),
                                  pace=pace.value, name=combatant.name, allowed=moved.metres)
        set_position(combatant, where)
        summary = {"from": [_m(start.x), _m(start.y)], "to": [_m(where.x), _m(where.y)],
                   "distance_m": _m(distance)}
    return Move(moved, summary, test)


# --- bursts, blasts, suppressive fire -------------------------------------------------------

def burst_spacing(targets: Sequence[Any], given: Sequence[float] = ()) -> tuple[float, ...]:
    """The gaps in metres between consecutive targets of one burst (firing.Burst.spacing_m)
    from their positions; ``given`` (the table's) when one of them has no position."""
    points = [t.point for t in targets]
    if any(p is None for p in points):
        return tuple(given)
    return tuple(_m(space.distance(a, b)) for a, b in pairwise(points))


def blast_centre(attacker, centre: Any, weapon: Weapon) -> tuple[space.Point, dict[str, Any]]:
    """The centre (a Combatant with a position, or an (x, y) pair) checked within the weapon's
    extreme range of a placed attacker. Raises PositionRefused, FiringRefused."""
    if centre is None:
        raise PositionRefused(code="ep_centre_needed")
    point = centre.point if hasattr(centre, "point") else space.point(*centre)
    if point is None:
        raise PositionRefused(code="ep_no_position", name=getattr(centre, "name", "?"))
    record: dict[str, Any] = {"centre": [_m(point.x), _m(point.y)]}
    if hasattr(centre, "point"):  # whose place it is (encounters.visibility)
        record["centre_combatant"] = centre.pk
    if attacker.point is not None:
        thrown = space.distance(attacker.point, point)
        record |= {"thrown_m": _m(thrown), "range_band": weapon.range_band(float(thrown)).value}
    return point, record


def blast_targets(centre: space.Point, weapon: Weapon, combatants: Iterable[Any],
                  params: EclipsePhaseParameters) -> list[tuple[Any, float]]:
    """The placed combatants a blast or uniform blast at ``centre`` reaches, with their metres
    from it (a plain blast: those with DV left at the weapon's highest roll)."""
    top = bounds(weapon.dv)[1]
    out = []
    for c in combatants:
        if c.point is None:
            continue
        d = space.distance(centre, c.point)
        if weapon.blast is BlastKind.UNIFORM:
            if space.within(centre, c.point, weapon.blast_radius_m):
                out.append((c, _m(d)))
        elif blast_dv(top, float(d), params) > 0:
            out.append((c, _m(d)))
    return out


def cone_distances(attacker, targets: Sequence[Any], weapon: Weapon
                   ) -> tuple[list[tuple[Any, float]], RangeBand] | None:
    """A cone's targets with their metres from the attacker and the band of the farthest;
    None when the attacker or a target has no position."""
    if attacker.point is None or any(t.point is None for t in targets) or not targets:
        return None
    placed = [(t, space.distance(attacker.point, t.point)) for t in targets]
    band = weapon.range_band(float(max(d for _t, d in placed)))
    return [(t, _m(d)) for t, d in placed], band


def suppressive_zone(attacker, aim, weapon: Weapon, magazine, params: EclipsePhaseParameters):
    """(zone, magazine after) aimed from ``attacker`` towards ``aim`` (a placed Combatant),
    or None when either has no position (the table names who is in the zone)."""
    if attacker.point is None or aim is None or aim.point is None:
        return None
    ox, oy = attacker.point.as_floats()
    ax, ay = aim.point.as_floats()
    return firing.suppressive_fire(weapon, magazine, attacker.pk, origin=(ox, oy),
                                   heading=(ax - ox, ay - oy), params=params)


def in_zone(zone: firing.SuppressiveZone, combatants: Iterable[Any]) -> list[Any]:
    """The placed combatants (not the attacker) the zone covers."""
    return [c for c in combatants if c.point is not None and c.pk != zone.attacker
            and zone.covers(c.point.as_floats())]
