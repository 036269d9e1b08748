"""Eclipse Phase parameters: the seed's numbers, the first edition's where the seed is silent,
and our choices, each replaceable per campaign.

Source: seed 001_e6266c120d4801b4.txt (French summary of the first edition's combat chapter);
values the seed does not give come from ../shared/ECLIPSE-PHASE-NOTES.md (first edition).
docs/rules/eclipse-phase.md cites the seed for each and prints this table (a test keeps them in
step). ``LABELS`` names each for people; ``conflicts`` says which combinations contradict
themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.eclipse_phase.errors import EclipseParameterConflict
from gamerules.errors import gettext_noop as N_
from gamerules.parameters import RuleParameters, param

D = Decimal

APTITUDE_COUNT = 7  # COG, COO, INT, REF, SAV, SOM, WIL (gamerules.eclipse_phase.sheet.Aptitude)

# What people read for each parameter (the admin translates them).
LABELS: dict[str, str] = {
    "success_inclusive": N_("Success on a roll equal to the target"),
    "margin_is_roll": N_("The margin of success is the roll"),
    "difficulty_max": N_("Largest difficulty modifier"),
    "wound_malus": N_("Malus per wound"),
    "trauma_malus": N_("Malus per trauma"),
    "critical_beats_success": N_("A critical beats a success in opposed tests"),
    "combat_tie_to_defender": N_("Ties go to the defender"),
    "moxie_max_default": N_("Moxie of a new ego"),
    "aptitude_max": N_("Highest aptitude"),
    "aptitude_max_per_morph": N_("Each morph's own aptitude maximum"),
    "default_any_skill": N_("Every untrained skill defaults"),
    "creation_aptitude_points": N_("Aptitude points at creation"),
    "creation_aptitude_min": N_("Lowest aptitude at creation"),
    "creation_aptitude_max": N_("Highest aptitude at creation"),
    "initiative_divisor": N_("Initiative divisor"),
    "initiative_round_up": N_("Initiative rounds up"),
    "initiative_die": N_("Initiative die (sides)"),
    "initiative_per_wound": N_("Initiative lost per wound"),
    "speed_max": N_("Highest SPD"),
    "quick_actions_per_phase": N_("Quick actions per phase"),
    "ranged_dodge_divisor": N_("Dodge divisor against ranged attacks"),
    "full_defence_bonus": N_("Full defence bonus"),
    "excellent_margin": N_("Margin of the first DV bonus"),
    "excellent_dv": N_("First DV bonus"),
    "superb_margin": N_("Margin of the second DV bonus"),
    "superb_dv": N_("Second DV bonus"),
    "critical_ignores_armour": N_("A critical ignores armour"),
    "melee_damage_bonus_divisor": N_("SOM divisor of the melee DV bonus"),
    "psi_resist_multiplier": N_("WIL multiplier against psi"),
    "wound_threshold_divisor": N_("Wound threshold divisor"),
    "wound_inclusive": N_("A wound at exactly the threshold"),
    "knockdown_som_multiplier": N_("SOM multiplier against knockdown and stun"),
    "knocked_down_attack_bonus": N_("Bonus against a knocked down target"),
    "stun_turns": N_("Turns stunned"),
    "bleeding_dv": N_("Bleeding DV per turn"),
    "badly_wounded_percent": N_("Badly wounded from (percent of DUR)"),
    "death_multiplier_bio": N_("Death rating multiplier (biomorphs)"),
    "death_multiplier_synth": N_("Destruction multiplier (synthmorphs)"),
    "lucidity_per_wil": N_("Lucidity per WIL"),
    "trauma_threshold_divisor": N_("Trauma threshold divisor"),
    "insanity_per_lucidity": N_("Insanity rating per lucidity"),
    "stress_resist_multiplier": N_("WIL multiplier against stress"),
    "stress_resisted_percent": N_("Stress kept after resisting (percent)"),
    "trauma_inclusive": N_("A trauma at exactly the threshold"),
    "traumas_per_disorder": N_("Traumas per disorder"),
    "walk_m": N_("Walking distance (m per turn)"),
    "run_m": N_("Running distance (m per turn)"),
    "running_malus": N_("Malus while running"),
    "freerun_m_per_10_margin": N_("Extra metres per 10 of freerunning margin"),
    "low_gravity_g": N_("Low gravity below (g)"),
    "low_gravity_jump_multiplier": N_("Jump multiplier in low gravity"),
    "high_gravity_g": N_("High gravity above (g)"),
    "high_gravity_step_g": N_("High gravity step per wound malus (g)"),
    "charge_malus": N_("Charge attack malus"),
    "charge_dv": N_("Charge DV bonus"),
    "receive_charge_bonus": N_("Bonus against a charge"),
    "subdue_escape_malus": N_("Malus to escape when subdued"),
    "subdue_escape_som_multiplier": N_("SOM multiplier of the escape test"),
    "aim_quick_bonus": N_("Quick aiming bonus"),
    "aim_complex_bonus": N_("Complex aiming bonus"),
    "semi_auto_second_target_malus": N_("Malus per extra target in a phase"),
    "burst_rounds": N_("Rounds per burst"),
    "burst_bonus": N_("Concentrated burst bonus"),
    "burst_dv_dice": N_("Concentrated burst DV dice (d10)"),
    "full_auto_rounds": N_("Rounds per full auto"),
    "full_auto_bonus": N_("Concentrated full auto bonus"),
    "full_auto_dv_dice": N_("Concentrated full auto DV dice (d10)"),
    "spread_m": N_("Greatest spacing of spread targets (m)"),
    "suppressive_rounds": N_("Rounds of suppressive fire"),
    "suppressive_width_m": N_("Width of suppressive fire (m)"),
    "suppressive_spares_full_defence": N_("Suppressive fire spares full defence"),
    "beam_sweep_bonus": N_("Beam sweep bonus"),
    "beam_concentration_multiplier": N_("Beam concentration DV multiplier"),
    "blind_fire_malus": N_("Blind fire malus"),
    "indirect_fire_malus": N_("Indirect fire malus"),
    "called_shot_malus": N_("Called shot malus"),
    "called_shot_margin": N_("Called shot margin"),
    "disarm_som_multiplier": N_("SOM multiplier against disarming"),
    "blast_dv_per_m": N_("Blast DV lost per metre"),
    "cone_targets_point_blank": N_("Cone targets at point blank"),
    "cone_targets_short": N_("Cone targets at short range"),
    "cone_targets_medium": N_("Cone targets at medium range"),
    "cone_targets_long": N_("Cone targets at long range"),
    "surprise_perception_malus": N_("Perception malus against an ambush"),
    "surprise_initiative_malus": N_("Initiative malus after an ambush"),
    "surprise_margin": N_("Perception margin against an ambush"),
    "off_hand_malus": N_("Off-hand malus"),
    "extra_weapon_bonus": N_("Bonus per extra weapon"),
    "extra_weapon_bonus_max": N_("Most bonus for extra weapons"),
    "touch_bonus": N_("Touch attack bonus"),
    "two_handed_one_hand_malus": N_("Malus of a two-handed weapon in one hand"),
}

# The parameters by rule chapter (the admin's fieldsets; docs/rules/eclipse-phase.md).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Tests and criticals"), ("success_inclusive", "margin_is_roll", "difficulty_max",
                                 "wound_malus", "trauma_malus", "critical_beats_success",
                                 "combat_tie_to_defender")),
    (N_("Ego, aptitudes and skills"), ("moxie_max_default", "aptitude_max",
                                       "aptitude_max_per_morph", "default_any_skill",
                                       "creation_aptitude_points", "creation_aptitude_min",
                                       "creation_aptitude_max")),
    (N_("Initiative and action phases"), ("initiative_divisor", "initiative_round_up",
                                          "initiative_die", "initiative_per_wound", "speed_max",
                                          "quick_actions_per_phase")),
    (N_("Defence, attack and damage value"), ("ranged_dodge_divisor", "full_defence_bonus",
                                              "excellent_margin", "excellent_dv", "superb_margin",
                                              "superb_dv", "critical_ignores_armour",
                                              "melee_damage_bonus_divisor",
                                              "psi_resist_multiplier")),
    (N_("Wounds, knockdown and death"), ("wound_threshold_divisor", "wound_inclusive",
                                         "knockdown_som_multiplier", "knocked_down_attack_bonus",
                                         "stun_turns", "bleeding_dv", "death_multiplier_bio",
                                         "death_multiplier_synth", "badly_wounded_percent")),
    (N_("Stress and traumas"), ("lucidity_per_wil", "trauma_threshold_divisor",
                                "insanity_per_lucidity", "stress_resist_multiplier",
                                "stress_resisted_percent", "trauma_inclusive",
                                "traumas_per_disorder")),
    (N_("Movement and gravity"), ("walk_m", "run_m", "running_malus", "freerun_m_per_10_margin",
                                  "low_gravity_g", "low_gravity_jump_multiplier", "high_gravity_g",
                                  "high_gravity_step_g")),
    (N_("Charges, holds and aiming"), ("charge_malus", "charge_dv", "receive_charge_bonus",
                                       "subdue_escape_malus", "subdue_escape_som_multiplier",
                                       "aim_quick_bonus", "aim_complex_bonus")),
    (N_("Firing modes"), ("semi_auto_second_target_malus", "burst_rounds", "burst_bonus",
                          "burst_dv_dice", "full_auto_rounds", "full_auto_bonus",
                          "full_auto_dv_dice", "spread_m", "suppressive_rounds",
                          "suppressive_width_m", "suppressive_spares_full_defence",
                          "beam_sweep_bonus", "beam_concentration_multiplier")),
    (N_("Blind fire, indirect fire and called shots"), ("blind_fire_malus", "indirect_fire_malus",
                                                        "called_shot_malus", "called_shot_margin",
                                                        "disarm_som_multiplier")),
    (N_("Explosives and area effects"), ("blast_dv_per_m", "cone_targets_point_blank",
                                         "cone_targets_short", "cone_targets_medium",
                                         "cone_targets_long")),
    (N_("Surprise and ambush"), ("surprise_perception_malus", "surprise_initiative_malus",
                                 "surprise_margin")),
    (N_("Several weapons and touch attacks"), ("off_hand_malus", "extra_weapon_bonus",
                                               "extra_weapon_bonus_max", "touch_bonus",
                                               "two_handed_one_hand_malus")),
)


@dataclass(frozen=True)
class EclipsePhaseParameters(RuleParameters):
    labels = LABELS
    groups = GROUPS

    # Tests ("Succès / Échecs").
    success_inclusive: bool = param(False, False, True, N_("A test succeeds when the d100 equals "
                                    "the target too (seed: 'inférieur', strictly below: off)."))
    margin_is_roll: bool = param(True, False, True, N_("The margin of success is the roll itself "
                                 "(seed: a higher successful roll is better); off: target - roll."))
    difficulty_max: int = param(30, 0, 100, N_("Largest difficulty modifier either way (seed: "
                                "+/-10 to +/-30)."))
    wound_malus: int = param(10, 0, 50, N_("Malus to every test per wound (seed: 10)."))
    trauma_malus: int = param(10, 0, 50, N_("Malus to every test per trauma (seed: as wounds)."))
    critical_beats_success: bool = param(True, False, True, N_("In an opposed test a critical "
                                         "success beats a plain success whatever the rolls."))
    combat_tie_to_defender: bool = param(True, False, True, N_("An attack and a defence succeeding "
                                         "with the same roll: the defence holds (off: the attack "
                                         "hits)."))
    moxie_max_default: int = param(3, 0, 20, N_("Moxie points of a new ego (GM-set afterwards)."))
    aptitude_max: int = param(40, 1, 99, N_("Highest aptitude (with the morph's bonus) of a morph "
                              "giving no maximum, or of every morph when each morph's own "
                              "maximum is off."))
    aptitude_max_per_morph: bool = param(True, False, True, N_("Each morph's own aptitude maximum "
                                         "caps its aptitudes (first edition); off: the flat "
                                         "aptitude_max for every morph."))
    default_any_skill: bool = param(False, False, True, N_("Every untrained skill defaults to its "
                                    "aptitude, psi and technical ones too (first edition: off)."))
    # Creation (first edition; the seed gives none).
    creation_aptitude_points: int = param(105, 0, 700, N_("Aptitude points a new ego spends "
                                          "(first edition: 105; 0: no budget)."))
    creation_aptitude_min: int = param(5, 1, 99, N_("Lowest aptitude of a new ego (first "
                                       "edition: 5)."))
    creation_aptitude_max: int = param(30, 1, 99, N_("Highest aptitude of a new ego before the "
                                       "morph's bonus (first edition: 30)."))
    # Initiative and phases (first edition; the seed gives SPD only).
    initiative_divisor: int = param(5, 1, 20, N_("Initiative base = (INT + REF) / this."))
    initiative_round_up: bool = param(True, False, True, N_("Round the initiative base up (off: down)."))
    initiative_die: int = param(10, 2, 100, N_("Die added to the base each action turn (1d10)."))
    initiative_per_wound: int = param(1, 0, 30, N_("Initiative lost per wound and per trauma."))
    speed_max: int = param(4, 1, 8, N_("Highest SPD, the number of action phases of a turn."))
    quick_actions_per_phase: int = param(3, 1, 10, N_("Quick actions in a phase without a complex "
                                         "one (seed: three; one quick with a complex action)."))
    # Defence and attack ("Combat").
    ranged_dodge_divisor: int = param(2, 1, 10, N_("Dodge is divided by this against ranged "
                                      "attacks (seed: esquive/2), rounded down."))
    full_defence_bonus: int = param(30, 0, 100, N_("Full defence bonus, a complex action (seed: +30)."))
    excellent_margin: int = param(30, 1, 99, N_("Margin of success giving the first DV bonus (30)."))
    excellent_dv: int = param(5, 0, 50, N_("DV bonus at that margin (seed: +5)."))
    superb_margin: int = param(60, 1, 99, N_("Margin of success giving the second DV bonus (60)."))
    superb_dv: int = param(10, 0, 50, N_("DV bonus at that margin (seed: +10)."))
    critical_ignores_armour: bool = param(True, False, True, N_("An attacker's critical success "
                                          "ignores armour (seed)."))
    melee_damage_bonus_divisor: int = param(10, 0, 100, N_("Melee DV bonus = SOM / this, rounded "
                                            "down (first edition; 0: none)."))
    psi_resist_multiplier: int = param(2, 1, 5, N_("A psi attack is opposed by WIL x this (seed: "
                                       "'résistés grâce à VOL')."))
    # Damage and wounds ("Dommages").
    wound_threshold_divisor: int = param(5, 1, 20, N_("Wound threshold = DUR / this, rounded up, when "
                                         "the morph gives none (first edition)."))
    wound_inclusive: bool = param(False, False, True, N_("DV equal to a multiple of the wound "
                                  "threshold gives that wound (seed: 'supérieure', strictly: off)."))
    knockdown_som_multiplier: int = param(3, 1, 5, N_("Test against knockdown and stun: SOM x this "
                                          "(seed: SOMx3)."))
    knocked_down_attack_bonus: int = param(10, 0, 50, N_("Bonus to attacks against a knocked down "
                                           "character (seed: +10)."))
    stun_turns: int = param(1, 1, 10, N_("Action turns a stunned character cannot act."))
    bleeding_dv: int = param(1, 0, 10, N_("Damage per action turn beyond DUR with a wound."))
    badly_wounded_percent: int = param(50, 1, 100, N_("An enemy shown in words reads 'badly "
                                       "wounded' from this share of its DUR in damage."))
    death_multiplier_bio: Decimal = param(D("1.5"), D("1"), D("5"), N_("Death rating of biomorphs "
                                          "and pods = DUR x this, rounded up (seed: DURx1.5)."))
    death_multiplier_synth: Decimal = param(D("2"), D("1"), D("5"), N_("Destruction of synthmorphs "
                                            "at DUR x this (seed: DURx2)."))
    # Stress ("Santé Mentale & stress").
    lucidity_per_wil: int = param(2, 1, 5, N_("Lucidity = WIL x this when the ego gives none."))
    trauma_threshold_divisor: int = param(5, 1, 20, N_("Trauma threshold = LUC / this, rounded up."))
    insanity_per_lucidity: int = param(2, 1, 5, N_("Insanity rating = LUC x this."))
    stress_resist_multiplier: int = param(3, 1, 5, N_("Stress is resisted with a WIL x this test."))
    stress_resisted_percent: int = param(50, 0, 100, N_("Share of the SV kept after a successful "
                                         "resistance test (0: all resisted), rounded down."))
    trauma_inclusive: bool = param(False, False, True, N_("SV equal to a multiple of the trauma "
                                   "threshold gives that trauma (as wounds: off)."))
    traumas_per_disorder: int = param(4, 1, 20, N_("Traumas in total that turn derangements into a "
                                      "disorder (first edition: 4)."))
    # Movement ("Mouvement").
    walk_m: int = param(4, 0, 100, N_("Metres walked per action turn (seed: 4 m)."))
    run_m: int = param(20, 0, 200, N_("Metres run per action turn (seed: 20 m)."))
    running_malus: int = param(10, 0, 50, N_("Malus to every test while running (seed: -10)."))
    freerun_m_per_10_margin: int = param(1, 0, 20, N_("Extra metres run per full 10 of margin on a "
                                         "Freerunning or Freefall test."))
    low_gravity_g: Decimal = param(D("0.6"), D("0"), D("2"), N_("Below this gravity jumps go "
                                   "further (seed: <0.6g)."))
    low_gravity_jump_multiplier: int = param(2, 1, 10, N_("Jump multiplier in low gravity (x2)."))
    high_gravity_g: Decimal = param(D("1.2"), D("1"), D("5"), N_("Above this gravity wounds follow "
                                    "(seed: >1.2g)."))
    high_gravity_step_g: Decimal = param(D("0.2"), D("0.05"), D("2"), N_("One wound's malus per "
                                         "full step of this over the threshold (seed: 0.2g)."))
    # Options ("Options & Complications").
    charge_malus: int = param(10, 0, 50, N_("Attack malus when charging (seed: -10)."))
    charge_dv: int = param(10, 0, 50, N_("DV bonus when charging (seed: +10)."))
    receive_charge_bonus: int = param(20, 0, 50, N_("Defence bonus against a charge after delaying "
                                      "(seed: +20)."))
    subdue_escape_malus: int = param(30, 0, 90, N_("Malus to the escape test on SOM (SOM x the "
                                     "escape test's multiplier; seed: -30)."))
    subdue_escape_som_multiplier: int = param(3, 1, 5, N_("Escape test: SOM x this (seed: SOMx3)."))
    aim_quick_bonus: int = param(10, 0, 50, N_("Aiming with a quick action (seed: +10)."))
    aim_complex_bonus: int = param(30, 0, 60, N_("Aiming with a complex action (seed: +30)."))
    semi_auto_second_target_malus: int = param(20, 0, 50, N_("Malus to a second target in the same "
                                               "phase (seed: -20 per extra target)."))
    burst_rounds: int = param(3, 1, 20, N_("Rounds per burst (seed: 3)."))
    burst_bonus: int = param(10, 0, 50, N_("Concentrated burst: attack bonus (seed: +10)."))
    burst_dv_dice: int = param(1, 0, 5, N_("Concentrated burst: d10s of DV added (seed: +1d10)."))
    full_auto_rounds: int = param(10, 1, 50, N_("Rounds per full-auto attack (seed: 10)."))
    full_auto_bonus: int = param(30, 0, 60, N_("Concentrated full auto: attack bonus (seed: +30)."))
    full_auto_dv_dice: int = param(3, 0, 10, N_("Concentrated full auto: d10s of DV (seed: +3d10)."))
    spread_m: int = param(1, 0, 10, N_("Greatest spacing of the targets of a burst or full auto "
                                    "(seed: 1 m)."))
    suppressive_rounds: int = param(20, 1, 100, N_("Rounds of suppressive fire (seed: 20)."))
    suppressive_width_m: int = param(20, 1, 100, N_("Width of the suppressive zone (seed: 20 m arc)."))
    suppressive_spares_full_defence: bool = param(True, False, True, N_("Targets in full defence "
                                                  "are not attacked by suppressive fire."))
    beam_sweep_bonus: int = param(20, 0, 50, N_("Beam sweep: bonus to the second attack after a "
                                  "miss (seed's options: +20; its table says +10)."))
    beam_concentration_multiplier: int = param(2, 1, 5, N_("Beam concentration multiplies DV (x2)."))
    blind_fire_malus: int = param(30, 0, 90, N_("Blind fire malus (seed: -30)."))
    indirect_fire_malus: int = param(30, 0, 90, N_("Indirect fire with a spotter (seed: -30; "
                                     "homing weapons: none)."))
    called_shot_malus: int = param(10, 0, 50, N_("Called shot malus (seed: -10)."))
    called_shot_margin: int = param(30, 1, 99, N_("Margin a called shot needs for its effect (30+)."))
    disarm_som_multiplier: int = param(3, 1, 5, N_("Disarmed: SOM x this to keep the weapon."))
    blast_dv_per_m: int = param(2, 0, 20, N_("Blast DV lost per metre from the centre (seed: 2)."))
    cone_targets_point_blank: int = param(1, 1, 10, N_("Targets a cone hits at point blank (seed: 1)."))
    cone_targets_short: int = param(1, 1, 10, N_("Targets a cone hits at short range (choice: 1)."))
    cone_targets_medium: int = param(2, 1, 10, N_("Targets a cone hits at medium range (seed: 2)."))
    cone_targets_long: int = param(3, 1, 20, N_("Targets a cone hits at long and extreme range "
                                   "at least (seed: 3+)."))
    surprise_perception_malus: int = param(20, 0, 90, N_("Perception malus against an ambush "
                                           "(seed: -20)."))
    surprise_initiative_malus: int = param(30, 0, 90, N_("Initiative malus of a target that noticed "
                                           "the ambush (seed: -30)."))
    surprise_margin: int = param(30, 1, 99, N_("Perception margin that cancels the malus (30+)."))
    off_hand_malus: int = param(20, 0, 50, N_("Off-hand malus (seed: -20) unless ambidextrous."))
    extra_weapon_bonus: int = param(10, 0, 30, N_("Bonus per extra weapon on one target (+10)."))
    extra_weapon_bonus_max: int = param(30, 0, 90, N_("Cap of that bonus (seed: +30)."))
    touch_bonus: int = param(20, 0, 50, N_("Touch attack bonus (seed: +20)."))
    two_handed_one_hand_malus: int = param(20, 0, 50, N_("Two-handed weapon in one hand (-20)."))

    def conflicts(self) -> list[EclipseParameterConflict]:
        """Combinations that contradict themselves: no new ego possible (the lowest creation
        aptitude above the highest, or a budget seven aptitudes within them cannot spend
        exactly), the second DV bonus's margin not above the first's (it would shadow it), a
        walk longer than a run, a gravity both low and high."""
        found = []
        low, high, points = (self.creation_aptitude_min, self.creation_aptitude_max,
                             self.creation_aptitude_points)
        if low > high:
            found.append(EclipseParameterConflict(
                "creation_min_above_max", names=("creation_aptitude_min", "creation_aptitude_max"),
                low=low, high=high))
        elif points and not APTITUDE_COUNT * low <= points <= APTITUDE_COUNT * high:
            found.append(EclipseParameterConflict(
                "creation_points_unreachable",
                names=("creation_aptitude_points", "creation_aptitude_min", "creation_aptitude_max"),
                points=points, low=low, high=high, least=APTITUDE_COUNT * low,
                most=APTITUDE_COUNT * high))
        if self.superb_margin <= self.excellent_margin:
            found.append(EclipseParameterConflict(
                "superb_not_above_excellent", names=("superb_margin", "excellent_margin"),
                superb=self.superb_margin, excellent=self.excellent_margin))
        if self.walk_m > self.run_m:
            found.append(EclipseParameterConflict("walk_above_run", names=("run_m", "walk_m"),
                                                  walk=self.walk_m, run=self.run_m))
        if self.low_gravity_g >= self.high_gravity_g:
            found.append(EclipseParameterConflict(
                "gravity_low_not_below_high", names=("low_gravity_g", "high_gravity_g"),
                low=self.low_gravity_g, high=self.high_gravity_g))
        return found
