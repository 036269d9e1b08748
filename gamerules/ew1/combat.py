"""Eternal War One II brawl attack: skill test, dodge, damage, damage reduction, XP.

Source: 000_afeb9d2c9ccd2b72.txt, "Mécanismes de combat" ("Attaque Bagarre", "Phase d'esquive",
"Calcul des dégâts", "Dégâts de base", "Calcule de la défense", "Récompenses de combat").
Everything the attack rolls is returned in ``AttackOutcome.rolls`` with its label, in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from gamerules.dice import DiceRoll, RandomSource, d100, roll
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import damage_reduction_rolls
from gamerules.tables import RangeTable

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


def base_damage_dice(strength_plus_size: int) -> str | None:
    """Base damage (db) dice for FOR+TAI (melee, brawl) or DEX+TAI (ranged); None for "aucun"."""
    return BASE_DAMAGE.lookup(strength_plus_size)


@dataclass(frozen=True)
class Combatant:
    """The numbers of one side of an attack. ``luck`` is None for doors, objects and creatures."""

    characteristics: Mapping[str, int]
    skills: Mapping[str, int]
    level: int
    luck: int | None = None
    armour: int = 0


@dataclass(frozen=True)
class Modifier:
    source: str
    value: int


@dataclass(frozen=True)
class LabelledRoll:
    label: str  # attack, dodge, base_damage, brawl_damage, perfect_damage, damage_reduction
    roll: DiceRoll
    target: int | None = None  # the score a d100 test was rolled against
    success: bool | None = None
    modifiers: tuple[Modifier, ...] = ()


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
    reduction: int  # base + rolls won + armour
    pv_lost: int
    attacker_xp: int
    defender_xp: int
    rolls: tuple[LabelledRoll, ...] = field(default_factory=tuple)


def resolve_brawl(attacker: Combatant, defender: Combatant, rng: RandomSource,
                  params: EW1Parameters, *, attack_modifiers: tuple[Modifier, ...] = (),
                  dodge_modifiers: tuple[Modifier, ...] = ()) -> AttackOutcome:
    """Resolve a brawl (Bagarre) attack.

    - skill test: d100 <= Bagarre + modifiers hits; a roll < ``perfect_below`` (5) is perfect;
    - dodge (characters with luck only): d100 < Esquive + LUK // 5 + modifiers avoids all damage;
    - damage = base damage (FOR+TAI table) + 1d4 (+1d3 when perfect), floored at 0;
    - reduction = 1 + DEF rolls won (d100 <= DEF, count by level) + armour;
    - PV lost = max(0, damage - reduction);
    - XP: attacker ``hit_xp`` (+``perfect_bonus_xp``) on a hit, ``miss_xp`` on a miss,
      defender ``dodge_xp`` when it dodges.
    """
    rolls: list[LabelledRoll] = []
    score = attacker.skills["brawl"] + sum(m.value for m in attack_modifiers)
    attack = d100(rng)
    hit = attack.total <= score
    perfect = hit and attack.total < params.perfect_below
    rolls.append(LabelledRoll("attack", attack, score, hit, attack_modifiers))
    if not hit:
        return AttackOutcome("brawl", score, attack.total, False, False, None, False, 0, 0, 0,
                             params.miss_xp, 0, tuple(rolls))

    attacker_xp = params.hit_xp + (params.perfect_bonus_xp if perfect else 0)
    dodge_score = None
    if defender.luck is not None:
        dodge_score = (defender.skills["dodge"] + defender.luck // params.luck_divisor
                       + sum(m.value for m in dodge_modifiers))
        dodge = d100(rng)
        dodged = dodge.total < dodge_score
        rolls.append(LabelledRoll("dodge", dodge, dodge_score, dodged, dodge_modifiers))
        if dodged:
            return AttackOutcome("brawl", score, attack.total, True, perfect, dodge_score, True,
                                 0, 0, 0, attacker_xp, params.dodge_xp, tuple(rolls))

    damage = 0
    base_dice = base_damage_dice(attacker.characteristics["FOR"] + attacker.characteristics["TAI"])
    if base_dice:
        base = roll(base_dice, rng)
        rolls.append(LabelledRoll("base_damage", base))
        damage += base.total
    brawl = roll("1d4", rng)
    rolls.append(LabelledRoll("brawl_damage", brawl))
    damage += brawl.total
    if perfect:
        bonus = roll("1d3", rng)
        rolls.append(LabelledRoll("perfect_damage", bonus))
        damage += bonus.total
    damage = max(0, damage)

    won = 0
    defence = defender.characteristics["DEF"]
    for _ in range(damage_reduction_rolls(defender.level)):
        r = d100(rng)
        ok = r.total <= defence
        won += ok
        rolls.append(LabelledRoll("damage_reduction", r, defence, ok))
    reduction = params.base_damage_reduction + won + defender.armour
    pv_lost = max(0, damage - reduction)
    return AttackOutcome("brawl", score, attack.total, True, perfect, dodge_score, False, damage,
                         reduction, pv_lost, attacker_xp, 0, tuple(rolls))
