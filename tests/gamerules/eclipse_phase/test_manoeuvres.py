"""Movement and gravity, subdue escapes, ambushes, several weapons; explosives (seed 001,
"Options & Complications")."""

from decimal import Decimal

import pytest

from gamerules.eclipse_phase.checks import skill_test
from gamerules.eclipse_phase.errors import ManoeuvreRefused
from gamerules.eclipse_phase.explosives import blast_dv, cone_targets, detonates, explode
from gamerules.eclipse_phase.gear import RangeBand, Trigger
from gamerules.eclipse_phase.manoeuvres import (Pace, Surprise, ambush, escape, gravity_modifiers,
                                                gravity_wounds, jump_multiplier, movement,
                                                weapons_modifiers)
from gamerules.eclipse_phase.sheet import Morph, Trait
from tests.gamerules.eclipse_phase.helpers import (GRENADE, PISTOL, SHOCKWAVE, SHREDDER, P,
                                                   character)
from tests.gamerules.fakes import FakeRandom


def test_walk_4_m_run_20_m_at_minus_10_freerunning_adds_metres():
    assert movement(Pace.WALK, P).metres == 4 and movement(Pace.WALK, P).modifiers == ()
    run = movement(Pace.RUN, P)
    assert run.metres == 20 and [m.value for m in run.modifiers] == [-10]
    extended = movement(Pace.RUN, P, extension=skill_test(60, FakeRandom(47), P))
    assert extended.metres == 24
    assert movement(Pace.RUN, P, extension=skill_test(60, FakeRandom(70), P)).metres == 20
    with pytest.raises(ManoeuvreRefused):
        movement(Pace.WALK, P, extension=skill_test(60, FakeRandom(47), P))


@pytest.mark.parametrize(("g", "jump", "wounds"), [
    ("0.59", 2, 0), ("0.6", 1, 0), ("1.0", 1, 0), ("1.2", 1, 0), ("1.39", 1, 0), ("1.4", 1, 1),
    ("1.6", 1, 2), ("2.0", 1, 4)])
def test_low_gravity_doubles_jumps_high_gravity_one_wound_per_0_2_g(g, jump, wounds):
    assert jump_multiplier(Decimal(g), P) == jump
    assert gravity_wounds(Decimal(g), P) == wounds
    assert sum(m.value for m in gravity_modifiers(Decimal(g), P)) == -10 * wounds


def test_escape_by_somx3_minus_30_or_opposed_unarmed():
    held = character(skills={"unarmed_combat": 50}, SOM=20)
    holder = character(skills={"unarmed_combat": 40})
    som = escape(held, holder, "somx3", FakeRandom(29), P)
    assert som.test.target == 30 and som.free  # SOMx3 60 - 30
    assert escape(held, holder, "somx3", FakeRandom(30), P).free is False
    opposed = escape(held, holder, "opposed", FakeRandom(45, 30), P)
    assert opposed.free and opposed.opposed.winner == "first"
    assert not escape(held, holder, "opposed", FakeRandom(20, 30), P).free


def test_ambush_outcomes():
    target = character(skills={"perception": 60})
    attacker = character(skills={"infiltration": 60})
    free = ambush(target, attacker, FakeRandom(41, 30), P)  # perception 40: 41 fails
    assert free.perception.target == 40 and free.outcome is Surprise.FREE_ATTACK
    both = ambush(target, attacker, FakeRandom(20, 30), P)
    assert both.outcome is Surprise.INITIATIVE and [m.value for m in both.initiative_modifiers] == [-30]
    sharp = ambush(target, attacker, FakeRandom(30, 30), P)  # margin 30: no malus
    assert sharp.outcome is Surprise.NONE and sharp.initiative_modifiers == ()
    assert ambush(target, attacker, FakeRandom(29, 30), P).outcome is Surprise.INITIATIVE
    assert ambush(target, attacker, FakeRandom(90, 70), P).outcome is Surprise.NONE


def test_off_hand_minus_20_unless_ambidextrous_extra_weapons_plus_10_up_to_30():
    human = Morph("splicer")
    assert [m.value for m in weapons_modifiers(human, 1, off_hand=True, params=P)] == [-20]
    ambi = Morph("x", traits=frozenset({Trait.AMBIDEXTROUS}))
    assert weapons_modifiers(ambi, 1, off_hand=True, params=P) == ()
    octo = Morph("octomorph", limbs=8)
    assert [m.value for m in weapons_modifiers(octo, 3, off_hand=True, params=P)] == [20]
    assert [m.value for m in weapons_modifiers(octo, 8, off_hand=False, params=P)] == [30]
    with pytest.raises(ManoeuvreRefused):
        weapons_modifiers(human, 3, off_hand=True, params=P)


def test_blast_minus_2_dv_per_metre_uniform_and_cones():
    assert [blast_dv(20, d, P) for d in (0, 0.9, 1, 2.5, 10, 11)] == [20, 20, 18, 16, 0, 0]
    grenade = explode(GRENADE, [("a", 0), ("b", 3), ("c", 20)], FakeRandom(5, 5, 5), P)
    assert grenade.dv == 21 and [d for _, _, d in grenade.by_target] == [21, 15, 0]
    wave = explode(SHOCKWAVE, [("a", 5), ("b", 5.5)], FakeRandom(6, 6), P)
    assert [d for _, _, d in wave.by_target] == [12, 0]
    close = explode(SHREDDER, [("a", 1)], FakeRandom(5, 5, 7), P, band=RangeBand.POINT_BLANK)
    assert close.cone_roll.total == 7 and close.dv == 17
    far = explode(SHREDDER, [("a", 60), ("b", 60), ("c", 61), ("d", 62)], FakeRandom(5, 5, 7), P,
                  band=RangeBand.LONG)
    assert far.dv == 3 and len(far.by_target) == 4
    assert cone_targets(RangeBand.MEDIUM, P) == 2
    with pytest.raises(ManoeuvreRefused):
        explode(SHREDDER, [("a", 20), ("b", 20), ("c", 20)], FakeRandom(5, 5), P,
                band=RangeBand.MEDIUM)
    with pytest.raises(ManoeuvreRefused):
        explode(PISTOL, [("a", 1)], FakeRandom(5), P)


def test_triggers():
    assert detonates(Trigger.AIRBURST, travelled_m=30, set_distance_m=30)
    assert not detonates(Trigger.AIRBURST, travelled_m=29, set_distance_m=30)
    assert detonates(Trigger.IMPACT, impact=True) and not detonates(Trigger.IMPACT)
    assert detonates(Trigger.SIGNAL, signal=True) and not detonates(Trigger.SIGNAL, impact=True)
    assert detonates(Trigger.TIMER, elapsed_s=6, timer_s=6)
    assert not detonates(Trigger.TIMER, elapsed_s=5, timer_s=6)
