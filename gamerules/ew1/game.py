"""The game (Jeu) action: a skill test that pays XP on a win.

Source: 000_afeb9d2c9ccd2b72.txt, "Répartition des gains d'XP par action" ("Jeu (victoire) :
1 PA = 2D4 XP") and "Compétences de base" (Jeu INT+DEX+LUK|95). A loss pays nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.dice import DiceRoll, RandomSource, d100, roll


@dataclass(frozen=True)
class GameOutcome:
    score: int
    test: DiceRoll
    won: bool
    xp_roll: DiceRoll | None
    xp: int


def resolve_game(*, game_skill: int, rng: RandomSource, win_xp_dice: str = "2d4") -> GameOutcome:
    test = d100(rng)
    won = test.total <= game_skill
    xp_roll = roll(win_xp_dice, rng) if won else None
    return GameOutcome(game_skill, test, won, xp_roll, xp_roll.total if xp_roll else 0)
