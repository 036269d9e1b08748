"""Eternal War One II rule parameters: the seed's numbers, each replaceable per campaign.

Every field here is a number a game master may change in the admin (Campaign.rule_parameters
holds only the overrides). ``docs/rules/eternal-war-one-ii.md`` says where each comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from gamerules.errors import ParameterError


def _p(default, low, high, help_text):
    return field(default=default, metadata={"low": low, "high": high, "help": help_text})


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
        """One row per parameter: name, default, bounds, help (for the admin and the docs)."""
        return [
            {"name": f.name, "default": f.default, "low": f.metadata["low"],
             "high": f.metadata["high"], "help": f.metadata["help"]}
            for f in fields(cls)
        ]


def _coerce(raw: Any, kind: type) -> Any:
    if isinstance(raw, bool):
        raise TypeError
    if kind is Decimal:
        return Decimal(str(raw))
    if isinstance(raw, float) and not raw.is_integer():
        raise ValueError
    if isinstance(raw, str) and not raw.strip().lstrip("-").isdigit():
        raise ValueError
    return int(raw)
