"""Eternal War One II rule parameters: the seed's numbers, each replaceable per campaign.

Every field here is a number (or, for ``game_day_time_zone``, a time-zone name) a game master
may change in the admin (Campaign.rule_parameters holds only the overrides).
``docs/rules/eternal-war-one-ii.md`` says where each comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gamerules.errors import ParameterError


def _p(default, low, high, help_text):
    return field(default=default, metadata={"low": low, "high": high, "help": help_text})


def _zone(default, help_text):
    """A time-zone name parameter (IANA, checked against zoneinfo): no bounds."""
    return field(default=default, metadata={"low": None, "high": None, "help": help_text,
                                            "kind": "zone"})


def is_time_zone(name: Any) -> bool:
    """Whether ``name`` is an IANA time-zone name zoneinfo knows (``UTC``, ``Europe/Paris``)."""
    if not isinstance(name, str) or not name or name != name.strip():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # ValueError: "../x", absolute paths
        return False
    return True


@dataclass(frozen=True)
class EW1Parameters:
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
    dodge_xp: int = _p(2, 0, 100, "Defender XP per dodged attack.")
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
    # Factions (seed: "Les factions", "Phase d'esquive").
    faction_dodge_factor: int = _p(2, 0, 20, "Dodge bonus = this x log2(allies in view), rounded "
                                             "down (seed: 2).")
    faction_attack_factor: int = _p(2, 0, 20, "Attack bonus = this x log2(allies in view), "
                                              "rounded down (not in the seed).")
    faction_magic_factor: int = _p(2, 0, 20, "Magic bonus = this x log2(allies in view), rounded "
                                             "down (not in the seed).")
    # Death (seed: "Le suicide").
    suicide_cooldown_hours: int = _p(6, 0, 720, "Hours before a suicided character may reincarnate.")
    reincarnation_pv_percent: int = _p(100, 1, 100, "PV on reincarnation, in % of max PV.")
    # Daily PA cap (seed: "12 PA par jour" and its example day "avec 24 PA").
    daily_pa_cap: int = _p(24, 0, 1000, "Most PA a character may spend in one game day "
                                        "(0: no cap).")
    game_day_time_zone: str = _zone("UTC", "Time zone whose midnight starts the game day "
                                           "(IANA name, e.g. Europe/Paris).")

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None) -> "EW1Parameters":
        """Defaults with ``overrides`` applied. Raises ParameterError naming each bad key."""
        overrides = dict(overrides or {})
        known = {f.name: f for f in fields(cls)}
        errors: dict[str, str] = {}
        values: dict[str, Any] = {}
        for name, raw in overrides.items():
            f = known.get(name)
            if f is None:
                errors[name] = "unknown parameter"
                continue
            if f.metadata.get("kind") == "zone":
                if is_time_zone(raw):
                    values[name] = raw
                else:
                    errors[name] = "expected a time zone name (IANA, e.g. Europe/Paris)"
                continue
            try:
                value = _coerce(raw, type(f.default))
            except (TypeError, ValueError, InvalidOperation):
                errors[name] = f"expected a {type(f.default).__name__}"
                continue
            low, high = f.metadata["low"], f.metadata["high"]
            if not low <= value <= high:
                errors[name] = f"must be between {low} and {high}"
                continue
            values[name] = value
        if errors:
            raise ParameterError(errors)
        return replace(cls(), **values)

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """One row per parameter: name, kind ("number" or "zone"), default, bounds (None for a
        zone), help (for the admin and the docs)."""
        return [
            {"name": f.name, "kind": f.metadata.get("kind", "number"), "default": f.default,
             "low": f.metadata["low"], "high": f.metadata["high"], "help": f.metadata["help"]}
            for f in fields(cls)
        ]


def _coerce(raw: Any, kind: type) -> Any:
    if isinstance(raw, bool):
        raise TypeError
    if kind is Decimal:
        value = Decimal(str(raw))
        if not value.is_finite():  # NaN would make the range check raise InvalidOperation
            raise ValueError
        return value
    if isinstance(raw, float) and not raw.is_integer():
        raise ValueError
    if isinstance(raw, Decimal) and (not raw.is_finite() or raw != raw.to_integral_value()):
        raise ValueError  # int() would silently truncate 2.5 to 2
    if isinstance(raw, str) and not raw.strip().lstrip("-").isdigit():
        raise ValueError
    return int(raw)
