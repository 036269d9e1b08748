"""Attack and defence, DV bonuses, criticals, manoeuvres on the attack roll (seed 001, "Combat",
"Options & Complications")."""

import pytest

from gamerules.eclipse_phase.attack import (AttackOptions, CalledShot, Combatant, Defence,
                                            DefenceChoice, disarm_test, margin_dv_bonus,
                                            plan_attack, resolve_attack, roll_damage)
from gamerules.eclipse_phase.errors import DefenceRefused, InvalidModifier, ManoeuvreRefused
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.health import Health, Incoming, take_hit
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.turn import ActionKind
from tests.gamerules.eclipse_phase.helpers import (KNIFE, LASER, PISTOL, PSI, SHOCK, SWORD, SYNTH,
                                                   TARGET, SHOOTER, P, character)
from tests.gamerules.fakes import FakeRandom



def attack(weapon, *faces, attacker=SHOOTER, defender=TARGET, params=P, **kw):
    return resolve_attack(attacker, defender, weapon, FakeRandom(*faces), params, **kw)


def test_ranged_against_dodge_halved_melee_against_dodge():
    ranged = attack(PISTOL, 20, 24)
    assert ranged.defence.target == 25 and ranged.defence.label == "dodge/2"
    assert not ranged.hit  # 24 < 25 succeeds and beats 20
    assert attack(PISTOL, 20, 25).hit  # 25 is not under 25
    melee = attack(KNIFE, 20, 49)
    assert melee.defence.target == 50 and melee.defence.label == "dodge" and not melee.hit


def test_the_highest_successful_roll_wins():
    assert attack(PISTOL, 40, 20).hit  # 40 beats 20
    assert not attack(KNIFE, 40, 45).hit  # melee: dodge 50, 45 beats 40
    assert attack(KNIFE, 40, 51).hit  # the dodge fails
    assert not attack(PISTOL, 61).hit and attack(PISTOL, 61).defence is None  # no defence rolled


def test_a_tie_goes_to_the_defence_or_to_the_attack_by_parameter():
    tie = attack(KNIFE, 40, 40)
    assert tie.tie and not tie.hit
    assert attack(KNIFE, 40, 40, params=EclipsePhaseParameters(combat_tie_to_defender=False)).hit


def test_melee_skill_defence_only_against_melee():
    parry = attack(KNIFE, 40, 44, defence=DefenceChoice(Defence.MELEE_SKILL, skill="unarmed_combat"))
    assert parry.defence.target == 45 and not parry.hit
    with pytest.raises(DefenceRefused) as info:
        attack(PISTOL, 40, 44, defence=DefenceChoice(Defence.MELEE_SKILL, skill="blades"))
    assert info.value.code == "ep_defence_refused"


def test_full_defence_plus_30():
    full = attack(PISTOL, 40, 50, defence=DefenceChoice(full_defence=True))
    assert full.defence.target == 55 and not full.hit
    assert ("full defence", 30) in [(m.label, m.value) for m in full.defence.modifiers]


def test_the_surroundings_modifiers_go_on_the_defence_but_not_on_psi():
    """DefenceChoice.extra (the encounter's high gravity): 25 dodge/2 - 20 = 5, so the dodge of
    20 that beat the attack's 10 now fails and the shot hits; WIL against psi takes none."""
    from gamerules.modifiers import Modifier

    heavy = (Modifier("gravity", -20, "gravity"),)
    plain = attack(PISTOL, 10, 20)
    assert plain.defence.target == 25 and not plain.hit
    held = attack(PISTOL, 10, 20, defence=DefenceChoice(extra=heavy))
    assert held.defence.target == 5 and held.hit
    assert ("gravity", -20) in [(m.label, m.value) for m in held.defence.modifiers]
    psi = attack(PSI, 10, 20, defence=DefenceChoice(extra=heavy))
    assert all(m.source != "gravity" for m in psi.defence.modifiers)


def test_surprised_cannot_defend_or_spends_a_quick_action():
    surprised = attack(PISTOL, 40, defence=DefenceChoice(surprised=True))
    assert surprised.hit and surprised.defence is None and surprised.defence_cost is None
    quick = attack(PISTOL, 40, 45, defence=DefenceChoice(surprised=True, spend_quick=True))
    assert quick.defence_cost is ActionKind.QUICK and quick.defence is not None
    assert attack(PISTOL, 40, 45).defence_cost is ActionKind.AUTOMATIC
    with pytest.raises(DefenceRefused):
        attack(PISTOL, 40, defence=DefenceChoice(surprised=True, full_defence=True))


@pytest.mark.parametrize(("margin", "bonus"), [(0, 0), (29, 0), (30, 5), (59, 5), (60, 10),
                                               (98, 10)])
def test_margin_of_success_30_and_60_give_plus_5_and_plus_10_dv(margin, bonus):
    assert margin_dv_bonus(margin, P) == bonus


@pytest.mark.parametrize(("face", "bonus"), [(29, 0), (30, 5), (59, 5), (60, 10)])
def test_dv_bonus_from_the_attack_roll(face, bonus):
    attacker = Combatant(character(skills={"kinetic_weapons": 90}))
    result = attack(PISTOL, face, attacker=attacker, defence=DefenceChoice(Defence.NONE))
    assert result.dv_bonus == bonus
    dv = roll_damage(result, attacker.character, FakeRandom(4), P)
    assert dv.dv == 4 + 2 + bonus


def test_a_critical_hit_ignores_armour():
    result = attack(PISTOL, 33, 20)
    assert result.critical and result.ignore_armour
    dv = roll_damage(result, SHOOTER.character, FakeRandom(10), P)
    armoured = character(morph=SYNTH)  # armour 4 kinetic
    hit = take_hit(armoured, Health(),
                   Incoming(dv.dv, dv.damage_type, dv.ap, ignore_armour=dv.ignore_armour),
                   FakeRandom(1), P)
    assert hit.armour.ignored and hit.damage == 12 + 5  # margin 33: +5


def test_a_defenders_winning_critical_damages_the_weapon():
    mishap = attack(KNIFE, 40, 44)
    assert mishap.weapon_mishap and not mishap.hit
    assert not attack(KNIFE, 40, 30).weapon_mishap  # a plain success
    beaten = attack(KNIFE, 22, 11)  # the attacker's higher critical wins: no mishap
    assert beaten.hit and not beaten.weapon_mishap


def test_psi_is_resisted_with_wil_x2_and_meets_no_armour():
    result = attack(PSI, 40, 29, defence=DefenceChoice(surprised=True))
    assert result.defence.target == 30 and result.defence.label == "WILx2 against psi"
    assert result.hit


def test_charge_minus_10_dv_plus_10_and_receiving_it_plus_20_after_delaying():
    options = AttackOptions(charge=True)
    result = attack(KNIFE, 40, 60, options=options)
    assert result.attack.target == 50 and result.hit
    dv = roll_damage(result, SHOOTER.character, FakeRandom(3), P)
    assert [(m.label, m.value) for m in dv.modifiers] == [
        ("margin of success 40", 5), ("charge", 10), ("SOM damage bonus", 2)]
    assert dv.dv == 3 + 5 + 10 + 2
    ready = attack(KNIFE, 40, 60, options=options, defence=DefenceChoice(delayed_for_charge=True))
    assert ready.defence.target == 70 and not ready.hit
    with pytest.raises(ManoeuvreRefused):
        attack(PISTOL, 40, options=options)


def test_called_shot_minus_10_and_its_effect_at_margin_30():
    options = AttackOptions(called_shot=CalledShot.IGNORE_ARMOUR)
    low = attack(PISTOL, 29, 80, options=options)
    assert low.attack.target == 50 and low.hit and low.called_effect is None
    assert not low.ignore_armour
    high = attack(PISTOL, 30, 80, options=options)
    assert high.called_effect is CalledShot.IGNORE_ARMOUR and high.ignore_armour
    disarm = attack(PISTOL, 45, 80, options=AttackOptions(called_shot=CalledShot.DISARM))
    dv = roll_damage(disarm, SHOOTER.character, FakeRandom(9), P)
    assert dv.halved and dv.dv == (9 + 2 + 5) // 2
    assert disarm_test(TARGET, FakeRandom(59), P).success  # SOMx3 = 60


def test_subdue_needs_a_margin_equal_to_the_targets_dur_and_deals_no_damage():
    subdue = AttackOptions(subdue=True)
    held = attack(KNIFE, 30, 80, options=subdue)
    assert held.subdued  # margin 30 >= DUR 30
    assert not attack(KNIFE, 29, 80, options=subdue).subdued
    with pytest.raises(ManoeuvreRefused):
        roll_damage(held, SHOOTER.character, FakeRandom(5), P)
    with pytest.raises(ManoeuvreRefused):
        attack(PISTOL, 30, options=subdue)


def test_touch_plus_20_two_handed_in_one_hand_minus_20_knocked_down_target_plus_10():
    touch = attack(SHOCK, 50, 80)
    assert touch.attack.target == 45 + 20
    one_hand = attack(SWORD, 50, 80, options=AttackOptions(one_handed=True))
    assert one_hand.attack.target == 40
    prone = attack(KNIFE, 50, 80, defender=Combatant(TARGET.character, knocked_down=True))
    assert prone.attack.target == 70


def test_situations_range_bands_and_attacker_wounds_are_in_the_log():
    result = attack(PISTOL, 10, 90, attacker=Combatant(SHOOTER.character, wounds=1),
                    options=AttackOptions(situations={"smartlink": 1, "target_cover_minor": 1},
                                          range_band=RangeBand.LONG))
    assert [(m.label, m.value) for m in result.attack.modifiers] == [
        ("wounds (1)", -10), ("smartlink or laser sight", 10), ("target in minor cover", -10),
        ("long range", -20)]
    assert result.attack.target == 30
    with pytest.raises(InvalidModifier):
        attack(KNIFE, 10, options=AttackOptions(situations={"smartlink": 1}))
    with pytest.raises(InvalidModifier):
        attack(PISTOL, 10, options=AttackOptions(situations={"target_cover_minor": 1,
                                                             "target_cover_major": 1}))


def test_plan_gives_the_targets_without_rolling():
    plan = plan_attack(SHOOTER, TARGET, LASER, P)
    assert (plan.attack_target, plan.defence_target) == (60, 25)
