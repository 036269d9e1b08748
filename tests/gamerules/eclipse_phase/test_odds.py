"""Exact odds (icepool) against brute force: every pair of d100 faces through resolve_attack,
every face of the DV dice through roll_damage and take_hit."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from gamerules.dice import parse
from gamerules.eclipse_phase.attack import (AttackOptions, CalledShot, Combatant, Defence,
                                            DefenceChoice,
                                            damage_expression, resolve_attack, roll_damage)
from gamerules.eclipse_phase.gear import Armour, DamageType, FiringMode, Weapon
from gamerules.eclipse_phase.health import Health, Incoming, take_hit
from gamerules.eclipse_phase.odds import attack_odds
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from tests.gamerules.eclipse_phase.helpers import KNIFE, PISTOL, SHOOTER, P, character
from tests.gamerules.fakes import FakeRandom

LASER_PISTOL = Weapon("laser pistol", "beam_weapons", "1d10", ap=2, damage_type=DamageType.ENERGY,
                      modes=frozenset({FiringMode.SA}), magazine=20, beam=True,
                      ranges=(10, 30, 50, 100))
ARMOURED = Combatant(character(skills={"fray": 40}, worn=(Armour("vest", 3, 4),)))


def dice_faces(expression):
    sides = [t.sides for t in parse(expression) for _ in range(t.count) if t.count]
    return list(itertools.product(*[range(1, s + 1) for s in sides]))


def brute_force(attacker, defender, weapon, params, options, defence, extra_d10=0,
                concentrate=False):
    counts = Counter()
    outcome = Counter()
    faces = dice_faces(damage_expression(weapon, extra_d10))
    cache = {}
    defends = (defence or DefenceChoice()).kind is not Defence.NONE
    for fa in range(1, 101):
        for fb in (range(1, 101) if defends else [None]):
            rng = FakeRandom(fa) if fb is None else FakeRandom(fa, fb)
            result = resolve_attack(attacker, defender, weapon, rng, params, options=options,
                                    defence=defence)
            w = Fraction(1, 100) if fb is None else Fraction(1, 10000)
            if not result.hit:
                kind = "defended" if result.attack.success else "miss"
                outcome[kind] += w
                outcome["mishap"] += w if result.weapon_mishap else 0
                outcome["fumble"] += w if result.attack.grade == "critical_failure" else 0
                counts[(0, 0)] += w
                continue
            outcome["hit"] += w
            outcome["critical"] += w if result.critical else 0
            outcome["called_effect"] += w if result.called_effect else 0
            outcome["subdued"] += w if result.subdued else 0
            if result.subdue:
                counts[(0, 0)] += w
                continue
            key = (result.dv_bonus, result.ignore_armour, result.called_effect)
            if key not in cache:
                dist = Counter()
                for f in faces:
                    dv = roll_damage(result, attacker.character, FakeRandom(*f), params,
                                     extra_d10=extra_d10, concentrate=concentrate)
                    incoming = Incoming(dv.dv, dv.damage_type, dv.ap,
                                        ignore_armour=dv.ignore_armour)
                    hit = take_hit(defender.character, Health(), incoming, FakeRandom(50), params)
                    dist[(hit.damage, hit.new_wounds)] += Fraction(1, len(faces))
                cache[key] = dist
            for k, p in cache[key].items():
                counts[k] += w * p
    damage, wounds = Counter(), Counter()
    for (d, n), p in counts.items():
        damage[d] += p
        wounds[n] += p
    return outcome, dict(damage), dict(wounds)


@pytest.mark.parametrize(("weapon", "options", "defence", "extra", "concentrate"), [
    (PISTOL, AttackOptions(), DefenceChoice(), 0, False),
    (PISTOL, AttackOptions(), DefenceChoice(Defence.NONE), 1, False),
    (PISTOL, AttackOptions(situations={"aim_complex": 1}), DefenceChoice(full_defence=True), 0,
     False),
    (KNIFE, AttackOptions(charge=True), DefenceChoice(delayed_for_charge=True), 0, False),
    (KNIFE, AttackOptions(), DefenceChoice(), 0, False),
    (PISTOL, AttackOptions(called_shot=CalledShot.IGNORE_ARMOUR), DefenceChoice(Defence.NONE), 0,
     False),
    (PISTOL, AttackOptions(called_shot=CalledShot.DISARM), DefenceChoice(Defence.NONE), 0, False),
    (KNIFE, AttackOptions(subdue=True), DefenceChoice(), 0, False),
    (LASER_PISTOL, AttackOptions(), DefenceChoice(Defence.NONE), 0, True),
])
def test_odds_match_brute_force(weapon, options, defence, extra, concentrate):
    odds = attack_odds(SHOOTER, ARMOURED, weapon, P, options=options, defence=defence,
                       extra_d10=extra, concentrate=concentrate)
    outcome, damage, wounds = brute_force(SHOOTER, ARMOURED, weapon, P, options, defence, extra,
                                          concentrate)
    assert (odds.miss, odds.defended, odds.hit) == (outcome["miss"], outcome["defended"],
                                                    outcome["hit"])
    assert (odds.critical, odds.mishap, odds.fumble) == (outcome["critical"], outcome["mishap"],
                                                         outcome["fumble"])
    assert (odds.called_effect, odds.subdued) == (outcome["called_effect"], outcome["subdued"])
    assert odds.damage == {k: v for k, v in sorted(damage.items()) if v}
    assert odds.wounds == {k: v for k, v in sorted(wounds.items()) if v}
    assert odds.miss + odds.defended + odds.hit == 1 and sum(odds.damage.values()) == 1


def test_odds_follow_the_parameters():
    inclusive = EclipsePhaseParameters(success_inclusive=True, combat_tie_to_defender=False,
                                       wound_inclusive=True)
    odds = attack_odds(SHOOTER, ARMOURED, KNIFE, inclusive)
    outcome, _damage, wounds = brute_force(SHOOTER, ARMOURED, KNIFE, inclusive, AttackOptions(),
                                           DefenceChoice())
    assert odds.hit == outcome["hit"] and odds.wounds == {k: v for k, v in sorted(wounds.items()) if v}
    assert odds.hit > attack_odds(SHOOTER, ARMOURED, KNIFE, P).hit
