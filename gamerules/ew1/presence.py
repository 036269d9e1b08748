"""Modifiers from who stands in view: one's own other characters (malus) and faction allies
(bonus).

Source: 000_afeb9d2c9ccd2b72.txt, "Phase d'attaque" ("malus = (5 * nombre personnages) -
(distance additionné de chaque personnage)", within 5 cells) and "Phase d'esquive"
("2 * log2(Nombre d'alliés) = Bonus d'esquive").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Iterable


def own_characters_malus(distances: Iterable[int], *, reach: int = 5) -> int:
    """5 x n minus the sum of the distances (cells) of one's own other characters within
    ``reach`` cells; 0 beyond. Each character at distance d adds 5 - d (with reach 5)."""
    return sum(reach - d for d in distances if 0 < d <= reach)


@dataclass(frozen=True)
class FactionBonus:
    allies: int
    attack: int
    dodge: int
    magic: int


def faction_bonus(allies: int, *, attack_factor: int = 0, magic_factor: int = 0,
                  dodge_factor: int = 2) -> FactionBonus:
    """Bonuses from ``allies`` faction members in view. Dodge: ``dodge_factor`` (2, the seed's)
    x log2(allies) rounded down (0 with no ally, 0 with one). Attack and magic: the same shape
    with their own factors; the seed gives no formula for them (docs/rules, "Factions")."""
    if allies <= 0:
        return FactionBonus(0, 0, 0, 0)
    log = math.log2(allies)
    return FactionBonus(allies, math.floor(attack_factor * log), math.floor(dodge_factor * log),
                        math.floor(magic_factor * log))
