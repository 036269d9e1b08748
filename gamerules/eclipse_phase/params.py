"""Eclipse Phase parameters: the seed's numbers, the first edition's where the seed is silent,
and our choices, each replaceable per campaign.

Source: seed 001_e6266c120d4801b4.txt (French summary of the first edition's combat chapter);
values the seed does not give come from ../shared/ECLIPSE-PHASE-NOTES.md (first edition).
docs/rules/eclipse-phase.md cites the seed for each and prints this table (a test keeps them in
step).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.parameters import RuleParameters, param

D = Decimal


@dataclass(frozen=True)
class EclipsePhaseParameters(RuleParameters):
    # Tests ("Succès / Échecs").
    success_inclusive: bool = param(False, False, True, "A test succeeds when the d100 equals "
                                    "the target too (seed: 'inférieur', strictly below: off).")
    margin_is_roll: bool = param(True, False, True, "The margin of success is the roll itself "
                                 "(seed: a higher successful roll is better); off: target - roll.")
    difficulty_max: int = param(30, 0, 100, "Largest difficulty modifier either way (seed: "
                                "+/-10 to +/-30).")
    wound_malus: int = param(10, 0, 50, "Malus to every test per wound (seed: 10).")
    trauma_malus: int = param(10, 0, 50, "Malus to every test per trauma (seed: as wounds).")
    critical_beats_success: bool = param(True, False, True, "In an opposed test a critical "
                                         "success beats a plain success whatever the rolls.")
    combat_tie_to_defender: bool = param(True, False, True, "An attack and a defence succeeding "
                                         "with the same roll: the defence holds (off: the attack "
                                         "hits).")
    moxie_max_default: int = param(3, 0, 20, "Moxie points of a new ego (GM-set afterwards).")
    aptitude_max: int = param(40, 1, 99, "Highest aptitude (with the morph's bonus).")
    # Creation (first edition; the seed gives none).
    creation_aptitude_points: int = param(105, 0, 700, "Aptitude points a new ego spends "
                                          "(first edition: 105; 0: no budget).")
    creation_aptitude_min: int = param(5, 1, 99, "Lowest aptitude of a new ego (first "
                                       "edition: 5).")
    creation_aptitude_max: int = param(30, 1, 99, "Highest aptitude of a new ego before the "
                                       "morph's bonus (first edition: 30).")
    # Initiative and phases (first edition; the seed gives SPD only).
    initiative_divisor: int = param(5, 1, 20, "Initiative base = (INT + REF) / this.")
    initiative_round_up: bool = param(True, False, True, "Round the initiative base up (off: down).")
    initiative_die: int = param(10, 2, 100, "Die added to the base each action turn (1d10).")
    initiative_per_wound: int = param(1, 0, 30, "Initiative lost per wound and per trauma.")
    speed_max: int = param(4, 1, 8, "Highest SPD, the number of action phases of a turn.")
    quick_actions_per_phase: int = param(3, 1, 10, "Quick actions in a phase without a complex "
                                         "one (seed: three; one quick with a complex action).")
    # Defence and attack ("Combat").
    ranged_dodge_divisor: int = param(2, 1, 10, "Dodge is divided by this against ranged "
                                      "attacks (seed: esquive/2), rounded down.")
    full_defence_bonus: int = param(30, 0, 100, "Full defence bonus, a complex action (seed: +30).")
    excellent_margin: int = param(30, 1, 99, "Margin of success giving the first DV bonus (30).")
    excellent_dv: int = param(5, 0, 50, "DV bonus at that margin (seed: +5).")
    superb_margin: int = param(60, 1, 99, "Margin of success giving the second DV bonus (60).")
    superb_dv: int = param(10, 0, 50, "DV bonus at that margin (seed: +10).")
    critical_ignores_armour: bool = param(True, False, True, "An attacker's critical success "
                                          "ignores armour (seed).")
    melee_damage_bonus_divisor: int = param(10, 0, 100, "Melee DV bonus = SOM / this, rounded "
                                            "down (first edition; 0: none).")
    psi_resist_multiplier: int = param(2, 1, 5, "A psi attack is opposed by WIL x this (seed: "
                                       "'résistés grâce à VOL').")
    # Damage and wounds ("Dommages").
    wound_threshold_divisor: int = param(5, 1, 20, "Wound threshold = DUR / this, rounded up, when "
                                         "the morph gives none (first edition).")
    wound_inclusive: bool = param(False, False, True, "DV equal to a multiple of the wound "
                                  "threshold gives that wound (seed: 'supérieure', strictly: off).")
    knockdown_som_multiplier: int = param(3, 1, 5, "Test against knockdown and stun: SOM x this "
                                          "(seed: SOMx3).")
    knocked_down_attack_bonus: int = param(10, 0, 50, "Bonus to attacks against a knocked down "
                                           "character (seed: +10).")
    stun_turns: int = param(1, 1, 10, "Action turns a stunned character cannot act.")
    bleeding_dv: int = param(1, 0, 10, "Damage per action turn beyond DUR with a wound.")
    death_multiplier_bio: Decimal = param(D("1.5"), D("1"), D("5"), "Death rating of biomorphs "
                                          "and pods = DUR x this, rounded up (seed: DURx1.5).")
    death_multiplier_synth: Decimal = param(D("2"), D("1"), D("5"), "Destruction of synthmorphs "
                                            "at DUR x this (seed: DURx2).")
    # Stress ("Santé Mentale & stress").
    lucidity_per_wil: int = param(2, 1, 5, "Lucidity = WIL x this when the ego gives none.")
    trauma_threshold_divisor: int = param(5, 1, 20, "Trauma threshold = LUC / this, rounded up.")
    insanity_per_lucidity: int = param(2, 1, 5, "Insanity rating = LUC x this.")
    stress_resist_multiplier: int = param(3, 1, 5, "Stress is resisted with a WIL x this test.")
    stress_resisted_percent: int = param(50, 0, 100, "Share of the SV kept after a successful "
                                         "resistance test (0: all resisted), rounded down.")
    trauma_inclusive: bool = param(False, False, True, "SV equal to a multiple of the trauma "
                                   "threshold gives that trauma (as wounds: off).")
    traumas_per_disorder: int = param(4, 1, 20, "Traumas in total that turn derangements into a "
                                      "disorder (first edition: 4).")
    # Movement ("Mouvement").
    walk_m: int = param(4, 0, 100, "Metres walked per action turn (seed: 4 m).")
    run_m: int = param(20, 0, 200, "Metres run per action turn (seed: 20 m).")
    running_malus: int = param(10, 0, 50, "Malus to every test while running (seed: -10).")
    freerun_m_per_10_margin: int = param(1, 0, 20, "Extra metres run per full 10 of margin on a "
                                         "Freerunning or Freefall test.")
    low_gravity_g: Decimal = param(D("0.6"), D("0"), D("2"), "Below this gravity jumps go "
                                   "further (seed: <0.6g).")
    low_gravity_jump_multiplier: int = param(2, 1, 10, "Jump multiplier in low gravity (x2).")
    high_gravity_g: Decimal = param(D("1.2"), D("1"), D("5"), "Above this gravity wounds follow "
                                    "(seed: >1.2g).")
    high_gravity_step_g: Decimal = param(D("0.2"), D("0.05"), D("2"), "One wound's malus per "
                                         "full step of this over the threshold (seed: 0.2g).")
    # Options ("Options & Complications").
    charge_malus: int = param(10, 0, 50, "Attack malus when charging (seed: -10).")
    charge_dv: int = param(10, 0, 50, "DV bonus when charging (seed: +10).")
    receive_charge_bonus: int = param(20, 0, 50, "Defence bonus against a charge after delaying "
                                      "(seed: +20).")
    subdue_escape_malus: int = param(30, 0, 90, "Malus to the SOMx3 escape test (seed: -30).")
    subdue_escape_som_multiplier: int = param(3, 1, 5, "Escape test: SOM x this (seed: SOMx3).")
    aim_quick_bonus: int = param(10, 0, 50, "Aiming with a quick action (seed: +10).")
    aim_complex_bonus: int = param(30, 0, 60, "Aiming with a complex action (seed: +30).")
    semi_auto_second_target_malus: int = param(20, 0, 50, "Malus to a second target in the same "
                                               "phase (seed: -20 per extra target).")
    burst_rounds: int = param(3, 1, 20, "Rounds per burst (seed: 3).")
    burst_bonus: int = param(10, 0, 50, "Concentrated burst: attack bonus (seed: +10).")
    burst_dv_dice: int = param(1, 0, 5, "Concentrated burst: d10s of DV added (seed: +1d10).")
    full_auto_rounds: int = param(10, 1, 50, "Rounds per full-auto attack (seed: 10).")
    full_auto_bonus: int = param(30, 0, 60, "Concentrated full auto: attack bonus (seed: +30).")
    full_auto_dv_dice: int = param(3, 0, 10, "Concentrated full auto: d10s of DV (seed: +3d10).")
    spread_m: int = param(1, 0, 10, "Greatest spacing of the targets of a burst or full auto "
                                    "(seed: 1 m).")
    suppressive_rounds: int = param(20, 1, 100, "Rounds of suppressive fire (seed: 20).")
    suppressive_width_m: int = param(20, 1, 100, "Width of the suppressive zone (seed: 20 m arc).")
    suppressive_spares_full_defence: bool = param(True, False, True, "Targets in full defence "
                                                  "are not attacked by suppressive fire.")
    beam_sweep_bonus: int = param(20, 0, 50, "Beam sweep: bonus to the second attack after a "
                                  "miss (seed's options: +20; its table says +10).")
    beam_concentration_multiplier: int = param(2, 1, 5, "Beam concentration multiplies DV (x2).")
    blind_fire_malus: int = param(30, 0, 90, "Blind fire malus (seed: -30).")
    indirect_fire_malus: int = param(30, 0, 90, "Indirect fire with a spotter (seed: -30; "
                                     "homing weapons: none).")
    called_shot_malus: int = param(10, 0, 50, "Called shot malus (seed: -10).")
    called_shot_margin: int = param(30, 1, 99, "Margin a called shot needs for its effect (30+).")
    disarm_som_multiplier: int = param(3, 1, 5, "Disarmed: SOM x this to keep the weapon.")
    blast_dv_per_m: int = param(2, 0, 20, "Blast DV lost per metre from the centre (seed: 2).")
    cone_targets_point_blank: int = param(1, 1, 10, "Targets a cone hits at point blank (seed: 1).")
    cone_targets_short: int = param(1, 1, 10, "Targets a cone hits at short range (choice: 1).")
    cone_targets_medium: int = param(2, 1, 10, "Targets a cone hits at medium range (seed: 2).")
    cone_targets_long: int = param(3, 1, 20, "Targets a cone hits at long and extreme range "
                                   "at least (seed: 3+).")
    surprise_perception_malus: int = param(20, 0, 90, "Perception malus against an ambush "
                                           "(seed: -20).")
    surprise_initiative_malus: int = param(30, 0, 90, "Initiative malus of a target that noticed "
                                           "the ambush (seed: -30).")
    surprise_margin: int = param(30, 1, 99, "Perception margin that cancels the malus (30+).")
    off_hand_malus: int = param(20, 0, 50, "Off-hand malus (seed: -20) unless ambidextrous.")
    extra_weapon_bonus: int = param(10, 0, 30, "Bonus per extra weapon on one target (+10).")
    extra_weapon_bonus_max: int = param(30, 0, 90, "Cap of that bonus (seed: +30).")
    touch_bonus: int = param(20, 0, 50, "Touch attack bonus (seed: +20).")
    two_handed_one_hand_malus: int = param(20, 0, 50, "Two-handed weapon in one hand (-20).")
