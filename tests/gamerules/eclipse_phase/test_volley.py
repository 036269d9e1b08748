"""The volley at one target as pure typed functions (gamerules.eclipse_phase.volley, issue 20
item 1): worked examples with scripted dice, the boundaries, and the order's one schema."""

from __future__ import annotations

import pytest

from gamerules.eclipse_phase.attack import CalledShot, Defence
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.health import Condition, Health
from gamerules.eclipse_phase.volley import (ORDER_VERSION, AttackOrder, Beam, Fighter,
                                            OrderUnreadable, Placement, ShotOrder, Side,
                                            blast_hits,
                                            defence_choice, defence_of, defence_options,
                                            order_from_json, order_to_json, read_answer,
                                            resolve_volley)
from gamerules.modifiers import Modifier
from tests.gamerules.eclipse_phase.helpers import (KNIFE, LASER, PISTOL, SKILLS, P, character)
from tests.gamerules.fakes import FakeRandom

SHOOTER = Fighter(character(skills=SKILLS, SOM=20))
TARGET = Fighter(character(skills=SKILLS, SOM=20, WIL=15))
DODGE = defence_choice("dodge", surprised=False, full_defence=False)
SS = AttackOrder(weapon=1, mode="SS", range_band=RangeBand.SHORT)


def volley(order=SS, *faces, attacker=SHOOTER, defender=TARGET, defence=DODGE, weapon=PISTOL):
    rng = FakeRandom(*faces)
    out = resolve_volley(attacker, defender, weapon, order, shots=order.shots, defence=defence,
                         rng=rng, params=P)
    assert rng.exhausted, "every scripted die is rolled"
    return out


def test_a_single_shot_worked_example_margin_dv_armour_wounds_and_stun():
    """Kinetic 60 at short range against dodge/2 (25): 40 beats 30. Margin 40 (30+): +5 DV.
    DV 1d10+2 = 7+2+5 = 14, no armour: 14 damage, WT 6: two wounds, so the SOMx3 against stun
    (60, -20 for the two wounds: 40): 80 fails, stunned."""
    out = volley(SS, 40, 30, 7, 80)
    (shot,) = out.shots
    assert (shot.result.attack.target, shot.result.defence.target) == (60, 25)
    assert shot.result.hit and shot.result.dv_bonus == 5
    assert shot.damage.dv == 14 and shot.hit.damage == 14 and shot.hit.new_wounds == 2
    assert shot.hit.som_test.target == 40 and shot.hit.stunned
    assert out.health == Health(damage=14, wounds=2, stunned=1)
    assert out.before == Health() and out.condition is Condition.ACTIVE
    assert [(r.side, r.damage is not None) for r in out.rolls] == [
        (Side.ATTACKER, False), (Side.DEFENDER, False), (Side.ATTACKER, True),
        (Side.DEFENDER, False)]


@pytest.mark.parametrize("reading, bonus", [(29, 0), (30, 5), (59, 5)])
def test_the_margin_s_dv_bonus_at_its_boundaries(reading, bonus):
    """No defence (surprised): the attack's margin alone gives +5 DV from 30 (then the DV of
    8 reaches WT 6: one wound, and the SOMx3 against knockdown, 10, holds)."""
    surprised = defence_choice("dodge", surprised=True, full_defence=False)
    out = volley(SS, reading, 1, *([10] if bonus else []), defence=surprised)
    assert out.shots[0].result.defence is None and out.shots[0].result.dv_bonus == bonus
    assert out.shots[0].damage.dv == 1 + 2 + bonus


def test_a_failed_attack_rolls_no_defence_and_no_damage():
    out = volley(SS, 61)
    assert out.hits == 0 and len(out.rolls) == 1 and out.health == Health()


def test_the_attacker_s_moxie_flips_a_failed_attack_and_spends_one_point():
    """82 fails under 60; flipped it reads 28, a success: one point of the two offered."""
    flipper = Fighter(SHOOTER.character, moxie=2)
    out = volley(SS, 82, 90, 4, attacker=flipper)
    assert out.shots[0].result.attack.flipped_from == 82
    assert out.shots[0].result.attack.reading == 28 and out.attacker_moxie == 1
    assert out.shots[0].damage.dv == 6


def test_a_flip_that_would_still_fail_keeps_the_point():
    """97 flipped reads 79, still a failure under 60: nothing is spent."""
    out = volley(SS, 97, attacker=Fighter(SHOOTER.character, moxie=1))
    assert out.attacker_moxie == 1 and out.shots[0].result.attack.flipped_from is None


def test_the_defender_s_winning_critical_jams_the_weapon_and_stops_the_volley():
    """Two SA shots queued: the dodge's 22 (a double under 25) wins: a jam, no second shot."""
    two = AttackOrder(weapon=1, mode="SA", range_band=RangeBand.SHORT,
                      shots=(ShotOrder(), ShotOrder()))
    out = volley(two, 40, 22)
    assert out.mishap and len(out.shots) == 1 and out.shots[0].mishap
    assert out.health == Health()


def test_a_critical_hit_ignores_armour():
    """33 is a double under 60: a critical success, the vest's 4 ignored."""
    armoured = Fighter(character(skills=SKILLS, SOM=20, worn=()))
    out = volley(SS, 33, 10, 5, 90, defender=armoured)
    assert out.shots[0].result.critical and out.shots[0].result.ignore_armour
    assert out.shots[0].hit.armour.ignored


def test_a_beam_sweep_gives_the_second_shot_20_after_a_missed_first():
    order = AttackOrder(weapon=1, mode="SA", range_band=RangeBand.SHORT, beam=Beam.SWEEP,
                        shots=(ShotOrder(), ShotOrder()))
    out = volley(order, 70, 70, 90, 3, 4, 90, weapon=LASER)
    first, second = (s.result.attack for s in out.shots)
    assert not first.success and second.target == first.target + 20 == 80
    assert out.shots[1].result.hit and out.shots[1].damage.dv == 3 + 4 + 10  # margin 70


def test_a_beam_concentration_doubles_the_first_hit_and_forgoes_the_second():
    order = AttackOrder(weapon=1, mode="SA", range_band=RangeBand.SHORT,
                        beam=Beam.CONCENTRATE, shots=(ShotOrder(), ShotOrder()))
    out = volley(order, 20, 90, 3, 4, 90, weapon=LASER)
    assert out.concentrated and out.forgone and len(out.shots) == 1
    assert out.shots[0].damage.multiplier == 2 and out.shots[0].damage.dv == 14


def test_blind_fire_failed_perception_fires_nothing():
    order = AttackOrder(weapon=1, mode="SS", range_band=RangeBand.SHORT, blind_fire=True)
    out = volley(order, 95)
    assert not out.fired and out.shots == () and len(out.rolls) == 1


def test_blind_fire_after_a_perception_success_shoots_at_30():
    order = AttackOrder(weapon=1, mode="SS", range_band=RangeBand.SHORT, blind_fire=True)
    out = volley(order, 10, 50)
    assert out.fired and out.shots[0].result.attack.target == 30


def test_a_disarming_called_shot_halves_the_dv_and_rolls_the_defender_s_somx3():
    """Called shot -10 (target 50), margin 40 (30+ needed): disarm; DV (6+5)//2 = 5."""
    order = AttackOrder(weapon=1, mode="", called_shot=CalledShot.DISARM)
    out = volley(order, 40, 60, 6, 99, weapon=KNIFE, defence=DODGE)
    shot = out.shots[0]
    assert shot.result.called_effect is CalledShot.DISARM and shot.damage.halved
    assert shot.disarm is not None and shot.disarmed


def test_a_subdue_attack_deals_no_damage_and_holds_at_margin_dur():
    order = AttackOrder(weapon=1, subdue=True)
    strong = Fighter(character(skills={**SKILLS, "blades": 80}, SOM=20))
    out = volley(order, 40, 60, attacker=strong, weapon=KNIFE)
    assert out.subdued and out.shots[0].damage is None and out.health == Health()


def test_an_unconscious_target_defends_with_nothing():
    down = Fighter(TARGET.character, Health(damage=30))
    choice, answer, defence = defence_of(SS, "dodge+moxie", down, P, surprised=False,
                                         full_defence=False, braced=False, extra=())
    assert (choice, answer.moxie, defence.kind) == ("none", False, Defence.NONE)


def test_bracing_counts_only_against_a_charge():
    _c, _a, no_charge = defence_of(SS, "dodge", TARGET, P, surprised=False, full_defence=False,
                                   braced=True, extra=())
    charged = AttackOrder(weapon=1, charge=True)
    _c, _a, charge = defence_of(charged, "dodge", TARGET, P, surprised=False,
                                full_defence=False, braced=True, extra=())
    assert not no_charge.delayed_for_charge and charge.delayed_for_charge


def test_the_answers_read():
    assert read_answer("quick:melee:blades+moxie") == read_answer("quick:melee:blades+moxie")
    a = read_answer("quick:melee:blades+moxie")
    assert (a.base, a.moxie, a.quick) == ("melee:blades", True, True)
    assert defence_options(False, moxie=True) == ["none", "dodge", "dodge+moxie"]
    assert defence_choice("dodge", surprised=True, full_defence=True).kind is Defence.NONE


FULL = AttackOrder(
    weapon=7, weapon_name="Pistol", mode="SA", rounds=2, range_band=RangeBand.MEDIUM,
    situations={"aim_quick": 1}, charge=False, called_shot=CalledShot.PRECISE,
    extra=(Modifier("high gravity", -10, "gravity"),),
    shots=(ShotOrder((Modifier("SA", 0, "mode"),), 0, 3), ShotOrder((), 1, 4)),
    moxie=True, description="cover", beam=Beam.NONE, precise_effect="the knee", others=(4,),
    placement=Placement(distance_m=12.5, range_from="positions"), defender_moxie=True,
    surprised=True)


def test_the_order_round_trips_through_its_schema():
    data = order_to_json(FULL)
    assert data["version"] == ORDER_VERSION and data["distance_m"] == 12.5
    assert order_from_json(data) == FULL


def test_a_payload_stored_before_the_schema_still_reads():
    """Version 1: the untyped dict eclipse.declare.declare stored (no version key)."""
    legacy = {"weapon": 7, "weapon_name": "Pistol", "mode": "SS", "rounds": 1,
              "range_band": "short", "situations": {}, "charge": False, "called_shot": "",
              "one_handed": False, "extra": [{"label": "x", "value": -10, "source": "gravity"}],
              "shots": [{"modifiers": [], "extra_d10": 0, "target": 3}], "moxie": False,
              "melee": False, "psi": False, "description": "", "subdue": False, "beam": "",
              "blind_fire": False, "indirect": False, "spotter": False, "spotter_name": "",
              "precise_effect": "", "others": [], "defender_moxie": True,
              "defender_helpless": False, "surprised": False, "range_band_picked": "long"}
    order = order_from_json(legacy)
    assert order.range_band is RangeBand.SHORT and order.shots[0].target == 3
    assert order.extra == (Modifier("x", -10, "gravity"),)
    assert order.placement == Placement(range_band_picked="long")
    assert {k: v for k, v in order_to_json(order).items() if k != "version"} == legacy


def test_a_short_legacy_payload_takes_the_defaults():
    """The suppressive fire's free attack stored only a few keys."""
    order = order_from_json({"weapon": 2, "mode": "FA", "range_band": "short"})
    assert order.shots == (ShotOrder(),) and order.beam is Beam.NONE and not order.psi


def test_a_later_version_is_refused():
    with pytest.raises(OrderUnreadable):
        order_from_json({"version": ORDER_VERSION + 1, "weapon": 1})


def test_shots_at_a_target():
    assert [s.extra_d10 for s in FULL.shots_at(4)] == [1]
    assert SS.shots_at(99) == SS.shots


def test_an_explosion_s_targets_each_take_their_dv_through_armour():
    """A DV of 13 at the first target, 8 at the second (farther), none at one without a
    sleeve: 13 damage exceed WT 6 twice (SOMx3 against stun, 60 - 20: 95 fails), 8 once
    (SOMx3 against knockdown, 60 - 10: 10 holds); 12 would exceed it once only."""
    from tests.gamerules.eclipse_phase.helpers import GRENADE

    fighters = {1: TARGET, 2: TARGET}
    hits = blast_hits(GRENADE, [(1, 0.0, 13), (2, 2.0, 8), (3, 1.0, 10)], fighters,
                      FakeRandom(95, 10), P)
    assert [(h.who, h.hit.damage, h.hit.new_wounds) for h in hits] == [(1, 13, 2), (2, 8, 1)]
    assert hits[0].hit.stunned and not hits[1].hit.knocked_down
    assert hits[0].hit.som_test.target == 40 and hits[1].hit.som_test.target == 50
