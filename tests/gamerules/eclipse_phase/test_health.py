"""Damage through armour, wounds, knockdown and stun, unconsciousness, bleeding, death (seed
001, "Dommages")."""

import pytest

from gamerules.eclipse_phase.gear import Armour, DamageType
from gamerules.eclipse_phase.health import (Condition, Health, Incoming, bleeding, can_act, condition,
                                            end_of_turn, heal, stand_up, take_hit, through_armour,
                                            wounds_from)
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from tests.gamerules.eclipse_phase.helpers import POD, SPLICER, SYNTH, P, character
from tests.gamerules.fakes import FakeRandom

K = DamageType.KINETIC


def test_dv_minus_armour_minus_ap_never_below_zero_and_ap_never_adds():
    assert through_armour(10, K, 6, 2).damage == 6
    assert through_armour(10, K, 6, 9).damage == 10  # AP above armour adds nothing
    assert through_armour(3, K, 6, 0).damage == 0
    assert through_armour(10, K, 6, -4).effective == 2  # "AP -4" as printed
    assert through_armour(10, K, 6, 0, ignore_armour=True).damage == 10
    assert through_armour(10, DamageType.PSI, 6, 0).damage == 10  # no armour against psi


@pytest.mark.parametrize(("damage", "strict", "inclusive"), [
    (0, 0, 0), (5, 0, 0), (6, 0, 1), (7, 1, 1), (12, 1, 2), (13, 2, 2), (18, 2, 3), (19, 3, 3)])
def test_wounds_per_full_multiple_strictly_above_the_threshold(damage, strict, inclusive):
    # WT 6: DV = WT, WT+1, 2xWT, 2xWT+1 ... ("Si VD > (SBx2) = 2 blessures")
    assert wounds_from(damage, 6, P) == strict
    assert wounds_from(damage, 6, EclipsePhaseParameters(wound_inclusive=True)) == inclusive


def test_one_wound_somx3_or_knocked_down():
    c = character(SOM=20)  # SOMx3 = 60, minus the new wound's 10
    hit = take_hit(c, Health(), Incoming(7, K, 0), FakeRandom(51), P)
    assert (hit.damage, hit.new_wounds, hit.knocked_down, hit.after.knocked_down) == (7, 1, True, True)
    assert hit.som_test.target == 50 and hit.som_test.label == "SOMx3 against knockdown"
    kept = take_hit(c, Health(), Incoming(7, K, 0), FakeRandom(49), P)
    assert not kept.knocked_down and not kept.after.knocked_down
    assert not stand_up(hit.after).knocked_down


def test_two_wounds_somx3_or_stunned():
    c = character(SOM=20)
    hit = take_hit(c, Health(wounds=1), Incoming(13, K, 0), FakeRandom(35), P)
    assert hit.new_wounds == 2 and hit.som_test.target == 60 - 30 and hit.stunned
    assert hit.after.stunned == 1 and not can_act(hit.after, c.morph, P)
    assert end_of_turn(hit.after, c.morph, P).after.stunned == 0


def test_no_wound_no_test_and_armour_of_the_matching_type():
    c = character(worn=(Armour("vest", energy=2, kinetic=6),))
    hit = take_hit(c, Health(), Incoming(12, K, 0), FakeRandom(), P)
    assert (hit.damage, hit.new_wounds, hit.som_test) == (6, 0, None)
    energy = take_hit(c, Health(), Incoming(12, DamageType.ENERGY, 0), FakeRandom(1), P)
    assert energy.damage == 10


@pytest.mark.parametrize(("damage", "wounds", "expected", "bleeds"), [
    (29, 0, Condition.ACTIVE, False), (30, 0, Condition.UNCONSCIOUS, False),
    (30, 1, Condition.UNCONSCIOUS, False), (31, 0, Condition.UNCONSCIOUS, False),
    (31, 1, Condition.UNCONSCIOUS, True), (44, 2, Condition.UNCONSCIOUS, True),
    (45, 2, Condition.DEAD, False)])
def test_biomorph_unconscious_at_dur_bleeding_beyond_with_wounds_dead_at_dur_x_1_5(
        damage, wounds, expected, bleeds):
    health = Health(damage, wounds)
    assert condition(health, SPLICER, P) is expected
    assert condition(health, POD, P) is expected
    assert bleeding(health, SPLICER, P) is bleeds
    end = end_of_turn(health, SPLICER, P)
    assert end.bled == (1 if bleeds else 0) and end.after.damage == damage + end.bled


def test_synthmorph_destroyed_at_dur_x_2():
    assert condition(Health(59, 1), SYNTH, P) is Condition.UNCONSCIOUS
    assert condition(Health(60, 1), SYNTH, P) is Condition.DESTROYED
    assert condition(Health(45), SYNTH, P) is Condition.UNCONSCIOUS


def test_bleeding_to_death_and_no_knockdown_test_when_out():
    end = end_of_turn(Health(44, 1), SPLICER, P)
    assert end.condition is Condition.DEAD
    c = character()
    hit = take_hit(c, Health(25), Incoming(8, K, 0), FakeRandom(), P)  # 33 >= DUR: unconscious, no test
    assert hit.new_wounds == 1 and hit.som_test is None and hit.condition is Condition.UNCONSCIOUS


def test_heal_never_below_zero():
    assert heal(Health(10, 2), damage=15, wounds=1) == Health(0, 1)
