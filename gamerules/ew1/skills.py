"""Skills: level-1 base values and maxima.

Source: 000_afeb9d2c9ccd2b72.txt, "Compétences de base" (base|max): Bagarre 90|100,
Arme mêlée 35|95, Arme distance 25|95, Magie DEX+INT|95, Esquive DEF|90, Lancé 25|95,
Jeu INT+DEX+LUK|95.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Mapping


@dataclass(frozen=True)
class SkillRule:
    code: str
    label: str  # the seed's name
    base: Callable[[Mapping[str, int]], int]
    maximum: int


SKILLS: tuple[SkillRule, ...] = (
    SkillRule("brawl", "Bagarre", lambda c: 90, 100),
    SkillRule("melee", "Arme mêlée", lambda c: 35, 95),
    SkillRule("ranged", "Arme distance", lambda c: 25, 95),
    SkillRule("magic", "Magie", lambda c: c["DEX"] + c["INT"], 95),
    SkillRule("dodge", "Esquive", lambda c: c["DEF"], 90),
    SkillRule("throw", "Lancé", lambda c: 25, 95),
    SkillRule("game", "Jeu", lambda c: c["INT"] + c["DEX"] + c["LUK"], 95),
)
SKILLS_BY_CODE = {s.code: s for s in SKILLS}


def base_skills(characteristics: Mapping[str, int]) -> dict[str, int]:
    """Level-1 skill values from the characteristics, each capped at its maximum."""
    return {s.code: min(s.base(characteristics), s.maximum) for s in SKILLS}
