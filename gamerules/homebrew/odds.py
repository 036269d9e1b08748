"""Exact odds of an attack before it is made: to hit, to crit, the damage after each reaction the
target may take (icepool).

Source: issue 11, item 20 ("before acting, each action shows its chance to hit and to crit, and
the damage range, after the target's possible reactions"); the rules are those of
``attack`` and ``reactions``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import icepool

from gamerules.d100 import Grade, grade_chances
from gamerules.dice import MIN_SIDES
from gamerules.homebrew.attack import Weapon, critical_damage, rolled_sides
from gamerules.homebrew.checks import critical_rule
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reaction, Reactor, refusal_for
from gamerules.homebrew.turn import Posture


@dataclass(frozen=True)
class AttackOdds:
    """``hit``: the test succeeds (criticals included); ``damage``: the exact distribution of
    the damage the target finally takes, 0 included (misses, dodges, full parries);
    ``hit_damage``: (lowest, highest) damage when the attack hits; ``reaction_success``: the
    chance the reaction's test succeeds (None without a reaction)."""

    reaction: Reaction
    target: int
    hit: Fraction
    critical_success: Fraction
    critical_failure: Fraction
    damage: dict[int, Fraction]
    hit_damage: tuple[int, int]
    critical_damage: int
    reaction_success: Fraction | None

    @property
    def mean_damage(self) -> Fraction:
        return sum((o * p for o, p in self.damage.items()), Fraction(0))

    @property
    def damages(self) -> Fraction:
        """Chance the target loses at least 1 HP."""
        return sum((p for o, p in self.damage.items() if o > 0), Fraction(0))


def _flat(value: int) -> icepool.Die:
    return icepool.Die([value])


def _mix(parts: list[tuple[icepool.Die, int]]) -> icepool.Die:
    """Dice weighted by whole numbers (zero weights dropped)."""
    kept = [(d, w) for d, w in parts if w > 0]
    return icepool.Die([d for d, _ in kept], times=[w for _, w in kept])


def reaction_chance(reaction: Reaction, reactor: Reactor, params: HomebrewParameters, *,
                    reaction_modifier: int = 0) -> Fraction | None:
    """The chance that ``reaction``'s sub test succeeds (a parry rolls the Force, a dodge the
    Dextérité, plus ``reaction_modifier``; 1d``sub_test_sides``, success at most the value:
    checks.sub_test): a Fraction in [0, 1], None for no reaction (nothing is rolled). What
    the rule refuses (reactions.refusal_for) is the caller's check: this is the roll alone.
    The reaction prompt shows it for each answer offered (docs/rules/homebrew-d100.md,
    "Reaction prompt")."""
    if reaction is Reaction.NONE:
        return None
    sides = params.sub_test_sides
    value = (reactor.force if reaction is Reaction.PARRY else reactor.dexterite) \
        + reaction_modifier
    return Fraction(min(max(value, 0), sides), sides)  # faces 1..value succeed


ODDS_CACHE_SIZE = 4096  # distinct (target, die, posture, reaction, reactor, parameters)


def attack_odds(*, target: int, weapon: Weapon, params: HomebrewParameters,
                attacker_posture: Posture = Posture.OFFENSIVE,
                reaction: Reaction = Reaction.NONE, reactor: Reactor | None = None,
                reaction_modifier: int = 0) -> AttackOdds:
    """Odds of ``weapon`` against a d100 ``target`` (the characteristic + modifiers), the
    target answering with ``reaction`` (its ``reactor`` numbers; ``reaction_modifier`` added to
    the Force or Dextérité). Raises ReactionRefused when the reaction is not allowed.

    A pure function of hashable values: computed once per distinct input (an encounter page
    asks the same odds of every goblin against every hero, and again after each step) and
    kept, least recently used first out, ODDS_CACHE_SIZE of them. The weapon's name plays no
    part (nor in the key). The result is frozen; its ``damage`` mapping is shared: read it."""
    return _attack_odds(target, replace(weapon, name=""), params,
                        attacker_posture=attacker_posture, reaction=reaction,
                        reactor=reactor or Reactor(0, 0), reaction_modifier=reaction_modifier)


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _attack_odds(target: int, weapon: Weapon, params: HomebrewParameters, *,
                 attacker_posture: Posture, reaction: Reaction, reactor: Reactor,
                 reaction_modifier: int) -> AttackOdds:
    refused = refusal_for(weapon.kind, reaction, reactor)
    if refused is not None:
        raise refused
    chances = grade_chances(target, critical_rule(params))
    p_crit, p_fumble = chances[Grade.CRITICAL_SUCCESS], chances[Grade.CRITICAL_FAILURE]
    p_hit = sum((p for g, p in chances.items() if g.success), Fraction(0))
    sides = weapon.sides
    top = rolled_sides(sides, attacker_posture, params)
    crit = critical_damage(sides, attacker_posture, params)
    normal = icepool.d(top) if top >= MIN_SIDES else _flat(1)
    sub_sides = params.sub_test_sides
    reaction_success = reaction_chance(reaction, reactor, params,
                                       reaction_modifier=reaction_modifier)
    if reaction is Reaction.NONE:
        on_normal, on_crit = normal, _flat(crit)
    else:
        value = (reactor.force if reaction is Reaction.PARRY else reactor.dexterite) \
            + reaction_modifier
        wins = min(max(value, 0), sub_sides)  # faces 1..wins succeed
        if reaction is Reaction.PARRY:
            def parried(damage: int, face: int) -> int:
                return damage - min(damage, face) if face <= value else damage
            on_normal = icepool.map(parried, normal, icepool.d(sub_sides))
            on_crit = icepool.map(parried, _flat(crit), icepool.d(sub_sides))
        else:
            on_normal = _mix([(_flat(0), wins), (_flat(top), sub_sides - wins)])
            on_crit = _mix([(_flat(0), wins), (_flat(max(crit, top)), sub_sides - wins)])
    weights = [int((p_hit - p_crit) * 100), int(p_crit * 100)]
    on_hit = _mix([(on_normal, weights[0]), (on_crit, weights[1])]) if sum(weights) else _flat(0)
    full = _mix([(_flat(0), int((1 - p_hit) * 100)), (on_normal, weights[0]),
                 (on_crit, weights[1])])
    outcomes = [int(o) for o in on_hit.outcomes()]
    return AttackOdds(reaction, target, p_hit, p_crit, p_fumble,
                      {int(o): Fraction(full.probability(o)) for o in full.outcomes()},
                      (min(outcomes), max(outcomes)), crit, reaction_success)


def odds_by_reaction(*, target: int, weapon: Weapon, params: HomebrewParameters,
                     reactor: Reactor, attacker_posture: Posture = Posture.OFFENSIVE,
                     for_ally: bool = False, reaction_modifier: int = 0
                     ) -> dict[Reaction, AttackOdds]:
    """``attack_odds`` for each reaction ``reactor`` may take against this weapon."""
    allowed = [r for r in Reaction
               if refusal_for(weapon.kind, r, reactor, for_ally=for_ally) is None]
    return {r: attack_odds(target=target, weapon=weapon, params=params,
                           attacker_posture=attacker_posture, reaction=r, reactor=reactor,
                           reaction_modifier=reaction_modifier)
            for r in allowed}
