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

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

from gamerules.d100 import Grade
from gamerules.eclipse_phase.attack import (AttackOptions, CalledShot, Combatant, DefenceChoice,
                                            Plan,
                                            damage_expression, margin_dv_bonus, plan_attack)
from gamerules.eclipse_phase.checks import critical_rule, flip, margin_of, settle
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


Outcome = tuple[object, ...]


@lru_cache(maxsize=1024)
def _outcomes(params: EclipsePhaseParameters, attack_target: int, defence_target: int | None,
              effect_margin: int, subdue_margin: int) -> tuple[tuple[tuple[Outcome, int], ...], int]:
    """The attack's outcomes with their weights: (((outcome, count), ...), denominator), the
    counts whole numbers out of 100 (no defence) or 10,000 pairs of d100 faces. An outcome is
    ("miss", fumble), ("defended", mishap) or ("hit", critical, margin bonus, the called
    shot's margin reached, the subdue's margin reached). Every face (and pair of faces) is read,
    graded and settled by the same rules as ``attack.resolve_attack`` (``critical_rule``,
    ``settle``); each face is graded once, each pair settled once, then memoised per input (the
    form asks again on every change)."""
    rule = critical_rule(params)
    at = attack_target

    def attack_only(fa: int) -> Outcome:
        ra = rule.read(fa)
        ga = rule.grade(ra, at)
        if not ga.success:
            return ("miss", ga is Grade.CRITICAL_FAILURE)
        margin = margin_of(ra, at, ga, params)
        return ("hit", ga is Grade.CRITICAL_SUCCESS, margin_dv_bonus(margin, params),
                margin >= effect_margin, margin >= subdue_margin)

    faces = range(1, 101)
    attacks = [(attack_only(fa), (rule.grade(rule.read(fa), at), rule.read(fa))) for fa in faces]
    counts: Counter[Outcome] = Counter()
    if defence_target is None:
        for first, _graded in attacks:
            counts[first] += 1
        return tuple(counts.items()), 100
    defences = [((rule.grade(rb, defence_target), rb),
                 rule.grade(rb, defence_target) is Grade.CRITICAL_SUCCESS)
                for rb in (rule.read(fb) for fb in faces)]
    tie_holds = params.combat_tie_to_defender
    for first, graded in attacks:
        if first[0] == "miss":
            counts[first] += 100
            continue
        hits = mishaps = 0
        for defence, mishap in defences:
            won = settle(graded, defence, params)
            if won == "first" or (won is None and not tie_holds):
                hits += 1
            elif mishap:
                mishaps += 1
        counts[first] += hits
        counts[("defended", True)] += mishaps
        counts[("defended", False)] += 100 - hits - mishaps
    return tuple((k, v) for k, v in counts.items() if v), 10000


@dataclass(frozen=True)
class _DamageSpec:
    """What every hit of one attack shares on its way to damage: the DV dice ``expression``
    (icepool notation, extra d10s included), the ``flat`` DV bonuses (charge, SOM), the beam
    concentration's ``multiplier`` (1 without), and the target's ``armour`` against
    ``damage_type`` with the weapon's ``ap``. Hashable: a key of ``_damage_table``."""

    expression: str
    flat: int
    multiplier: int
    damage_type: DamageType
    armour: int
    ap: int


# A hit's own part of its damage: (the margin's DV bonus, armour ignored, halved by a disarming
# shot).
_HitKind = tuple[int, bool, bool]


@lru_cache(maxsize=1024)
def _damage_table(spec: _DamageSpec, bonus: int, halve: bool, ignore: bool
                  ) -> tuple[tuple[tuple[int, int], ...], int]:
    """The damage after armour of one hit: (((damage, count), ...), denominator), whole counts
    over the DV dice's faces (``spec.expression``, icepool): (DV + ``spec.flat`` + ``bonus``) x
    ``spec.multiplier``, halved (rounded down) by a disarming shot, at least 0, through
    ``spec.armour`` (``spec.ap``, ``ignore`` it) as ``health.through_armour`` says."""
    dv_die = distribution(spec.expression)
    counts: Counter[int] = Counter()
    for dv, q in dv_die.items():
        total_dv = (dv + spec.flat + bonus) * spec.multiplier
        total_dv = max(0, total_dv // 2 if halve else total_dv)
        step = through_armour(total_dv, spec.damage_type, spec.armour, spec.ap, ignore_armour=ignore)
        counts[step.damage] += q
    return tuple(counts.items()), dv_die.denominator()


def _flat_dv(attacker: Combatant, weapon: Weapon, options: AttackOptions,
             params: EclipsePhaseParameters) -> int:
    """The flat DV bonuses of ``attack.dv_modifiers`` known before the roll: a charge's, and
    a melee weapon's SOM bonus (not psi)."""
    flat = params.charge_dv if options.charge else 0
    if weapon.melee and params.melee_damage_bonus_divisor and weapon.damage_type is not DamageType.PSI:
        flat += attacker.character.aptitude(Aptitude.SOM, params) // params.melee_damage_bonus_divisor
    return flat


def _tally(outcomes: tuple[tuple[Outcome, int], ...], options: AttackOptions,
           params: EclipsePhaseParameters) -> tuple[Counter[str], int, Counter[_HitKind]]:
    """The outcomes' counts summed: (counts by kind of result, "fumble", "mishap", "critical",
    "called_effect" and "subdued" included; the count dealing no damage (misses, defences,
    subdue holds); the hits by what their damage depends on)."""
    chance: Counter[str] = Counter()
    no_damage = 0
    hits: Counter[_HitKind] = Counter()
    for outcome, count in outcomes:
        kind = cast(str, outcome[0])
        chance[kind] += count
        if kind == "miss":
            chance["fumble"] += count if outcome[1] else 0
            no_damage += count
            continue
        if kind == "defended":
            chance["mishap"] += count if outcome[1] else 0
            no_damage += count
            continue
        critical, effect, held = bool(outcome[1]), bool(outcome[3]), bool(outcome[4])
        bonus = cast(int, outcome[2])
        chance["critical"] += count if critical else 0
        chance["called_effect"] += count if effect else 0
        chance["subdued"] += count if held else 0
        if options.subdue:
            no_damage += count
            continue
        ignore = ((critical and params.critical_ignores_armour)
                  or (effect and options.called_shot is CalledShot.IGNORE_ARMOUR))
        hits[(bonus, ignore, effect and options.called_shot is CalledShot.DISARM)] += count
    return chance, no_damage, hits


def _damage_counts(spec: _DamageSpec, no_damage: int, hits: Counter[_HitKind]
                   ) -> tuple[Counter[int], int]:
    """The damage after armour over every outcome: (counts by damage, the DV dice's
    denominator), each outcome's count times the DV dice's faces."""
    dv_denominator = distribution(spec.expression).denominator()
    damage_counts: Counter[int] = Counter()
    damage_counts[0] += no_damage * dv_denominator
    for (bonus, ignore, halve), count in hits.items():
        table, n = _damage_table(spec, bonus, halve, ignore)
        for after, q in table:
            damage_counts[after] += count * q * (dv_denominator // n)
    return damage_counts, dv_denominator


def attack_odds(attacker: Combatant, defender: Combatant, weapon: Weapon,
                params: EclipsePhaseParameters, *, options: AttackOptions | None = None,
                defence: DefenceChoice | None = None, extra_d10: int = 0,
                concentrate: bool = False) -> AttackOdds:
    """The exact odds of ``resolve_attack`` with these arguments then ``roll_damage`` (with
    ``extra_d10`` and ``concentrate``) and ``take_hit``. Raises as ``plan_attack``.

    Exact: whole counts over 100 (or 10,000) d100 faces times the DV dice's faces, turned into
    fractions at the end; the outcome and damage tables are memoised on their inputs
    (``clear_tables`` forgets them)."""
    options = options or AttackOptions()
    plan = plan_attack(attacker, defender, weapon, params, options=options, defence=defence)
    never = 10 ** 6
    outcomes, denominator = _outcomes(
        params, plan.attack_target, plan.defence_target,
        params.called_shot_margin if options.called_shot else never,
        defender.character.morph.durability if options.subdue else never)
    spec = _DamageSpec(damage_expression(weapon, extra_d10), _flat_dv(attacker, weapon, options, params),
                       params.beam_concentration_multiplier if concentrate else 1,
                       weapon.damage_type, defender.character.armour(weapon.damage_type.value),
                       weapon.ap)
    chance, no_damage, hits = _tally(outcomes, options, params)
    damage_counts, dv_denominator = _damage_counts(spec, no_damage, hits)
    whole = denominator * dv_denominator
    wt = defender.character.morph.wt(params)
    wound_counts: Counter[int] = Counter()
    for d, c in damage_counts.items():
        wound_counts[wounds_from(d, wt, params)] += c

    def p(kind: str) -> Fraction:
        return Fraction(chance[kind], denominator)

    return AttackOdds(plan, p("miss"), p("fumble"), p("defended"), p("mishap"), p("hit"),
                      p("critical"), p("called_effect"), p("subdued"),
                      {k: Fraction(v, whole) for k, v in sorted(damage_counts.items()) if v},
                      {k: Fraction(v, whole) for k, v in sorted(wound_counts.items()) if v})


@lru_cache(maxsize=1024)
def defence_chance(defence_target: int, params: EclipsePhaseParameters, *,
                   moxie: bool = False) -> Fraction:
    """The chance that a defence test against ``defence_target`` (``attack.Plan.
    defence_target``: the skill and its modifiers) succeeds on its own, a Fraction over the
    100 faces read and graded as ``checks.skill_test`` does (``critical_rule``: criticals
    included); ``moxie``: a failed reading is flipped for a Moxie point when the flip
    succeeds (volley._flip). What the defender knows before the attack is rolled: the
    attacker's skill plays no part (the opposed test then compares the two successes). The
    reaction prompt shows it for each defence offered (docs/rules/eclipse-phase.md,
    "Reaction prompt"). Memoised per input."""
    rule = critical_rule(params)
    wins = 0
    for face in range(1, 101):
        reading = rule.read(face)
        if rule.grade(reading, defence_target).success or (
                moxie and rule.grade(flip(reading), defence_target).success):
            wins += 1
    return Fraction(wins, 100)


def clear_tables() -> None:
    """Forget the memoised tables (the benchmark's cold series; tests)."""
    _outcomes.cache_clear()
    defence_chance.cache_clear()
    _damage_table.cache_clear()
    distribution.cache_clear()
