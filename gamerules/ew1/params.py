"""Eternal War One II rule parameters: the seed's numbers, each replaceable per campaign.

Every field here is a number (or, for ``game_day_time_zone``, a time-zone name) a game master
may change in the admin (Campaign.rule_parameters holds only the overrides); ``from_overrides``
and ``describe`` come from the shared ``gamerules.parameters.RuleParameters``.
``docs/rules/eternal-war-one-ii.md`` says where each comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.parameters import RuleParameters, is_time_zone, time_zone_param
from gamerules.parameters import param as _p

__all__ = ["EW1Parameters", "is_time_zone"]


@dataclass(frozen=True)
class EW1Parameters(RuleParameters):
    view_radius: int = _p(5, 1, 50, "Cells seen around a character on the board.")
    pa_base: int = _p(12, 1, 100, "PA cap at level 0.")
    pa_cap_levels_per_bonus: int = _p(10, 1, 100, "The PA cap grows by 1 every this many levels.")
    pa_regen_hours: int = _p(2, 1, 168, "Hours to regain 1 PA.")
    pv_base: int = _p(100, 1, 10000, "Maximum PV at level 0.")
    pv_per_level: int = _p(2, 0, 100, "Maximum PV gained per level.")
    pv_regen_hours: int = _p(6, 1, 168, "Hours to regain 1 PV.")
    move_cost_pa: Decimal = _p(Decimal("0.5"), Decimal("0"), Decimal("12"), "PA per cell moved.")
    brawl_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), "PA per brawl attack.")
    move_xp: int = _p(1, 0, 100, "XP per cell moved.")
    hit_xp: int = _p(5, 0, 100, "Attacker XP per successful attack (seed: 5 in combat, 15 in the XP table).")
    perfect_bonus_xp: int = _p(2, 0, 100, "Extra attacker XP for a perfect attack.")
    miss_xp: int = _p(1, 0, 100, "Attacker XP per missed attack.")
    dodge_xp: int = _p(2, 0, 100, "Defender XP per dodged attack (seed: 2 in combat rewards, "
                                  "5 in the XP table).")
    perfect_below: int = _p(5, 1, 100, "A skill-test roll strictly below this is a perfect attack.")
    luck_divisor: int = _p(5, 1, 100, "Dodge adds LUK divided by this (rounded down).")
    base_damage_reduction: int = _p(1, 0, 100, "Damage every character blocks before rolls and armour.")
    max_level: int = _p(100, 1, 100, "Highest level.")
    # Creation (seed: "Distribution des caracs").
    creation_band_sd: Decimal = _p(Decimal("1"), Decimal("0.1"), Decimal("10"),
                                   "First roll: the characteristics' sum must lie within the mean "
                                   "plus or minus this many standard deviations.")
    creation_band_step: Decimal = _p(Decimal("0.5"), Decimal("0"), Decimal("10"),
                                     "Each reroll widens the band by this many standard deviations.")
    rerolls_per_minute: int = _p(3, 1, 60, "Rerolls a player may ask for per minute.")
    redistribute_total: int = _p(5, 0, 20, "Points that may be moved between characteristics.")
    redistribute_per_characteristic: int = _p(2, 0, 20,
                                              "Points added to or taken from one characteristic.")
    # Progression (seed: "Évolution des points de compétences", "Évolution des caracs").
    skill_cap_floor: int = _p(5, 0, 100, "Per-skill limit per level-up is max(this, level // 3).")
    characteristic_points_per_level: int = _p(1, 0, 10, "Characteristic points per level gained.")
    characteristic_max: int = _p(40, 1, 200, "Highest value of a characteristic.")
    # Other actions (seed: "Répartition des gains d'XP par action").
    melee_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), "PA per melee attack.")
    ranged_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), "PA per ranged attack.")
    throw_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"), "PA per throw.")
    throw_xp: int = _p(5, 0, 100, "Attacker XP per successful throw.")
    throw_range_cells: int = _p(3, 1, 50, "How far a character throws (cells).")
    game_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"), "PA per game (Jeu).")
    use_item_cost_pa: Decimal = _p(Decimal("1"), Decimal("0"), Decimal("12"),
                                   "PA to use a consumable item.")
    own_characters_reach: int = _p(5, 0, 50, "One's own other characters within this many cells "
                                             "give an attack malus (5 - distance each).")
    # Magic (seed: "La magie").
    magic_cost_pa: Decimal = _p(Decimal("2"), Decimal("0"), Decimal("12"), "PA per spell cast.")
    magic_xp: int = _p(10, 0, 100, "XP per successful cast.")
    spellbook_size: int = _p(10, 1, 100, "Spells a character may know at most.")
    spell_offer_size: int = _p(5, 1, 20, "Spells offered at each level gained.")
    spell_level_step: int = _p(10, 0, 100, "Spells gain +1 power every this many levels "
                                           "(0: never).")
    spell_skill_step: int = _p(10, 0, 100, "Spells gain +1 power every this many magic skill "
                                           "points above 50 (0: never).")
    shield_duration_hours: int = _p(24, 1, 720, "Hours a shield spell lasts when it has no "
                                                "duration of its own (seed: 24 h for Bouclier "
                                                "and Barrière; none for Protection).")
    # Factions (seed: "Les factions", "Phase d'esquive").
    faction_dodge_factor: int = _p(2, 0, 20, "Dodge bonus = this x log2(allies in view), rounded "
                                             "down (seed: 2).")
    faction_attack_factor: int = _p(2, 0, 20, "Attack bonus = this x log2(allies in view), "
                                              "rounded down (not in the seed).")
    friendly_fire: int = _p(1, 0, 1, "1: members of one faction may attack each other (the seed "
                                     "is silent); 0: attacks and damage spells on an ally are "
                                     "refused.")
    faction_magic_factor: int = _p(2, 0, 20, "Magic bonus = this x log2(allies in view), rounded "
                                             "down (not in the seed).")
    # Death (seed: "Le suicide").
    suicide_cooldown_hours: int = _p(6, 0, 720, "Hours before a suicided character may reincarnate.")
    reincarnation_pv_percent: int = _p(100, 1, 100, "PV on reincarnation, in % of max PV.")
    # Daily PA cap (seed: "12 PA par jour" and its example day "avec 24 PA").
    daily_pa_cap: int = _p(24, 0, 1000, "Most PA a character may spend in one game day "
                                        "(0: no cap).")
    game_day_time_zone: str = time_zone_param(
        "UTC", "Time zone whose midnight starts the game day (IANA name, e.g. Europe/Paris).")
