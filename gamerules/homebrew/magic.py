"""Casting spends MP; without enough MP, the rest is paid in HP.

Source: 002_80873c4f1892db54.txt, "Magie": "Les points de magie sont des points qui sont
dépensés quand un personnage utilise un pouvoir magique ou une compétence. Si un personnage
tente d'utiliser de la magie sans PM, il utilisera des PV à la place. La jauge de PM peut
également servir à compter des ressources sur des classes n'utilisant pas de PM".

Choices: MP are spent first down to 0 and each missing MP costs ``hp_per_missing_mp`` HP (1);
the cost is paid when casting, hit or miss; a cast may take HP to 0 or below (the health
rules then apply).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.homebrew.errors import InvalidAmount
from gamerules.homebrew.params import HomebrewParameters


@dataclass(frozen=True)
class MagicCost:
    cost: int
    mp_before: int
    mp_after: int
    hp_before: int
    hp_after: int

    @property
    def mp_spent(self) -> int:
        return self.mp_before - self.mp_after

    @property
    def hp_spent(self) -> int:
        return self.hp_before - self.hp_after


def spend_mp(cost: int, *, mp: int, hp: int, params: HomebrewParameters) -> MagicCost:
    """Pay ``cost`` MP from ``mp``, the shortfall from ``hp``. Raises InvalidAmount for a
    negative cost."""
    if cost < 0:
        raise InvalidAmount("spell_cost_cannot", cost=cost)
    from_mp = min(cost, max(0, mp))
    from_hp = (cost - from_mp) * params.hp_per_missing_mp
    return MagicCost(cost, mp, mp - from_mp, hp, hp - from_hp)
