"""Eternal War One II attacks: brawl, melee, ranged and thrown.

Source: 000_afeb9d2c9ccd2b72.txt, "Mécanismes de combat": "Attaque Bagarre", "Attaque avec
armes", "Phase d'esquive", "Calcul des dégâts", "Dégâts de base", "Dégâts d'arme", "Dégâts de
compétence", "Calcule de la défense", "Calcule de la réductions de dégâts", "Récompenses de
combat"; the thrown attack (Lancé) follows "Répartition des gains d'XP par action".

- skill test: d100 <= score hits; a roll strictly below ``perfect_below`` (5) is perfect
  (``gamerules.d100.PerfectBelow``: the attack roll's grade is ``Grade.PERFECT``).
  brawl = Bagarre; melee = Arme mêlée + ca + FOR; ranged = Arme distance + ca + DEX - (distance-1);
  throw = Lancé + DEX - (distance-1). Standard items' modifiers of the characteristic used (FOR
  for melee, DEX for ranged and throw) are added; then the modifiers passed in (presence, faction).
- dodge (only defenders with luck): d100 < Esquive + LUK // 5 + modifiers avoids the damage
  (``RollUnder(inclusive=False)``).
- damage = base damage (FOR+TAI for brawl and melee, DEX+TAI for ranged and throw) + the weapon's
  dice (1d4 for brawl and throw) + skill damage (legendary weapon modifiers) (+1d3 if perfect),
  never below 0.
- reduction: characters 1 + DEF rolls won (d100 <= DEF + standard DEF modifiers, count by level)
  + armour; doors, objects and creatures their fixed damage reduction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final
from collections.abc import Mapping

from gamerules.d100 import Grade, PerfectBelow, RollUnder, grade_face
from gamerules.dice import DiceRoll, RandomSource, d100, roll
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import damage_reduction_rolls
from gamerules.modifiers import Modifier as Modifier  # re-exported: the apps import it here
from gamerules.tables import RangeTable

BRAWL, MELEE, RANGED, THROW = "brawl", "melee", "ranged", "throw"
KINDS = (BRAWL, MELEE, RANGED, THROW)
# The characteristic a kind's skill test adds, and the one its base damage adds to TAI.
TEST_CHARACTERISTIC = {BRAWL: None, MELEE: "FOR", RANGED: "DEX", THROW: "DEX"}
DAMAGE_CHARACTERISTIC = {BRAWL: "FOR", MELEE: "FOR", RANGED: "DEX", THROW: "DEX"}

# "Calcule FOR + TAI donne une référence dans le tableau suivant" (the same table for DEX + TAI).
BASE_DAMAGE = RangeTable([
    (2, 12, "-1d6"),
    (13, 16, "-1d4"),
    (17, 24, None),
    (25, 32, "+1d4"),
    (33, 40, "+1d6"),
    (41, 56, "+2d6"),
    (57, 64, "+2d6+2"),
    (65, 72, "+2d6+3"),
    (73, 80, "+2d6+4"),
])


def base_damage_dice(characteristic_plus_size: int) -> str | None:
    """Base damage (db) dice for FOR+TAI (melee, brawl) or DEX+TAI (ranged); None for "aucun"."""
    return BASE_DAMAGE.lookup(characteristic_plus_size)


@dataclass(frozen=True)
class Weapon:
    name: str
    damage_dice: str
    weapon_skill: int = 0  # ca
    range_cells: int = 1
    legendary_damage: int = 0  # legendary modifiers, added to the damage


@dataclass(frozen=True)
class Combatant:
    """One side of an attack. ``luck`` is None for doors, objects and creatures (no dodge);
    ``fixed_reduction`` replaces the DEF rolls for them. ``modifiers`` are standard items'
    characteristic modifiers (code -> signed points), already rolled."""

    characteristics: Mapping[str, int]
    skills: Mapping[str, int]
    level: int
    luck: int | None = None
    armour: int = 0
    modifiers: Mapping[str, int] = field(default_factory=dict)
    fixed_reduction: int | None = None
    shield: int = 0  # active damage-reduction spells (Bouclier, Barrière...)


# How each test of an attack is graded (seed 000, "Mécanismes de combat"): the dodge succeeds
# strictly below its score, a DEF roll at or below DEF.
DODGE_RULE: Final = RollUnder(inclusive=False)
DEFENCE_RULE: Final = RollUnder()


def attack_rule(params: EW1Parameters) -> PerfectBelow:
    """The attack test's rule: d100 <= score hits, strictly below ``perfect_below`` is perfect."""
    return PerfectBelow(threshold=params.perfect_below)


@dataclass(frozen=True)
class LabelledRoll:
    """One roll of an attack. A test (attack, dodge, damage_reduction) has the ``target`` it was
    rolled against and its ``grade``; a damage roll has neither."""

    label: str  # attack, dodge, base_damage, weapon_damage, perfect_damage, damage_reduction
    roll: DiceRoll
    target: int | None = None  # the score a d100 test was rolled against
    grade: Grade | None = None
    modifiers: tuple[Modifier, ...] = ()

    @property
    def success(self) -> bool | None:
        return None if self.grade is None else self.grade.success


@dataclass(frozen=True)
class AttackOutcome:
    skill: str
    attack_score: int
    attack_roll: int
    hit: bool
    perfect: bool
    dodge_score: int | None
    dodged: bool
    damage: int  # before reduction, never below 0
    reduction: int  # base + rolls won + armour, or the fixed reduction
    pv_lost: int
    attacker_xp: int
    defender_xp: int
    rolls: tuple[LabelledRoll, ...] = field(default_factory=tuple)
    # What the reduction is made of (sources: base, rolls_won, armour, shield; or fixed,
    # shield), summing to ``reduction``; empty on a miss or a dodge.
    reduction_terms: tuple[Modifier, ...] = field(default_factory=tuple)


def attack_modifiers(kind: str, attacker: Combatant, *, weapon: Weapon | None, distance: int,
                     extra: tuple[Modifier, ...] = ()) -> tuple[int, tuple[Modifier, ...]]:
    """(score, modifiers applied) of the skill test of an attack of ``kind``."""
    applied: list[Modifier] = []
    if weapon is not None and weapon.weapon_skill:
        applied.append(Modifier("weapon skill (ca)", weapon.weapon_skill))
    code = TEST_CHARACTERISTIC[kind]
    if code:
        applied.append(Modifier(code, attacker.characteristics[code]))
        if attacker.modifiers.get(code):
            applied.append(Modifier(f"items {code}", attacker.modifiers[code]))
    if kind in (RANGED, THROW) and distance > 1:
        applied.append(Modifier("distance", -(distance - 1)))
    applied.extend(extra)
    return attacker.skills[kind] + sum(m.value for m in applied), tuple(applied)


def resolve_attack(kind: str, attacker: Combatant, defender: Combatant, rng: RandomSource,  # noqa: PLR0913  options kw-only
                   params: EW1Parameters, *, weapon: Weapon | None = None, distance: int = 1,
                   attack_modifiers_extra: tuple[Modifier, ...] = (),
                   dodge_modifiers: tuple[Modifier, ...] = (), hit_xp: int | None = None
                   ) -> AttackOutcome:
    """Resolve one attack of ``kind`` (brawl, melee, ranged, throw). ``weapon`` is required for
    melee and ranged. XP: ``hit_xp`` (default ``params.hit_xp``) + ``perfect_bonus_xp`` on a hit,
    ``miss_xp`` on a miss; the defender ``dodge_xp`` when it dodges. Raises ValueError for an
    unknown kind or a missing weapon (callers check ranges and adjacency first)."""
    if kind not in KINDS:
        raise ValueError(f"Unknown attack kind {kind!r}.")
    if kind in (MELEE, RANGED) and weapon is None:
        raise ValueError(f"A {kind} attack needs a weapon.")
    rolls: list[LabelledRoll] = []
    score, applied = attack_modifiers(kind, attacker, weapon=weapon, distance=distance,
                                      extra=attack_modifiers_extra)
    attack = d100(rng)
    attack_grade = grade_face(attack.total, score, attack_rule(params))
    hit, perfect = attack_grade.success, attack_grade is Grade.PERFECT
    rolls.append(LabelledRoll("attack", attack, score, attack_grade, applied))
    if not hit:
        return AttackOutcome(kind, score, attack.total, False, False, None, False, 0, 0, 0,
                             params.miss_xp, 0, tuple(rolls))

    attacker_xp = (params.hit_xp if hit_xp is None else hit_xp) + (
        params.perfect_bonus_xp if perfect else 0)
    dodge_score = None
    if defender.luck is not None:
        dodge_applied = (Modifier("LUK", defender.luck // params.luck_divisor), *dodge_modifiers)
        dodge_score = defender.skills["dodge"] + sum(m.value for m in dodge_applied)
        dodge = d100(rng)
        dodge_grade = grade_face(dodge.total, dodge_score, DODGE_RULE)
        dodged = dodge_grade.success
        rolls.append(LabelledRoll("dodge", dodge, dodge_score, dodge_grade, dodge_applied))
        if dodged:
            return AttackOutcome(kind, score, attack.total, True, perfect, dodge_score, True,
                                 0, 0, 0, attacker_xp, params.dodge_xp, tuple(rolls))

    damage, damage_rolls = _damage(kind, attacker, weapon, perfect=perfect, rng=rng)
    rolls.extend(damage_rolls)
    terms, reduction_rolls = reduction_breakdown(defender, rng, params)
    reduction = sum(t.value for t in terms)
    rolls.extend(reduction_rolls)
    pv_lost = max(0, damage - reduction)
    return AttackOutcome(kind, score, attack.total, True, perfect, dodge_score, False, damage,
                         reduction, pv_lost, attacker_xp, 0, tuple(rolls), terms)


def _damage(kind: str, attacker: Combatant, weapon: Weapon | None, *, perfect: bool,
            rng: RandomSource) -> tuple[int, list[LabelledRoll]]:
    """(the damage of a hit before reduction, never below 0; its rolls): the base damage dice
    of the kind's characteristic + TAI, the weapon's dice (1d4 without) and its legendary
    damage, and 1d3 more on a perfect hit. Source: 000, "Mécanismes de combat"."""
    rolls: list[LabelledRoll] = []
    damage = 0
    code = DAMAGE_CHARACTERISTIC[kind]
    base_dice = base_damage_dice(attacker.characteristics[code] + attacker.characteristics["TAI"])
    if base_dice:
        base = roll(base_dice, rng)
        rolls.append(LabelledRoll("base_damage", base))
        damage += base.total
    weapon_dice = weapon.damage_dice if weapon is not None else "1d4"
    weapon_roll = roll(weapon_dice, rng)
    rolls.append(LabelledRoll("weapon_damage" if weapon else f"{kind}_damage", weapon_roll))
    damage += weapon_roll.total
    if weapon is not None:
        damage += weapon.legendary_damage
    if perfect:
        bonus = roll("1d3", rng)
        rolls.append(LabelledRoll("perfect_damage", bonus))
        damage += bonus.total
    return max(0, damage), rolls


def damage_reduction(defender: Combatant, rng: RandomSource, params: EW1Parameters
                     ) -> tuple[int, list[LabelledRoll]]:
    """(points of damage blocked, the DEF rolls): the sum of ``reduction_breakdown``."""
    terms, rolls = reduction_breakdown(defender, rng, params)
    return sum(t.value for t in terms), rolls


def reduction_breakdown(defender: Combatant, rng: RandomSource, params: EW1Parameters
                        ) -> tuple[tuple[Modifier, ...], list[LabelledRoll]]:
    """(the terms of the damage reduction, the DEF rolls). Characters: ``base`` =
    ``base_damage_reduction`` (1), ``rolls_won`` = one point per d100 <= DEF (+ standard DEF
    modifiers) among their rolls by level, ``armour``, ``shield``. Doors, objects and creatures:
    ``fixed`` (their fixed reduction) and ``shield``. Every term is given, zeros included, so a
    page can show the whole sum. Source: 000, "Calcule de la défense" and "Calcule de la
    réductions de dégâts"."""
    if defender.fixed_reduction is not None:
        return (Modifier("fixed", defender.fixed_reduction),
                Modifier("shield", defender.shield)), []
    rolls = []
    won = 0
    defence = defender.characteristics["DEF"] + defender.modifiers.get("DEF", 0)
    for _ in range(damage_reduction_rolls(defender.level)):
        r = d100(rng)
        grade = grade_face(r.total, defence, DEFENCE_RULE)
        won += grade.success
        rolls.append(LabelledRoll("damage_reduction", r, defence, grade))
    return (Modifier("base", params.base_damage_reduction), Modifier("rolls_won", won),
            Modifier("armour", defender.armour), Modifier("shield", defender.shield)), rolls
