"""Rests: short and medium restore fixed amounts, long restores everything.

Source: 002_80873c4f1892db54.txt, "Repos": "Repos court (environ 2h) : 2 PV et 1 PM sont
restaurés. Repos moyen (environ 4h) : 5 PV et 3 PM sont restaurés. Repos long (environ 8h) :
Tous les PV et PM sont restaurés. Bien sûr, ces valeurs peuvent être amené à être modifiées
selon les circonstances et/ou à l'appréciation du GM."

Choices: the amounts are parameters, and the GM may give other amounts for one rest; never
above the maxima; a character above its maximum (a GM's gift) keeps it; an unconscious
character heals too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gamerules.homebrew.errors import InvalidAmount
from gamerules.homebrew.params import HomebrewParameters


class RestKind(StrEnum):
    SHORT = "short"  # about 2 h
    MEDIUM = "medium"  # about 4 h
    LONG = "long"  # about 8 h


@dataclass(frozen=True)
class RestOutcome:
    kind: RestKind
    hp_before: int
    hp_after: int
    mp_before: int
    mp_after: int

    @property
    def hp_gained(self) -> int:
        return self.hp_after - self.hp_before

    @property
    def mp_gained(self) -> int:
        return self.mp_after - self.mp_before


def rest_amounts(kind: RestKind, params: HomebrewParameters) -> tuple[int, int] | None:
    """(HP, MP) a rest restores; None for a long rest (everything)."""
    if kind is RestKind.SHORT:
        return params.short_rest_hp, params.short_rest_mp
    if kind is RestKind.MEDIUM:
        return params.medium_rest_hp, params.medium_rest_mp
    return None


def rest(kind: RestKind, *, hp: int, hp_max: int, mp: int, mp_max: int,
         params: HomebrewParameters, hp_amount: int | None = None,
         mp_amount: int | None = None) -> RestOutcome:
    """HP and MP after a rest of ``kind``; ``hp_amount``/``mp_amount`` replace the amounts
    for this rest (a long rest given amounts restores those, not everything). Raises
    InvalidAmount for a negative amount."""
    if (hp_amount is not None and hp_amount < 0) or (mp_amount is not None and mp_amount < 0):
        raise InvalidAmount("rest_cannot_take")
    default = rest_amounts(kind, params)
    if default is None and hp_amount is None and mp_amount is None:
        return RestOutcome(kind, hp, max(hp, hp_max), mp, max(mp, mp_max))
    full_hp, full_mp = max(hp_max - hp, 0), max(mp_max - mp, 0)
    gain_hp = hp_amount if hp_amount is not None else (default[0] if default else full_hp)
    gain_mp = mp_amount if mp_amount is not None else (default[1] if default else full_mp)
    return RestOutcome(kind, hp, max(hp, min(hp_max, hp + gain_hp)), mp,
                       max(mp, min(mp_max, mp + gain_mp)))
