"""Stress, traumas, lucidity, insanity, recovery (seed 001, "Santé Mentale & stress")."""

import pytest

from gamerules.eclipse_phase.errors import RecoveryRefused
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.stress import (MentalCondition, Mind, Recovery, name_derangement,
                                            recover, take_stress, traumas_from)
from tests.gamerules.eclipse_phase.helpers import P, character
from tests.gamerules.fakes import FakeRandom

EGO = character(WIL=20)  # LUC 40, TT 8, IR 80; WILx3 = 60


def test_stress_resisted_with_wil_x3_halves_it():
    kept = take_stress(EGO, Mind(), 17, FakeRandom(59), P)
    assert kept.resist.target == 60 and kept.resist.success and kept.taken == 8
    assert kept.new_traumas == 0  # 8 is not above TT 8
    full = take_stress(EGO, Mind(), 17, FakeRandom(60), P)
    assert full.taken == 17 and full.new_traumas == 2 and full.derangements_due == 2
    assert full.after == Mind(stress=17, traumas=2)


@pytest.mark.parametrize(("sv", "strict", "inclusive"), [(8, 0, 1), (9, 1, 1), (16, 1, 2), (17, 2, 2)])
def test_traumas_like_wounds(sv, strict, inclusive):
    assert traumas_from(sv, 8, P) == strict
    assert traumas_from(sv, 8, EclipsePhaseParameters(trauma_inclusive=True)) == inclusive


def test_trauma_maluses_apply_to_the_resistance_test_and_a_disorder_every_4_traumas():
    result = take_stress(EGO, Mind(stress=10, traumas=3), 9, FakeRandom(99), P)
    assert result.resist.target == 60 - 30
    assert result.after.traumas == 4 and result.disorder_due


def test_lucidity_limit_then_permanent_insanity():
    assert take_stress(EGO, Mind(stress=35), 5, FakeRandom(), P, resist=False).condition \
        is MentalCondition.BEYOND_LUCIDITY
    assert take_stress(EGO, Mind(stress=34), 5, FakeRandom(), P, resist=False).condition \
        is MentalCondition.STABLE
    mad = take_stress(EGO, Mind(stress=75), 5, FakeRandom(), P, resist=False)
    assert mad.condition is MentalCondition.INSANE and mad.after.insane
    with pytest.raises(RecoveryRefused) as info:
        recover(mad.after, Recovery.PSYCHOSURGERY, stress=80)
    assert info.value.code == "ep_recovery_refused"


def test_rest_heals_stress_and_traumas_psychosurgery_also_derangements():
    mind = name_derangement(Mind(stress=20, traumas=2), "phobia: vacuum")
    rested = recover(mind, Recovery.REST, stress=5, traumas=1)
    assert (rested.stress, rested.traumas, rested.derangements) == (15, 1, ("phobia: vacuum",))
    with pytest.raises(RecoveryRefused):
        recover(mind, Recovery.REST, remove=["phobia: vacuum"])
    operated = recover(mind, Recovery.PSYCHOSURGERY, remove=["phobia: vacuum"])
    assert operated.derangements == ()
