"""Eternal War One II magic: casting test, spell power with evolution, zones and reach.

Source: 000_afeb9d2c9ccd2b72.txt, "La magie" ("Sorts", "Obtention des sorts", "Évolution des
sorts", "Utilisation de la magie", "Contre de la magie") and "Répartition des gains d'XP par
action" (Magie: 2 PA = 10 XP). Our choices are in docs/rules/eternal-war-one-ii.md, "Magic":
spells cannot be dodged or countered; damage spells go through the target's damage reduction;
one roll of the spell's dice per cast, applied to every target of a zone; the power grows by
1 every ``spell_level_step`` levels and by 1 every ``spell_skill_step`` magic points above 50.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable, Sequence

from gamerules.d100 import Grade, RollUnder, grade_face
from gamerules.dice import DiceRoll, RandomSource, d100, roll
from gamerules.geometry import chebyshev
from gamerules.modifiers import Modifier

Bonus = Modifier  # the shared type; the name stays for magic/casting.py
__all__ = ["ALLIES", "DAMAGE", "EVERYONE", "HEAL", "SHIELD", "Bonus", "CastOutcome", "Piece",
           "SpellSpec", "chebyshev", "evolution_bonuses", "heal_amount", "in_range",
           "resolve_cast", "zone_targets"]

DAMAGE, HEAL, SHIELD = "damage", "heal", "shield"
EVERYONE, ALLIES = "everyone", "allies"
MAGIC_SKILL_BASELINE = 50
CAST_RULE = RollUnder()  # d100 <= score; EW1's magic has no perfect (seed 000, "La magie")


@dataclass(frozen=True)
class SpellSpec:
    name: str
    effect: str  # damage, heal, shield
    dice: str
    range_cells: int
    zone_radius: int = 0
    reach: str = EVERYONE
    duration_hours: int = 0


@dataclass(frozen=True)
class CastOutcome:
    score: int
    test: DiceRoll
    grade: Grade  # the casting test's (CAST_RULE): success or failure
    power_roll: DiceRoll | None
    bonuses: tuple[Bonus, ...] = field(default_factory=tuple)
    power: int = 0  # dice total + evolution bonuses, never below 0

    @property
    def success(self) -> bool:
        return self.grade.success


def evolution_bonuses(*, level: int, magic_skill: int, level_step: int, skill_step: int
                      ) -> tuple[Bonus, ...]:
    """The spell's growth: +1 every ``level_step`` levels, +1 every ``skill_step`` magic skill
    points above 50 (none below)."""
    bonuses = []
    if level_step and level // level_step:
        bonuses.append(Bonus("level", level // level_step))
    above = max(0, magic_skill - MAGIC_SKILL_BASELINE)
    if skill_step and above // skill_step:
        bonuses.append(Bonus("magic skill", above // skill_step))
    return tuple(bonuses)


def cast_score(*, magic_skill: int, test_bonuses: Sequence[Bonus] = ()) -> int:
    """The score a cast's d100 must not exceed: magic skill + bonuses (faction). The chance of
    success in % is this score clamped to 0..100."""
    return magic_skill + sum(b.value for b in test_bonuses)


def resolve_cast(spell: SpellSpec, *, magic_skill: int, level: int, rng: RandomSource,
                 level_step: int = 10, skill_step: int = 10, test_bonuses: Sequence[Bonus] = ()
                 ) -> CastOutcome:
    """Skill test d100 <= magic skill + bonuses (faction); on success roll the spell's dice once
    and add the evolution bonuses. A failed cast rolls nothing more."""
    score = cast_score(magic_skill=magic_skill, test_bonuses=test_bonuses)
    test = d100(rng)
    grade = grade_face(test.total, score, CAST_RULE)
    if not grade.success:
        return CastOutcome(score, test, grade, None)
    power_roll = roll(spell.dice, rng)
    bonuses = evolution_bonuses(level=level, magic_skill=magic_skill, level_step=level_step,
                                skill_step=skill_step)
    return CastOutcome(score, test, grade, power_roll, bonuses,
                       max(0, power_roll.total + sum(b.value for b in bonuses)))


def effect_hours(spell: SpellSpec, *, default_shield_hours: int) -> int:
    """Hours the spell's lasting effect holds: its own ``duration_hours``, or, for a shield that
    has none (the seed gives "/ 24h" to Bouclier and Barrière, nothing to Protection),
    ``default_shield_hours`` (the campaign's ``shield_duration_hours``). Damage and heals do
    not last: 0."""
    if spell.effect != SHIELD:
        return 0
    return spell.duration_hours or default_shield_hours


@dataclass(frozen=True)
class Piece:
    id: int
    x: int
    y: int
    ally: bool  # an ally of the caster (the caster counts as its own ally)


def zone_targets(spell: SpellSpec, *, caster: Piece, cell: tuple[int, int],
                 pieces: Iterable[Piece]) -> list[int]:
    """Ids of the pieces a cast on ``cell`` reaches. Single-target spells (radius 0) reach the
    piece on the cell; zone spells reach every piece within ``zone_radius`` cells of it — the
    caster too when inside, for "everyone" (its own explosion hurts) — or only allies for
    "allies" spells."""
    reached = []
    for p in pieces:
        if chebyshev((p.x, p.y), cell) > spell.zone_radius:
            continue
        if spell.reach == ALLIES and not p.ally:
            continue
        reached.append(p.id)
    return sorted(reached)


def in_range(spell: SpellSpec, *, caster: tuple[int, int], cell: tuple[int, int]) -> bool:
    """A spell of range 0 targets the caster's own cell; otherwise any cell within range."""
    return chebyshev(caster, cell) <= spell.range_cells


def heal_amount(power: int, *, pv: int, pv_max: int) -> int:
    """PV restored by a heal of ``power``: never beyond the maximum, never negative."""
    return max(0, min(pv_max, pv + power) - pv) if pv < pv_max else 0
