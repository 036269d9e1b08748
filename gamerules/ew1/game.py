"""The game (Jeu) action: a skill test that pays XP on a win.

Source: 000_afeb9d2c9ccd2b72.txt, "Répartition des gains d'XP par action" ("Jeu (victoire) :
1 PA = 2D4 XP") and "Compétences de base" (Jeu INT+DEX+LUK|95). A loss pays nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.d100 import Grade, RollUnder, grade_face
from gamerules.dice import DiceRoll, RandomSource, d100, roll

GAME_RULE = RollUnder()  # d100 <= Jeu wins


@dataclass(frozen=True)
class GameOutcome:
    score: int
    test: DiceRoll
    grade: Grade  # the test's (GAME_RULE): success (won) or failure
    xp_roll: DiceRoll | None
    xp: int

    @property
    def won(self) -> bool:
        return self.grade.success


def resolve_game(*, game_skill: int, rng: RandomSource, win_xp_dice: str = "2d4") -> GameOutcome:
    """d100 <= ``game_skill`` wins ``win_xp_dice`` XP (rolled); a loss rolls nothing more."""
    test = d100(rng)
    grade = grade_face(test.total, game_skill, GAME_RULE)
    xp_roll = roll(win_xp_dice, rng) if grade.success else None
    return GameOutcome(game_skill, test, grade, xp_roll, xp_roll.total if xp_roll else 0)
