"""Rule parameters per system (issue 19, item 1): each campaign keeps only the parameters its
own rule system defines, with values that system takes.

Before it, the campaign admin's add page always drew Eternal War One II's parameters, and those
whose names the chosen system shares were saved for it; and a parameter another system defines
could stay stored after a change of system. This migration, campaign by campaign:

- drops each stored name the campaign's system does not define;
- drops a value its system does not take (not of the parameter's type, or out of its bounds);
- turns EW1's ``friendly_fire``, now a yes/no, from 0/1 into false/true (true, the default, is
  then not stored);
- drops a homebrew campaign's ``characteristic_max`` of 40: EW1's default, which the old add
  page saved under the name the homebrew shares (the homebrew's own default is 100; a game
  master who meant 40 sets it again, and the line printed says so).

Each change is printed (``rule parameters: <campaign>: ...``) for whoever runs ``migrate``.
The names, types and bounds are frozen here as they stand at this migration (later changes to
the parameters do not change what it did). Going back changes nothing.
"""

from decimal import Decimal, InvalidOperation

from django.db import migrations

from gamerules.parameters import is_time_zone

# name -> (kind, low, high) of each system's parameters at this migration.
PARAMETERS = {
    "ew1": {
        "view_radius": ("int", 1, 50), "pa_base": ("int", 1, 100),
        "pa_cap_levels_per_bonus": ("int", 1, 100), "pa_regen_hours": ("int", 1, 168),
        "pv_base": ("int", 1, 10000), "pv_per_level": ("int", 0, 100),
        "pv_regen_hours": ("int", 1, 168), "move_cost_pa": ("decimal", "0", "12"),
        "brawl_cost_pa": ("decimal", "0", "12"), "move_xp": ("int", 0, 100),
        "hit_xp": ("int", 0, 100), "perfect_bonus_xp": ("int", 0, 100), "miss_xp": ("int", 0, 100),
        "dodge_xp": ("int", 0, 100), "perfect_below": ("int", 1, 100),
        "luck_divisor": ("int", 1, 100), "base_damage_reduction": ("int", 0, 100),
        "max_level": ("int", 1, 100), "creation_band_sd": ("decimal", "0.1", "10"),
        "creation_band_step": ("decimal", "0", "10"), "rerolls_per_minute": ("int", 1, 60),
        "redistribute_total": ("int", 0, 20), "redistribute_per_characteristic": ("int", 0, 20),
        "skill_cap_floor": ("int", 0, 100), "characteristic_points_per_level": ("int", 0, 10),
        "characteristic_max": ("int", 1, 200), "melee_cost_pa": ("decimal", "0", "12"),
        "ranged_cost_pa": ("decimal", "0", "12"), "throw_cost_pa": ("decimal", "0", "12"),
        "throw_xp": ("int", 0, 100), "throw_range_cells": ("int", 1, 50),
        "game_cost_pa": ("decimal", "0", "12"), "use_item_cost_pa": ("decimal", "0", "12"),
        "own_characters_reach": ("int", 0, 50), "magic_cost_pa": ("decimal", "0", "12"),
        "magic_xp": ("int", 0, 100), "spellbook_size": ("int", 1, 100),
        "spell_offer_size": ("int", 1, 20), "spell_level_step": ("int", 0, 100),
        "spell_skill_step": ("int", 0, 100), "shield_duration_hours": ("int", 1, 720),
        "faction_dodge_factor": ("int", 0, 20), "faction_attack_factor": ("int", 0, 20),
        "friendly_fire": ("bool", False, True), "faction_magic_factor": ("int", 0, 20),
        "suicide_cooldown_hours": ("int", 0, 720), "reincarnation_pv_percent": ("int", 1, 100),
        "daily_pa_cap": ("int", 0, 1000), "game_day_time_zone": ("zone", None, None),
    },
    "homebrew": {
        "characteristic_points": ("int", 3, 300), "spend_all_points": ("bool", False, True),
        "characteristic_min": ("int", 0, 100), "characteristic_max": ("int", 1, 100),
        "sub_max": ("int", 0, 20), "hp_max_default": ("int", 1, 1000),
        "mp_max_default": ("int", 0, 1000), "hp_per_missing_mp": ("int", 0, 10),
        "enemies_die_at_zero": ("bool", False, True), "sub_test_sides": ("int", 2, 100),
        "critical_success_max": ("int", 0, 50), "critical_failure_min": ("int", 51, 101),
        "assist_bonus_d100": ("int", 0, 100), "assist_bonus_sub": ("int", 0, 6),
        "crit_multiplier_d2": ("decimal", "1", "20"), "crit_multiplier_d3": ("decimal", "1", "20"),
        "crit_multiplier_d4": ("decimal", "1", "20"),
        "crit_multiplier_d5_d6": ("decimal", "1", "20"),
        "crit_multiplier_d7_d8": ("decimal", "1", "20"),
        "crit_multiplier_d9_d10": ("decimal", "1", "20"),
        "crit_multiplier_d11_up": ("decimal", "1", "20"),
        "defensive_round_up": ("bool", False, True), "short_rest_hp": ("int", 0, 1000),
        "short_rest_mp": ("int", 0, 1000), "medium_rest_hp": ("int", 0, 1000),
        "medium_rest_mp": ("int", 0, 1000), "reaction_timeout_seconds": ("int", 5, 3600),
    },
    "eclipse_phase": {
        "success_inclusive": ("bool", False, True), "margin_is_roll": ("bool", False, True),
        "difficulty_max": ("int", 0, 100), "wound_malus": ("int", 0, 50),
        "trauma_malus": ("int", 0, 50), "critical_beats_success": ("bool", False, True),
        "combat_tie_to_defender": ("bool", False, True), "moxie_max_default": ("int", 0, 20),
        "aptitude_max": ("int", 1, 99), "aptitude_max_per_morph": ("bool", False, True),
        "default_any_skill": ("bool", False, True), "creation_aptitude_points": ("int", 0, 700),
        "creation_aptitude_min": ("int", 1, 99), "creation_aptitude_max": ("int", 1, 99),
        "initiative_divisor": ("int", 1, 20), "initiative_round_up": ("bool", False, True),
        "initiative_die": ("int", 2, 100), "initiative_per_wound": ("int", 0, 30),
        "speed_max": ("int", 1, 8), "quick_actions_per_phase": ("int", 1, 10),
        "ranged_dodge_divisor": ("int", 1, 10), "full_defence_bonus": ("int", 0, 100),
        "excellent_margin": ("int", 1, 99), "excellent_dv": ("int", 0, 50),
        "superb_margin": ("int", 1, 99), "superb_dv": ("int", 0, 50),
        "critical_ignores_armour": ("bool", False, True),
        "melee_damage_bonus_divisor": ("int", 0, 100), "psi_resist_multiplier": ("int", 1, 5),
        "wound_threshold_divisor": ("int", 1, 20), "wound_inclusive": ("bool", False, True),
        "knockdown_som_multiplier": ("int", 1, 5), "knocked_down_attack_bonus": ("int", 0, 50),
        "stun_turns": ("int", 1, 10), "bleeding_dv": ("int", 0, 10),
        "death_multiplier_bio": ("decimal", "1", "5"),
        "death_multiplier_synth": ("decimal", "1", "5"), "lucidity_per_wil": ("int", 1, 5),
        "trauma_threshold_divisor": ("int", 1, 20), "insanity_per_lucidity": ("int", 1, 5),
        "stress_resist_multiplier": ("int", 1, 5), "stress_resisted_percent": ("int", 0, 100),
        "trauma_inclusive": ("bool", False, True), "traumas_per_disorder": ("int", 1, 20),
        "walk_m": ("int", 0, 100), "run_m": ("int", 0, 200), "running_malus": ("int", 0, 50),
        "freerun_m_per_10_margin": ("int", 0, 20), "low_gravity_g": ("decimal", "0", "2"),
        "low_gravity_jump_multiplier": ("int", 1, 10), "high_gravity_g": ("decimal", "1", "5"),
        "high_gravity_step_g": ("decimal", "0.05", "2"), "charge_malus": ("int", 0, 50),
        "charge_dv": ("int", 0, 50), "receive_charge_bonus": ("int", 0, 50),
        "subdue_escape_malus": ("int", 0, 90), "subdue_escape_som_multiplier": ("int", 1, 5),
        "aim_quick_bonus": ("int", 0, 50), "aim_complex_bonus": ("int", 0, 60),
        "semi_auto_second_target_malus": ("int", 0, 50), "burst_rounds": ("int", 1, 20),
        "burst_bonus": ("int", 0, 50), "burst_dv_dice": ("int", 0, 5),
        "full_auto_rounds": ("int", 1, 50), "full_auto_bonus": ("int", 0, 60),
        "full_auto_dv_dice": ("int", 0, 10), "spread_m": ("int", 0, 10),
        "suppressive_rounds": ("int", 1, 100), "suppressive_width_m": ("int", 1, 100),
        "suppressive_spares_full_defence": ("bool", False, True),
        "beam_sweep_bonus": ("int", 0, 50), "beam_concentration_multiplier": ("int", 1, 5),
        "blind_fire_malus": ("int", 0, 90), "indirect_fire_malus": ("int", 0, 90),
        "called_shot_malus": ("int", 0, 50), "called_shot_margin": ("int", 1, 99),
        "disarm_som_multiplier": ("int", 1, 5), "blast_dv_per_m": ("int", 0, 20),
        "cone_targets_point_blank": ("int", 1, 10), "cone_targets_short": ("int", 1, 10),
        "cone_targets_medium": ("int", 1, 10), "cone_targets_long": ("int", 1, 20),
        "surprise_perception_malus": ("int", 0, 90), "surprise_initiative_malus": ("int", 0, 90),
        "surprise_margin": ("int", 1, 99), "off_hand_malus": ("int", 0, 50),
        "extra_weapon_bonus": ("int", 0, 30), "extra_weapon_bonus_max": ("int", 0, 90),
        "touch_bonus": ("int", 0, 50), "two_handed_one_hand_malus": ("int", 0, 50),
    },
}

EW1_LEAK = {"homebrew": {"characteristic_max": 40}}  # EW1's default under a shared name


def _valid(kind, low, high, value) -> bool:
    if kind == "zone":
        return is_time_zone(value)
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool) or value is None:
        return False
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return False
    if not number.is_finite():
        return False
    if kind == "int" and (number != number.to_integral_value() or isinstance(value, str)
                          and not value.strip().lstrip("-").isdigit()):
        return False
    return Decimal(str(low)) <= number <= Decimal(str(high))


def cleaned(rule_system: str, stored: dict) -> tuple[dict, list[str]]:
    """(the parameters kept, what was done to the others, in words)."""
    known = PARAMETERS.get(rule_system, {})
    kept, notes = {}, []
    for name, value in stored.items():
        if name not in known:
            notes.append(f"dropped {name}={value!r} ({rule_system} has no such parameter)")
            continue
        if rule_system == "ew1" and name == "friendly_fire" and value in (0, 1) \
                and not isinstance(value, bool):
            if value == 0:
                kept[name] = False
            notes.append(f"friendly_fire {value!r} is now {bool(value)} (a yes/no)")
            continue
        if EW1_LEAK.get(rule_system, {}).get(name, object()) == value \
                and not isinstance(value, bool):
            notes.append(f"dropped {name}={value!r} (Eternal War One II's default, saved by the "
                         f"old add page; set it again if it was meant)")
            continue
        if not _valid(*known[name], value):
            notes.append(f"dropped {name}={value!r} (not a value {rule_system} takes)")
            continue
        kept[name] = value
    return kept, notes


def forwards(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    campaigns = Campaign.objects.using(schema_editor.connection.alias)
    for campaign in campaigns.exclude(rule_parameters={}).order_by("pk"):
        stored = campaign.rule_parameters
        if not isinstance(stored, dict):
            kept, notes = {}, [f"dropped {stored!r} (not a mapping of parameters)"]
        else:
            kept, notes = cleaned(campaign.rule_system, stored)
        if notes:
            for note in notes:
                print(f"  rule parameters: {campaign.name} (#{campaign.pk}): {note}")
            campaign.rule_parameters = kept
            campaign.save(update_fields=["rule_parameters"])


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0006_roll_label_80"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True),
    ]
