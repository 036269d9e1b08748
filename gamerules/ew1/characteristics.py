"""Characteristics of an Eternal War One II character and their creation dice.

Source: 000_afeb9d2c9ccd2b72.txt, "Caractéristiques avec tirage aléatoire".
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.dice import DiceRoll, RandomSource, roll

CREATION_DICE: dict[str, str] = {
    "FOR": "3d6",  # Force: melee damage
    "DEF": "3d6",  # Défense: damage reduction rolls
    "TAI": "2d6+6",  # Taille: damage
    "INT": "2d6+6",  # Intelligence: magic
    "DEX": "3d6",  # Dextérité: ranged weapons and magic
    "LUK": "3d6",  # Chance: dodge and random events
}
CODES = tuple(CREATION_DICE)


@dataclass(frozen=True)
class CreationRolls:
    """One roll per characteristic, in CODES order."""

    rolls: dict[str, DiceRoll]

    @property
    def values(self) -> dict[str, int]:
        return {code: r.total for code, r in self.rolls.items()}


def roll_characteristics(rng: RandomSource) -> CreationRolls:
    """Roll FOR 3d6, DEF 3d6, TAI 2d6+6, INT 2d6+6, DEX 3d6, LUK 3d6 with ``rng``."""
    return CreationRolls({code: roll(expr, rng) for code, expr in CREATION_DICE.items()})
