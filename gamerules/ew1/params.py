"""Eternal War One II rule parameters: the seed's numbers, each replaceable per campaign.

Every field here is a number, a yes/no switch (``friendly_fire``) or, for
``game_day_time_zone``, a time-zone name that a game master may change in the admin
(Campaign.rule_parameters holds only the overrides); ``from_overrides`` and ``describe`` come
from the shared ``gamerules.parameters.RuleParameters``, ``LABELS`` names each for people,
``conflicts`` says which combinations no character could play.
``docs/rules/eternal-war-one-ii.md`` says where each comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.errors import gettext_noop as N_
from gamerules.ew1.errors import EW1ParameterConflict
from gamerules.ew1.progression import pa_cap
from gamerules.parameters import RuleParameters, is_time_zone, time_zone_param
from gamerules.parameters import param as _p

__all__ = ["GROUPS", "LABELS", "PA_COSTS", "EW1Parameters", "is_time_zone"]

# What people read for each parameter (the admin translates them).
LABELS: dict[str, str] = {
    "view_radius": N_("View radius (cells)"),
    "pa_base": N_("PA cap at level 0"),
    "pa_cap_levels_per_bonus": N_("Levels per extra PA of cap"),
    "pa_regen_hours": N_("Hours per PA regained"),
    "pv_base": N_("Maximum PV at level 0"),
    "pv_per_level": N_("Maximum PV gained per level"),
    "pv_regen_hours": N_("Hours per PV regained"),
    "move_cost_pa": N_("PA per cell moved"),
    "brawl_cost_pa": N_("PA per brawl attack"),
    "move_xp": N_("XP per cell moved"),
    "hit_xp": N_("XP per successful attack"),
    "perfect_bonus_xp": N_("Extra XP for a perfect attack"),
    "miss_xp": N_("XP per missed attack"),
    "dodge_xp": N_("XP per dodged attack"),
    "perfect_below": N_("Perfect attack below"),
    "luck_divisor": N_("Luck divisor of the dodge"),
    "base_damage_reduction": N_("Base damage reduction"),
    "max_level": N_("Highest level"),
    "creation_band_sd": N_("Creation band (standard deviations)"),
    "creation_band_step": N_("Band widening per reroll (standard deviations)"),
    "rerolls_per_minute": N_("Rerolls per minute"),
    "redistribute_total": N_("Points to redistribute at creation"),
    "redistribute_per_characteristic": N_("Points moved per characteristic at creation"),
    "skill_cap_floor": N_("Floor of the per-skill limit at a level-up"),
    "characteristic_points_per_level": N_("Characteristic points per level"),
    "characteristic_max": N_("Highest characteristic"),
    "melee_cost_pa": N_("PA per melee attack"),
    "ranged_cost_pa": N_("PA per ranged attack"),
    "throw_cost_pa": N_("PA per throw"),
    "throw_xp": N_("XP per successful throw"),
    "throw_range_cells": N_("Throwing range (cells)"),
    "game_cost_pa": N_("PA per game"),
    "use_item_cost_pa": N_("PA to use an item"),
    "own_characters_reach": N_("Reach of one's own characters' malus (cells)"),
    "magic_cost_pa": N_("PA per spell"),
    "magic_xp": N_("XP per successful spell"),
    "spellbook_size": N_("Spells known at most"),
    "spell_offer_size": N_("Spells offered per level"),
    "spell_level_step": N_("Levels per +1 spell power"),
    "spell_skill_step": N_("Magic skill points per +1 spell power"),
    "shield_duration_hours": N_("Shield duration (hours)"),
    "faction_dodge_factor": N_("Faction dodge factor"),
    "faction_attack_factor": N_("Faction attack factor"),
    "friendly_fire": N_("Friendly fire"),
    "faction_magic_factor": N_("Faction magic factor"),
    "suicide_cooldown_hours": N_("Hours before reincarnating after a suicide"),
    "reincarnation_pv_percent": N_("PV on reincarnation (percent of maximum)"),
    "daily_pa_cap": N_("Daily PA cap"),
    "game_day_time_zone": N_("Time zone of the game day"),
}

# The parameters by rule chapter (the admin's fieldsets; docs/rules/eternal-war-one-ii.md).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Action points (PA)"), ("pa_base", "pa_cap_levels_per_bonus", "pa_regen_hours",
                                "daily_pa_cap", "game_day_time_zone")),
    (N_("PA cost of the actions"), ("move_cost_pa", "brawl_cost_pa", "melee_cost_pa",
                                    "ranged_cost_pa", "throw_cost_pa", "game_cost_pa",
                                    "use_item_cost_pa", "magic_cost_pa")),
    (N_("Experience (XP)"), ("move_xp", "hit_xp", "perfect_bonus_xp", "miss_xp", "dodge_xp",
                             "throw_xp", "magic_xp")),
    (N_("Board, attack, dodge and damage"), ("view_radius", "perfect_below", "luck_divisor",
                                             "base_damage_reduction", "throw_range_cells",
                                             "own_characters_reach")),
    (N_("Health (PV), suicide and reincarnation"), ("pv_base", "pv_per_level", "pv_regen_hours",
                                                    "suicide_cooldown_hours",
                                                    "reincarnation_pv_percent")),
    (N_("Character creation"), ("creation_band_sd", "creation_band_step", "rerolls_per_minute",
                                "redistribute_total", "redistribute_per_characteristic")),
    (N_("Levels and progression"), ("max_level", "skill_cap_floor",
                                    "characteristic_points_per_level", "characteristic_max")),
    (N_("Magic"), ("spellbook_size", "spell_offer_size", "spell_level_step", "spell_skill_step",
                   "shield_duration_hours")),
    (N_("Factions"), ("faction_dodge_factor", "faction_attack_factor", "faction_magic_factor",
                      "friendly_fire")),
)

# The PA cost of each action (checked against the PA a character can ever hold).
PA_COSTS = ("move_cost_pa", "brawl_cost_pa", "melee_cost_pa", "ranged_cost_pa", "throw_cost_pa",
            "game_cost_pa", "use_item_cost_pa", "magic_cost_pa")


@dataclass(frozen=True)
class EW1Parameters(RuleParameters):
    labels = LABELS
    groups = GROUPS

    view_radius: int = _p(5, 1, 50, N_("Cells seen around a character on the board."))
    pa_base: int = _p(12, 1, 100, N_("PA cap at level 0."))
    pa_cap_levels_per_bonus: int = _p(10, 1, 100, N_("The PA cap grows by 1 every this many levels."))
    pa_regen_hours: int = _p(2, 1, 168, N_("Hours to regain 1 PA."))
    pv_base: int = _p(100, 1, 10000, N_("Maximum PV at level 0."))
    pv_per_level: int = _p(2, 0, 100, N_("Maximum PV gained per level."))
    pv_regen_hours: int = _p(6, 1, 168, N_("Hours to regain 1 PV."))
    move_cost_pa: Decimal = _p(Decimal("0.5"), Decimal("0"), Decimal("12"), N_("PA per cell moved."))
    brawl_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), N_("PA per brawl attack."))
    move_xp: int = _p(1, 0, 100, N_("XP per cell moved."))
    hit_xp: int = _p(5, 0, 100, N_("Attacker XP per successful attack (seed: 5 in combat, 15 in "
                                   "the XP table)."))
    perfect_bonus_xp: int = _p(2, 0, 100, N_("Extra attacker XP for a perfect attack."))
    miss_xp: int = _p(1, 0, 100, N_("Attacker XP per missed attack."))
    dodge_xp: int = _p(2, 0, 100, N_("Defender XP per dodged attack (seed: 2 in combat rewards, "
                                  "5 in the XP table)."))
    perfect_below: int = _p(5, 1, 100, N_("A skill-test roll strictly below this is a perfect attack."))
    luck_divisor: int = _p(5, 1, 100, N_("Dodge adds LUK divided by this (rounded down)."))
    base_damage_reduction: int = _p(1, 0, 100, N_("Damage every character blocks before rolls and armour."))
    max_level: int = _p(100, 1, 100, N_("Highest level."))
    # Creation (seed: "Distribution des caracs").
    creation_band_sd: Decimal = _p(Decimal("1"), Decimal("0.1"), Decimal("10"),
                                   N_("First roll: the characteristics' sum must lie within the mean "
                                   "plus or minus this many standard deviations."))
    creation_band_step: Decimal = _p(Decimal("0.5"), Decimal("0"), Decimal("10"),
                                     N_("Each reroll widens the band by this many standard deviations."))
    rerolls_per_minute: int = _p(3, 1, 60, N_("Rerolls a player may ask for per minute."))
    redistribute_total: int = _p(5, 0, 20, N_("Points that may be moved between characteristics."))
    redistribute_per_characteristic: int = _p(2, 0, 20,
                                              N_("Points added to or taken from one characteristic."))
    # Progression (seed: "Évolution des points de compétences", "Évolution des caracs").
    skill_cap_floor: int = _p(5, 0, 100, N_("Per-skill limit per level-up is max(this, level // 3)."))
    characteristic_points_per_level: int = _p(1, 0, 10, N_("Characteristic points per level gained."))
    characteristic_max: int = _p(40, 1, 200, N_("Highest value of a characteristic."))
    # Other actions (seed: "Répartition des gains d'XP par action").
    melee_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), N_("PA per melee attack."))
    ranged_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), N_("PA per ranged attack."))
    throw_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"), N_("PA per throw."))
    throw_xp: int = _p(5, 0, 100, N_("Attacker XP per successful throw."))
    throw_range_cells: int = _p(3, 1, 50, N_("How far a character throws (cells)."))
    game_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"), N_("PA per game (Jeu)."))
    use_item_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"),
                                   N_("PA to use a consumable item."))
    own_characters_reach: int = _p(5, 0, 50, N_("One's own other characters within this many cells "
                                             "give an attack malus: this minus the distance, each."))
    # Magic (seed: "La magie").
    magic_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), N_("PA per spell cast."))
    magic_xp: int = _p(10, 0, 100, N_("XP per successful cast."))
    spellbook_size: int = _p(10, 1, 100, N_("Spells a character may know at most."))
    spell_offer_size: int = _p(5, 1, 20, N_("Spells offered at each level gained."))
    spell_level_step: int = _p(10, 0, 100, N_("Spells gain +1 power every this many levels "
                                           "(0: never)."))
    spell_skill_step: int = _p(10, 0, 100, N_("Spells gain +1 power every this many magic skill "
                                           "points above 50 (0: never)."))
    shield_duration_hours: int = _p(24, 1, 720, N_("Hours a shield spell lasts when it has no "
                                                "duration of its own (seed: 24 h for Bouclier "
                                                "and Barrière; none for Protection)."))
    # Factions (seed: "Les factions", "Phase d'esquive").
    faction_dodge_factor: int = _p(2, 0, 20, N_("Dodge bonus = this x log2(allies in view), rounded "
                                             "down (seed: 2)."))
    faction_attack_factor: int = _p(2, 0, 20, N_("Attack bonus = this x log2(allies in view), "
                                              "rounded down (not in the seed)."))
    friendly_fire: bool = _p(True, False, True, N_("On: members of one faction may attack each other "
                                                "(the seed is silent); off: attacks and damage "
                                                "spells on an ally are refused."))
    faction_magic_factor: int = _p(2, 0, 20, N_("Magic bonus = this x log2(allies in view), rounded "
                                             "down (not in the seed)."))
    # Death (seed: "Le suicide").
    suicide_cooldown_hours: int = _p(6, 0, 720, N_("Hours before a suicided character may reincarnate."))
    reincarnation_pv_percent: int = _p(100, 1, 100, N_("PV on reincarnation, in % of max PV."))
    # Daily PA cap (seed: "12 PA par jour" and its example day "avec 24 PA").
    daily_pa_cap: int = _p(24, 0, 1000, N_("Most PA a character may spend in one game day "
                                        "(0: no cap)."))
    game_day_time_zone: str = time_zone_param(
        "UTC", N_("Time zone whose midnight starts the game day (IANA name, e.g. Europe/Paris)."))

    def conflicts(self) -> list[EW1ParameterConflict]:
        """An action no character could ever make: its PA cost above the PA cap of the highest
        level (``pa_base`` + ``max_level`` // ``pa_cap_levels_per_bonus``, gamerules.ew1.
        progression.pa_cap), or above the daily PA cap when there is one."""
        found = []
        cap = pa_cap(self.max_level, base=self.pa_base,
                     levels_per_bonus=self.pa_cap_levels_per_bonus)
        for name in PA_COSTS:
            cost = getattr(self, name)
            if cost > cap:
                found.append(EW1ParameterConflict(
                    "cost_above_pa_cap", names=(name, "pa_base", "pa_cap_levels_per_bonus",
                                                "max_level"),
                    cost=cost, cap=cap, level=self.max_level))
            elif self.daily_pa_cap and cost > self.daily_pa_cap:
                found.append(EW1ParameterConflict("cost_above_daily_cap",
                                                  names=(name, "daily_pa_cap"),
                                                  cost=cost, cap=self.daily_pa_cap))
        return found
