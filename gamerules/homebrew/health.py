"""Health: unconscious at 0 HP, a permanent injury at minus maximum HP, enemies die at 0.

Source: 002_80873c4f1892db54.txt, "Santé": "Si un personnage n'a plus de points de vie, il
tombe inconscient et pourra subir une blessure permanente s'il atteint l'équivalent de ses
points de vie en négatif. Si un ennemi n'a plus de points de vie, il meurt, sauf exception."

Choices: "n'a plus de points de vie" is HP <= 0; "atteint" is HP <= -max (exactly -max counts);
the injury is recorded once, when a change crosses that line; HP keep going down below -max;
a character is never killed by the rule (the GM decides); an enemy marked ``spared`` by the GM
(the exception) is treated like a character; ``enemies_die_at_zero`` off treats every enemy so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gamerules.homebrew.errors import InvalidAmount
from gamerules.homebrew.params import HomebrewParameters


class HealthState(StrEnum):
    STANDING = "standing"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"


def health_state(hp: int, *, enemy: bool = False, spared: bool = False,
                 params: HomebrewParameters) -> HealthState:
    if hp > 0:
        return HealthState.STANDING
    if enemy and not spared and params.enemies_die_at_zero:
        return HealthState.DEAD
    return HealthState.UNCONSCIOUS


@dataclass(frozen=True)
class HealthChange:
    """``permanent_injury``: this change took HP to -max or below (from above it)."""

    hp_before: int
    hp_after: int
    hp_max: int
    state: HealthState
    permanent_injury: bool


def apply_damage(damage: int, *, hp: int, hp_max: int, params: HomebrewParameters,
                 enemy: bool = False, spared: bool = False) -> HealthChange:
    """HP after taking ``damage`` (>= 0), the state, and whether a permanent injury is due
    (never for one who dies). Raises InvalidAmount for negative damage."""
    if damage < 0:
        raise InvalidAmount("damage_cannot_negative", damage=damage)
    after = hp - damage
    state = health_state(after, enemy=enemy, spared=spared, params=params)
    injury = state is not HealthState.DEAD and hp > -hp_max >= after
    return HealthChange(hp, after, hp_max, state, injury)
