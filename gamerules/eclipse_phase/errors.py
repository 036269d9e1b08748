"""Why an Eclipse Phase action is refused. Each ``code`` is stable (the API returns it);
``params`` holds the numbers a translated message needs."""

from __future__ import annotations

from gamerules.errors import ParameterConflict, RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "eclipse_refused": gettext_noop("This action is not allowed by the Eclipse Phase rules."),
    "ep_invalid_sheet": gettext_noop("A value of this sheet, morph, weapon or armour is out of range."),
    "ep_invalid_modifier": gettext_noop(
        "This modifier is unknown, out of range or not for this attack."),
    "ep_no_moxie": gettext_noop("No Moxie point can be spent on this test."),
    "ep_actions_spent": gettext_noop("No such action left in this action phase."),
    "ep_defence_refused": gettext_noop("This defence is not allowed here."),
    "ep_firing_refused": gettext_noop("This weapon cannot fire that way now."),
    "ep_out_of_ammo": gettext_noop("Not enough ammunition."),
    "ep_manoeuvre_refused": gettext_noop("This manoeuvre is not allowed here."),
    "ep_recovery_refused": gettext_noop("This recovery is not possible."),
    "ep_skill_untrained": gettext_noop("This skill cannot be used untrained."),
    "no_spare_magazine": gettext_noop("No spare magazine left."),
    "rounds_needed_loaded": gettext_noop("%(needed)s rounds needed, %(loaded)s loaded."),
    "invalid_magazine": gettext_noop(
        "The rounds loaded are 0 to the magazine's %(capacity)s (here %(loaded)s), and the spare "
        "magazines never negative."),
    "armour_values_are": gettext_noop("Armour values are never negative."),
    "out_range_m": gettext_noop(
        "Out of range: %(distance)s m, the extreme range of %(name)s ends at %(extreme)s m."),
    "distance_never_negative": gettext_noop("A distance is never negative."),
    "range_bands_grow": gettext_noop(
        "Range bands must grow: short ≤ medium ≤ long ≤ extreme (metres)."),
    "ranged_weapon_needs": gettext_noop("A ranged weapon needs a firing mode (%(weapon)s)."),
    "magazine_blast_radius": gettext_noop("A magazine and a blast radius are never negative."),
    "only_combatant_about": gettext_noop("Only the combatant about to act can delay."),
    "not_combatant_turn": gettext_noop("Not this combatant's turn to act."),
    "no_action_left": gettext_noop(
        "No %(kind)s action left in this phase (%(quick)s quick, %(complex)s complex used)."),
    "cone_hits_most": gettext_noop("A cone hits at most %(max)s targets at %(band)s range."),
    "cone_needs_range": gettext_noop("A cone needs the range band of its targets."),
    "does_not_explode": gettext_noop("%(weapon)s does not explode."),
    "indirect_fire_needs": gettext_noop("Indirect fire needs a spotter."),
    "blind_fire_needs": gettext_noop("Blind fire needs a successful perception test first."),
    "concentration_follows_successful": gettext_noop("Concentration follows a successful first attack."),
    "sweep_follows_missed": gettext_noop("A sweep follows a missed first attack."),
    "beam_sa_bf": gettext_noop("A beam can %(what)s in SA or BF only."),
    "only_beam_weapon": gettext_noop("Only a beam weapon can %(what)s."),
    "aim_suppressive_fire": gettext_noop("Aim the suppressive fire somewhere."),
    "suppressive_fire_needs": gettext_noop(
        "Suppressive fire needs a magazine of %(needed)s rounds (%(name)s: %(capacity)s)."),
    "burst_fire_one": gettext_noop("Burst fire is one or two bursts per complex action."),
    "targets_stand_within": gettext_noop(
        "The targets of a %(label)s stand within %(spread)s m of each other."),
    "only_fire_one": gettext_noop("Only fire on one target is concentrated."),
    "reaches_1_targets": gettext_noop("A %(label)s reaches 1 to %(reach)s targets."),
    "semi_auto_fires": gettext_noop("Semi-auto fires one or two shots."),
    "no_mode": gettext_noop("%(weapon)s has no %(mode)s mode."),
    "weapons_limbs": gettext_noop("%(weapons)s weapons, %(limbs)s limbs."),
    "freerunning_extends_run": gettext_noop("Freerunning extends a run only."),
    "unknown_skill_name": gettext_noop("Unknown skill %(skill)r: name its aptitude."),
    "moxie_never_negative": gettext_noop("Moxie is never negative."),
    "skill_ranks": gettext_noop(
        "A skill's ranks are %(low)s to %(high)s (%(skill)s: %(ranks)s)."),
    "skill_cannot_default": gettext_noop(
        "%(skill)s cannot be used untrained: it does not default to its aptitude (first "
        "edition)."),
    "skill_rated": gettext_noop(
        "A skill is rated %(skill_min)s to %(skill_max)s (%(skill)s: %(rating)s)."),
    "every_aptitude_needed": gettext_noop("Every aptitude is needed: %(missing)s missing."),
    "armour_limbs_are": gettext_noop("Armour and limbs are never negative."),
    "morph_least_1": gettext_noop("A morph's %(name)s is at least 1."),
    "morph_spd_least": gettext_noop("A morph's SPD is at least 1."),
    "morph_dur_least": gettext_noop("A morph's DUR is at least 1."),
    "derangement_needs_name": gettext_noop("A derangement needs a name."),
    "not_derangement_disorder": gettext_noop("Not a derangement or disorder of this ego: %(unknown)s."),
    "only_psychosurgery_removes": gettext_noop("Only psychosurgery removes derangements and disorders."),
    "ego_permanently_insane": gettext_noop(
        "This ego is permanently insane (seed: 'irrémédiablement fou')."),
    "recovery_amounts_are": gettext_noop("Recovery amounts are never negative."),
    "stress_value_never": gettext_noop("A stress value is never negative."),
    "stress_traumas_are": gettext_noop("Stress and traumas are never negative."),
    "only_beam_weapon_concentrates": gettext_noop("Only a beam weapon concentrates its fire."),
    "subduing_deals_no": gettext_noop("Subduing deals no damage."),
    "miss_deals_no": gettext_noop("A miss deals no damage."),
    "surprised_character_not": gettext_noop("A surprised character has not declared full defence."),
    "subduing_melee_attack": gettext_noop("Subduing is a melee attack."),
    "name_melee_skill": gettext_noop("Name the melee skill that defends."),
    "melee_skill_defends": gettext_noop("A melee skill defends against melee attacks only."),
    "willpower_resists_psi": gettext_noop("Willpower resists psi attacks only."),
    "only_melee_attack": gettext_noop("Only a melee attack can charge."),
    "melee_attack_no": gettext_noop("A melee attack has no range band."),
    "healing_never_negative": gettext_noop("Healing is never negative."),
    "damage_wounds_stun": gettext_noop("Damage, wounds and stun are never negative."),
    "exclude_each_other": gettext_noop("%(modifier)s and %(other)s exclude each other."),
    "modifies": gettext_noop("%(modifier)s modifies the %(side)s."),
    "applies_attacks_only": gettext_noop("%(modifier)s applies to %(applies)s attacks only."),
    "follows_from_sheet": gettext_noop("%(modifier)s follows from the sheet and the attack's options."),
    "counted_once": gettext_noop("%(modifier)s is counted once."),
    "unknown_combat_modifier": gettext_noop("Unknown combat modifier %(modifier)r."),
    "test_was_flipped": gettext_noop("This test was flipped already."),
    "no_moxie_point": gettext_noop("No Moxie point left."),
    "difficulty_between": gettext_noop("A difficulty is between -%(max)s and +%(max)s."),
    "creation_aptitude_range": gettext_noop(
        "A new ego's %(aptitude)s is %(low)s to %(high)s (%(value)s)."),
    "creation_aptitude_points": gettext_noop(
        "A new ego's aptitudes add up to %(budget)s points (%(spent)s spent)."),
    "invalid_dv": gettext_noop(
        "The damage value “%(dv)s” is not dice notation with a bonus (e.g. 2d10+3)."),
    "unknown_weapon_skill": gettext_noop(
        "“%(skill)s” is not a weapon skill; the weapon skills are %(known)s."),
    "melee_no_modes": gettext_noop(
        "%(weapon)s is a melee weapon: it has no firing mode (here %(modes)s)."),
    "unknown_trait": gettext_noop("“%(trait)s” is not a trait; the traits are %(known)s."),
    "traits_shape": gettext_noop('Write the traits as a list, e.g. ["pain_filter"].'),
    "unknown_aptitude": gettext_noop(
        "“%(aptitude)s” is not an aptitude; the aptitudes are %(known)s."),
    "aptitude_bonus_shape": gettext_noop(
        'Write the aptitude bonuses as a mapping of aptitudes to whole numbers, e.g. '
        '{"SOM": 5, "REF": 5}.'),
    "skills_shape": gettext_noop(
        'Write the skills as a mapping of skills to the ranks learnt, e.g. {"fray": 25}.'),
    "skill_links_shape": gettext_noop(
        'Write the links as a mapping of skills to aptitudes, e.g. {"pilot_groundcraft": "REF"}.'),
    "unknown_skill": gettext_noop(
        "“%(skill)s” is not a skill of the catalogue: correct its name, or link it to its "
        "aptitude in the aptitudes of other skills."),
    "names_shape": gettext_noop('Write a list of names, e.g. ["Fear of heights"].'),
    "not_own_sleeve": gettext_noop(
        "%(sleeve)s is another ego's sleeve: choose one of this character's."),
}


class EclipseError(RuleError):
    code = "eclipse_refused"
    messages = MESSAGES


class InvalidSheet(EclipseError):
    """An aptitude, skill, morph, ego, weapon or armour value out of its range."""

    code = "ep_invalid_sheet"


class SkillUntrained(EclipseError):
    """A test of an untrained skill that cannot default (psi and technical skills)."""

    code = "ep_skill_untrained"


class InvalidModifier(EclipseError):
    """A difficulty beyond +/-30, or a situational modifier unknown or not for this attack."""

    code = "ep_invalid_modifier"


class NoMoxie(EclipseError):
    code = "ep_no_moxie"


class ActionsSpent(EclipseError):
    """Not enough quick or complex actions left in this action phase, or not this one's phase."""

    code = "ep_actions_spent"


class DefenceRefused(EclipseError):
    """A defence the rules do not allow (surprised without a quick action, full defence without
    the complex action)."""

    code = "ep_defence_refused"


class FiringRefused(EclipseError):
    """A firing mode the weapon lacks, too many or too spread targets, not enough rounds."""

    code = "ep_firing_refused"


class OutOfAmmo(EclipseError):
    code = "ep_out_of_ammo"


class ManoeuvreRefused(EclipseError):
    """A charge, called shot, aim, subdue, beam manoeuvre or explosive the rules do not allow."""

    code = "ep_manoeuvre_refused"


class RecoveryRefused(EclipseError):
    """Rest or psychosurgery the rules do not allow (an ego gone permanently insane, a rest
    that would remove derangements)."""

    code = "ep_recovery_refused"


# Rule parameters that contradict themselves (EclipsePhaseParameters.conflicts).
PARAMETER_CONFLICTS: dict[str, str] = {
    "creation_min_above_max": gettext_noop(
        "The lowest aptitude at creation (%(low)s) is above the highest (%(high)s): no ego could "
        "be created."),
    "creation_points_unreachable": gettext_noop(
        "No ego could be created: seven aptitudes from %(low)s to %(high)s add up to %(least)s "
        "to %(most)s points, not %(points)s (0: no budget)."),
    "superb_not_above_excellent": gettext_noop(
        "The second DV bonus's margin (%(superb)s) must be above the first's (%(excellent)s)."),
    "walk_above_run": gettext_noop(
        "A run (%(run)s m) must go at least as far as a walk (%(walk)s m)."),
    "gravity_low_not_below_high": gettext_noop(
        "Low gravity (below %(low)s g) must start below high gravity (above %(high)s g)."),
}


class EclipseParameterConflict(ParameterConflict):
    messages = PARAMETER_CONFLICTS
