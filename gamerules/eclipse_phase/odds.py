"""Exact odds of an attack before it is made (icepool): each outcome, the damage after armour,
the number of wounds.

Source: issue 12, item 11 ("before acting, the chance of each outcome (hit, critical, the
target's defence) and the distribution of damage after armour and the chance of each number of
wounds, exact"); the rules are those of ``attack`` (the same ``Plan``) and ``health``.

Every pair of d100 faces (attack, defence) is settled as ``attack.resolve_attack`` settles it;
each hit then takes the weapon's DV distribution (plus extra d10s, the margin's bonus, the flat
bonuses of ``attack.dv_modifiers``, the beam concentration, a disarming shot's halving), through
armour (none on a critical when ``critical_ignores_armour``, nor after a called shot's "ignore
armour"), into wounds. A subdue attack deals no damage: its odds say how often it holds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import icepool

from gamerules.d100 import Grade
from gamerules.eclipse_phase.attack import (AttackOptions, CalledShot, Combatant, DefenceChoice,
                                            Plan,
                                            damage_expression, margin_dv_bonus, plan_attack)
from gamerules.eclipse_phase.checks import critical_rule, margin_of, settle
from gamerules.eclipse_phase.gear import DamageType, Weapon
from gamerules.eclipse_phase.health import through_armour, wounds_from
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude
from gamerules.probability import distribution


@dataclass(frozen=True)
class AttackOdds:
    """Chances summing to 1 over: ``miss`` (the attack test fails, ``fumble`` included),
    ``defended`` (the defence wins or ties, ``mishap`` included: the defender's winning
    critical), ``hit`` (``critical`` included; ``called_effect`` a called shot's effect
    obtained, ``subdued`` a subdue attack's hold). ``damage`` and ``wounds`` are the exact
    distributions over every outcome (0 for a miss, a defence or a subdue attack)."""

    plan: Plan
    miss: Fraction
    fumble: Fraction
    defended: Fraction
    mishap: Fraction
    hit: Fraction
    critical: Fraction
    called_effect: Fraction
    subdued: Fraction
    damage: dict[int, Fraction]
    wounds: dict[int, Fraction]

    @property
    def mean_damage(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


def _outcomes(plan: Plan, params: EclipsePhaseParameters, *, effect_margin: int,
              subdue_margin: int) -> icepool.Die:
    """A die over ("miss", fumble) / ("defended", mishap) / ("hit", critical, margin bonus,
    the called shot's margin reached, the subdue's margin reached)."""
    rule = critical_rule(params)
    at, dt = plan.attack_target, plan.defence_target

    def attack_only(fa: int) -> tuple[object, ...]:
        ra = rule.read(fa)
        ga = rule.grade(ra, at)
        if not ga.success:
            return ("miss", ga is Grade.CRITICAL_FAILURE)
        margin = margin_of(ra, at, ga, params)
        return ("hit", ga is Grade.CRITICAL_SUCCESS, margin_dv_bonus(margin, params),
                margin >= effect_margin, margin >= subdue_margin)

    if dt is None:
        return icepool.d100.map(attack_only)
    defence_target = dt

    def both(fa: int, fb: int) -> tuple[object, ...]:
        first = attack_only(fa)
        if first[0] == "miss":
            return first
        ra, rb = rule.read(fa), rule.read(fb)
        ga, gb = rule.grade(ra, at), rule.grade(rb, defence_target)
        won = settle((ga, ra), (gb, rb), params)
        if won == "first" or (won is None and not params.combat_tie_to_defender):
            return first
        return ("defended", gb is Grade.CRITICAL_SUCCESS)

    return icepool.map(both, icepool.d100, icepool.d100)


def attack_odds(attacker: Combatant, defender: Combatant, weapon: Weapon,
                params: EclipsePhaseParameters, *, options: AttackOptions | None = None,
                defence: DefenceChoice | None = None, extra_d10: int = 0,
                concentrate: bool = False) -> AttackOdds:
    """The exact odds of ``resolve_attack`` with these arguments then ``roll_damage`` (with
    ``extra_d10`` and ``concentrate``) and ``take_hit``. Raises as ``plan_attack``."""
    options = options or AttackOptions()
    plan = plan_attack(attacker, defender, weapon, params, options=options, defence=defence)
    never = 10 ** 6
    die = _outcomes(plan, params,
                    effect_margin=params.called_shot_margin if options.called_shot else never,
                    subdue_margin=defender.character.morph.durability if options.subdue
                    else never)
    multiplier = params.beam_concentration_multiplier if concentrate else 1
    flat = params.charge_dv if options.charge else 0
    if weapon.melee and params.melee_damage_bonus_divisor and weapon.damage_type is not DamageType.PSI:
        flat += attacker.character.aptitude(Aptitude.SOM, params) // params.melee_damage_bonus_divisor
    dv_die = distribution(damage_expression(weapon, extra_d10))
    armour = defender.character.armour(weapon.damage_type.value)
    wt = defender.character.morph.wt(params)
    chance: dict[str, Fraction] = defaultdict(Fraction)
    damage: dict[int, Fraction] = defaultdict(Fraction)
    denominator = die.denominator()
    for outcome, quantity in die.items():
        p = Fraction(quantity, denominator)
        kind = outcome[0]
        chance[kind] += p
        if kind == "miss":
            chance["fumble"] += p if outcome[1] else 0
            damage[0] += p
            continue
        if kind == "defended":
            chance["mishap"] += p if outcome[1] else 0
            damage[0] += p
            continue
        critical, bonus, effect, held = outcome[1], outcome[2], outcome[3], outcome[4]
        chance["critical"] += p if critical else 0
        chance["called_effect"] += p if effect else 0
        chance["subdued"] += p if held else 0
        if options.subdue:
            damage[0] += p
            continue
        ignore = ((critical and params.critical_ignores_armour)
                  or (effect and options.called_shot is CalledShot.IGNORE_ARMOUR))
        halve = effect and options.called_shot is CalledShot.DISARM
        n = dv_die.denominator()
        for dv, q in dv_die.items():
            total_dv = (dv + flat + bonus) * multiplier
            total_dv = max(0, total_dv // 2 if halve else total_dv)
            after = through_armour(total_dv, weapon.damage_type, armour, weapon.ap,
                                   ignore_armour=ignore).damage
            damage[after] += p * Fraction(q, n)
    wounds: dict[int, Fraction] = defaultdict(Fraction)
    for d, p in damage.items():
        wounds[wounds_from(d, wt, params)] += p
    return AttackOdds(plan, chance["miss"], chance["fumble"], chance["defended"],
                      chance["mishap"], chance["hit"], chance["critical"],
                      chance["called_effect"], chance["subdued"],
                      {k: v for k, v in sorted(damage.items()) if v},
                      {k: v for k, v in sorted(wounds.items()) if v})


def clear_tables() -> None:
    """Forget the memoised tables (the benchmark's cold series; tests)."""
    distribution.cache_clear()
