"""Healing: PV restored never exceed the maximum; a disincarnated character cannot be healed.

Source: 000_afeb9d2c9ccd2b72.txt, "Le Soins" (spells, items, skills or rest) and "Distribution
des dégâts reçue" (at 0 PV the character may still be healed).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.dice import DiceRoll, RandomSource, roll


@dataclass(frozen=True)
class HealOutcome:
    roll: DiceRoll
    pv_before: int
    pv_after: int

    @property
    def healed(self) -> int:
        return self.pv_after - self.pv_before


def resolve_heal(*, dice: str, pv: int, pv_max: int, rng: RandomSource) -> HealOutcome:
    """Roll ``dice`` and add it to ``pv``, capped at ``pv_max`` (a negative roll heals 0)."""
    r = roll(dice, rng)
    return HealOutcome(r, pv, max(pv, min(pv_max, pv + max(0, r.total))))
