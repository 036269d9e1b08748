"""The area an explosive covers, for the map's preview (explosives.area_of), against the rule
that decides who a blast reaches (blast_dv at the weapon's highest roll)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, strategies as st

from gamerules.dice import bounds
from gamerules.eclipse_phase.explosives import area_of, blast_dv
from gamerules.eclipse_phase.gear import BlastKind, Weapon
from tests.gamerules.eclipse_phase.helpers import GRENADE, PISTOL, P


def _blast(dv: str) -> Weapon:
    return Weapon("Frag", "throwing_weapons", dv, blast=BlastKind.BLAST, blast_radius_m=0)


def test_a_plain_blast_reaches_under_the_metre_where_its_highest_roll_is_spent():
    area = area_of(_blast("2d10+4"), P)  # top 24, -2 a metre
    assert area is not None and (area.kind, area.radius_m, area.closed) == ("blast", 12, False)
    assert blast_dv(24, 11.99, P) > 0 and blast_dv(24, 12.0, P) == 0


@given(st.integers(1, 6), st.integers(0, 12), st.integers(1, 20),
       st.floats(0, 80, allow_nan=False))
def test_the_preview_radius_agrees_with_blast_dv_everywhere(dice, flat, per_m, distance):
    params = dataclasses.replace(P, blast_dv_per_m=per_m)
    weapon = _blast(f"{dice}d10+{flat}")
    area = area_of(weapon, params)
    assert area is not None and area.radius_m is not None
    reached = blast_dv(bounds(weapon.dv)[1], distance, params) > 0
    assert reached == (distance < area.radius_m)


def test_uniform_cone_none_and_no_loss_a_metre():
    uniform = dataclasses.replace(GRENADE, blast=BlastKind.UNIFORM, blast_radius_m=5)
    assert area_of(uniform, P) == type(area_of(uniform, P))("uniform", 5, True)
    cone = dataclasses.replace(GRENADE, blast=BlastKind.CONE)
    assert area_of(cone, P).radius_m == 0 and area_of(cone, P).kind == "cone"
    assert area_of(PISTOL, P) is None
    every = area_of(_blast("1d10"), dataclasses.replace(P, blast_dv_per_m=0))
    assert every is not None and every.radius_m is None and every.closed
