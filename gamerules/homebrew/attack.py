"""An attack: the hit test, the damage die, criticals, the defensive posture's halved dice.

Source: 002_80873c4f1892db54.txt, "Attaquer": "L'attaquant jette 1d100 [...] Si le résultat
obtenu est inférieur ou égal à la statistique de l'attaquant (Physique ou Mental selon le type
d'attaque), l'attaque réussit alors. Si l'attaque échoue, le tour du joueur est terminé";
"L'attaquant lance un dé de dégâts dont le nombre de faces dépend de l'arme ou du sort utilisé
et le résultat de ce dé sera la nombre de points de dégâts"; "Critiques": "de 1 à 5 [...]
garanti les dégâts maximum sur une attaque en plus de les multiplier par un certain montant en
fonction de l'arme équipée"; "Multiplicateurs": 1d3 x4, 1d4 x3, 1d5~1d6 x1.75, 1d7~1d8 x1.5;
"Défensive": "ses jets de dégâts sont divisés par 2 (1d6 devient 1d3, par exemple)".

Choices (docs/rules/homebrew-d100.md): a weapon or spell has one damage die 1dN (2 <= N <= 100);
the multiplier table is extended (1d2 x6, 1d9-1d10 x1.25, 1d11 and up x1), every entry a
parameter; critical damage = the maximum of the die rolled x the weapon die's multiplier,
rounded half up (1d6: 6 x 1.75 = 10.5 -> 11); in defensive posture the die's sides are halved
rounding up (``defensive_round_up``: 1d5 -> 1d3, 1d3 -> 1d2, 1d2 -> a flat 1) and a critical
takes the halved die's maximum with the weapon's own multiplier (1d6: 3 x 1.75 -> 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

from gamerules.d100 import D100Result, Grade
from gamerules.dice import MIN_SIDES, DiceNotationError, DiceRoll, RandomSource, parse, roll
from gamerules.homebrew.checks import characteristic_test
from gamerules.homebrew.errors import InvalidWeapon
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.turn import Posture
from gamerules.modifiers import Modifier
from gamerules.tables import RangeTable

MAX_DAMAGE_SIDES = 100


class AttackKind(StrEnum):
    PHYSICAL = "physical"  # tested with Physique; may be parried and dodged
    MAGICAL = "magical"  # tested with Mental; may be dodged, never parried


@dataclass(frozen=True)
class Weapon:
    """A weapon or a spell: its one damage die ("1d6"), its kind, its MP cost (spells)."""

    name: str
    die: str
    kind: AttackKind = AttackKind.PHYSICAL
    mp_cost: int = 0

    @property
    def sides(self) -> int:
        return die_sides(self.die)


def die_sides(die: str) -> int:
    """N of a "1dN" damage die. Raises InvalidWeapon for anything else."""
    try:
        terms = parse(die)
    except DiceNotationError:
        terms = ()
    if len(terms) != 1 or terms[0].count != 1 or terms[0].sign != 1 \
            or terms[0].sides > MAX_DAMAGE_SIDES:
        raise InvalidWeapon(max_damage_sides=MAX_DAMAGE_SIDES, die=die)
    return terms[0].sides


def rolled_sides(weapon_sides: int, posture: Posture, params: HomebrewParameters) -> int:
    """Sides of the die actually rolled: the weapon's, halved in defensive posture (1 at
    least: a flat 1)."""
    if posture is not Posture.DEFENSIVE:
        return weapon_sides
    halved = -(-weapon_sides // 2) if params.defensive_round_up else weapon_sides // 2
    return max(1, halved)


def damage_expression(sides: int) -> str:
    """"1dN", or "1" for a one-sided die (a halved 1d2)."""
    return f"1d{sides}" if sides >= MIN_SIDES else "1"


def multiplier_table(params: HomebrewParameters) -> RangeTable[Decimal]:
    return RangeTable([
        (1, 2, params.crit_multiplier_d2), (3, 3, params.crit_multiplier_d3),
        (4, 4, params.crit_multiplier_d4), (5, 6, params.crit_multiplier_d5_d6),
        (7, 8, params.crit_multiplier_d7_d8), (9, 10, params.crit_multiplier_d9_d10),
        (11, MAX_DAMAGE_SIDES, params.crit_multiplier_d11_up),
    ])


def critical_multiplier(weapon_sides: int, params: HomebrewParameters) -> Decimal:
    return multiplier_table(params).lookup(weapon_sides)


def critical_damage(weapon_sides: int, posture: Posture, params: HomebrewParameters) -> int:
    """Maximum of the die rolled x the weapon die's multiplier, rounded half up."""
    top = rolled_sides(weapon_sides, posture, params)
    exact = top * critical_multiplier(weapon_sides, params)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Attacker:
    physique: int
    mental: int
    posture: Posture = Posture.OFFENSIVE


@dataclass(frozen=True)
class AttackResult:
    """Steps 2-3 of "Attaquer", before reactions. ``damage`` is what the target takes if it
    does not react (0 on a miss); ``max_damage`` the die's maximum (a failed dodge takes it);
    ``damage_roll`` None on a miss or a critical (no die: the maximum is guaranteed)."""

    kind: AttackKind
    weapon: Weapon
    posture: Posture
    characteristic: str  # "physique" or "mental"
    test: D100Result
    damage_expression: str
    damage_roll: DiceRoll | None
    damage: int
    max_damage: int
    multiplier: Decimal | None  # the critical multiplier applied, None without a critical

    @property
    def hit(self) -> bool:
        return self.test.success

    @property
    def critical_success(self) -> bool:
        return self.test.grade is Grade.CRITICAL_SUCCESS

    @property
    def critical_failure(self) -> bool:
        """The GM then picks an effect (gamerules.homebrew.fumbles.choose_fumble)."""
        return self.test.grade is Grade.CRITICAL_FAILURE

    @property
    def ends_turn(self) -> bool:
        return not self.hit


def resolve_attack(attacker: Attacker, weapon: Weapon, rng: RandomSource,
                   params: HomebrewParameters, *, difficulty_value: int = 0,
                   assists: Sequence[Modifier] = (), extra: Sequence[Modifier] = ()
                   ) -> AttackResult:
    """Roll the hit test (Physique for a physical attack, Mental for a magical one) and, on a
    hit, the damage die (halved in defensive posture); a critical success takes the critical
    damage without rolling. Raises InvalidWeapon for a bad die. MP are spent separately
    (gamerules.homebrew.magic.spend_mp), before the test."""
    sides = weapon.sides
    physical = weapon.kind is AttackKind.PHYSICAL
    characteristic = "physique" if physical else "mental"
    test = characteristic_test(attacker.physique if physical else attacker.mental, rng, params,
                               difficulty_value=difficulty_value, assists=assists, extra=extra)
    top = rolled_sides(sides, attacker.posture, params)
    expression = damage_expression(top)
    if not test.success:
        return AttackResult(weapon.kind, weapon, attacker.posture, characteristic, test,
                            expression, None, 0, top, None)
    if test.grade is Grade.CRITICAL_SUCCESS:
        return AttackResult(weapon.kind, weapon, attacker.posture, characteristic, test,
                            expression, None, critical_damage(sides, attacker.posture, params),
                            top, critical_multiplier(sides, params))
    damage_roll = roll(expression, rng)
    return AttackResult(weapon.kind, weapon, attacker.posture, characteristic, test, expression,
                        damage_roll, damage_roll.total, top, None)
