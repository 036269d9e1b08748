"""A homebrew attack from its order to the state after, in memory (gamerules.homebrew.action and
its schema, gamerules.homebrew.orders): worked examples with scripted dice, the boundaries
(a critical at 5 and not 6, HP exactly 0 and exactly -max, a spell paid in HP, the dodge lost
for the round), invariants over seeded random dice, and the payload's JSON both ways."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from gamerules.homebrew.action import (AttackOrder, Fighter, ReactionChoice, answer_attack,
                                       declare_attack, lacks_resource)
from gamerules.homebrew.attack import AttackKind, Weapon
from gamerules.homebrew.errors import InvalidWeapon, ReactionRefused
from gamerules.homebrew.health import HealthState
from gamerules.homebrew.orders import (PAYLOAD_VERSION, PendingAttack, pending_from_json,
                                       pending_to_json)
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reaction
from gamerules.homebrew.turn import Posture
from tests.gamerules.fakes import FakeRandom

P = HomebrewParameters()
SWORD = Weapon("Sword", "1d6")
BOLT = Weapon("Bolt", "1d8", AttackKind.MAGICAL, mp_cost=3)
GUN = Weapon("Gun", "1d8", AttackKind.PHYSICAL, mp_cost=1)
ARIA = Fighter(id=1, physique=60, mental=60, force=3, dexterite=3, hp=20, hp_max=20, mp=10)
GOBLIN = Fighter(id=2, physique=50, mental=20, force=2, dexterite=3, hp=8, hp_max=8, mp=0,
                 enemy=True)
GUARD = Fighter(id=3, physique=50, mental=50, force=5, dexterite=3, hp=20, hp_max=20, mp=0,
                posture=Posture.DEFENSIVE)


def order(weapon=SWORD, **kw) -> AttackOrder:
    return AttackOrder(actor=ARIA.id, target=GOBLIN.id, weapon=weapon, **kw)


def declare(*faces, weapon=SWORD, target=GOBLIN, allies=(), attacker=ARIA, **kw):
    return declare_attack(order(weapon, **kw), attacker, target, allies=allies,
                          rng=FakeRandom(*faces), params=P)


def test_a_hit_rolls_the_die_and_offers_no_reaction_to_an_offensive_target():
    d = declare(40, 4)
    r = d.result
    assert (r.hit, r.test.roll.total, r.test.target, r.damage, r.max_damage) == (
        True, 40, 60, 4, 6)
    assert d.reactions == ("none",) and d.options == ["none"]
    assert dict(d.refused) == {"parry": "needs_defensive_posture",
                               "dodge": "needs_defensive_posture"}
    assert d.attacker == ARIA and d.cost is None


@pytest.mark.parametrize("face,damage,multiplier", [(5, 11, "1.75"), (6, 2, None)])
def test_5_is_a_critical_of_the_maximum_times_the_multiplier_and_6_is_not(face, damage,
                                                                         multiplier):
    d = declare(face, 2)
    assert d.result.damage == damage
    assert (str(d.result.multiplier) if d.result.multiplier else None) == multiplier


def test_a_defensive_attacker_halves_its_die_and_a_miss_offers_nothing():
    d = declare(30, 3, posture=Posture.DEFENSIVE)
    assert (d.posture, d.result.damage_expression, d.result.max_damage) == (
        Posture.DEFENSIVE, "1d3", 3)
    miss = declare(61, target=replace(GOBLIN, posture=Posture.DEFENSIVE))
    assert not miss.result.hit and miss.reactions == ("none",)
    assert dict(miss.refused) == {"parry": "attack_missed", "dodge": "attack_missed"}


def test_a_defensive_target_may_parry_and_dodge_and_allies_parry_a_physical_hit_only():
    target = replace(GOBLIN, posture=Posture.DEFENSIVE)
    down = replace(GUARD, id=4, health=HealthState.UNCONSCIOUS)
    d = declare(10, 4, target=target, allies=[GUARD, down, replace(GUARD, id=ARIA.id)],
                round_key="r1")
    assert d.reactions == ("none", "parry", "dodge") and d.protectors == (GUARD.id,)
    assert d.options == ["none", "parry", "dodge", "parry:3"]
    magic = declare(10, 4, weapon=BOLT, target=target, allies=[GUARD])
    assert magic.reactions == ("none", "dodge") and magic.protectors == ()
    assert dict(magic.refused) == {"parry": "parry_against_magic"}


def test_a_target_down_or_surprised_is_offered_no_reaction():
    down = replace(GOBLIN, posture=Posture.DEFENSIVE, health=HealthState.UNCONSCIOUS)
    assert dict(declare(10, 4, target=down).refused) == {"parry": "target_down",
                                                         "dodge": "target_down"}
    surprised = declare(10, 4, target=replace(GOBLIN, posture=Posture.DEFENSIVE),
                        target_surprised=True)
    assert surprised.reactions == ("none",) and dict(surprised.refused)["dodge"] == "surprised"


def test_a_spell_spends_its_mp_then_hp_and_the_gauge_weapon_never_hp():
    d = declare(80, weapon=BOLT)
    assert (d.attacker.mp, d.cost.mp_spent, d.cost.hp_spent) == (7, 3, 0)
    broke = declare(20, 8, weapon=BOLT, attacker=replace(ARIA, mp=1, hp=2))
    assert (broke.attacker.mp, broke.attacker.hp, broke.attacker.health) == (
        0, 0, HealthState.UNCONSCIOUS)
    assert broke.cost.as_record("unconscious") == {"cost": 3, "mp_spent": 1, "hp_spent": 2,
                                                   "health": "unconscious"}
    assert declare(80, weapon=GUN).attacker.mp == 9
    assert lacks_resource(GUN, 0) and not lacks_resource(GUN, 1) and not lacks_resource(BOLT, 0)


def test_a_bad_die_is_refused_before_anything_is_paid():
    with pytest.raises(InvalidWeapon):
        declare(10, weapon=Weapon("Odd", "2d6", AttackKind.MAGICAL, mp_cost=3))


def _answer(declaration, choice, *faces, target, reactor=None, round_key="r1"):
    return answer_attack(declaration.result, choice, target, reactor or target,
                         rng=FakeRandom(*faces), params=P, round_key=round_key)


def test_a_parry_blocks_the_force_tests_result_and_an_allys_parry_protects_the_target():
    target = replace(ARIA, posture=Posture.DEFENSIVE)
    d = declare_attack(AttackOrder(GOBLIN.id, ARIA.id, Weapon("Claws", "1d4")), GOBLIN, target,
                       allies=[GUARD], rng=FakeRandom(10, 4), params=P)
    own = _answer(d, ReactionChoice(Reaction.PARRY), 3, target=target)
    assert (own.outcome.blocked, own.damage, own.target.hp, own.for_ally) == (3, 1, 19, False)
    ally = _answer(d, ReactionChoice(Reaction.PARRY, GUARD.id), 5, target=target,
                   reactor=GUARD)
    assert (ally.outcome.blocked, ally.target.hp, ally.reactor, ally.for_ally) == (
        4, 20, GUARD, True)
    failed = _answer(d, ReactionChoice(Reaction.PARRY), 4, target=target)
    assert (failed.outcome.success, failed.target.hp) == (False, 16)


def test_a_failed_dodge_takes_the_maximum_and_loses_dodging_for_the_round():
    target = replace(ARIA, posture=Posture.DEFENSIVE)
    d = declare_attack(AttackOrder(GOBLIN.id, ARIA.id, Weapon("Claws", "1d4")), GOBLIN, target,
                       allies=[], rng=FakeRandom(10, 1), params=P)
    r = _answer(d, ReactionChoice(Reaction.DODGE), 4, target=target)
    assert (r.damage, r.target.hp, r.target.dodge_lost_round) == (4, 16, "r1")
    assert not r.target.can_dodge("r1") and r.target.can_dodge("r2")
    with pytest.raises(ReactionRefused) as exc:
        _answer(d, ReactionChoice(Reaction.DODGE), 1, target=r.target)
    assert exc.value.code == "no_more_dodges"
    ok = _answer(d, ReactionChoice(Reaction.DODGE), 3, target=target)
    assert (ok.damage, ok.target.hp, ok.target.dodge_lost_round) == (0, 20, "")


@pytest.mark.parametrize("hp,health,injury", [(4, HealthState.STANDING, False),
                                              (3, HealthState.UNCONSCIOUS, False),
                                              (-16, HealthState.UNCONSCIOUS, False),
                                              (-17, HealthState.UNCONSCIOUS, True)])
def test_hp_exactly_0_is_unconscious_and_exactly_minus_max_a_permanent_injury(hp, health,
                                                                               injury):
    target = replace(ARIA, hp=hp, health=HealthState.STANDING if hp > 0 else
                     HealthState.UNCONSCIOUS)
    d = declare_attack(AttackOrder(GOBLIN.id, ARIA.id, Weapon("Claws", "1d4")), GOBLIN, target,
                       allies=[], rng=FakeRandom(10, 3), params=P)
    r = _answer(d, ReactionChoice(), target=target)
    assert (r.target.hp, r.target.health, r.permanent_injury) == (hp - 3, health, injury)


def test_an_enemy_dies_at_0_unless_spared_and_the_dead_stay_dead():
    d = declare(10, 6)
    assert _answer(d, ReactionChoice(), target=replace(GOBLIN, hp=6)).target.health \
        is HealthState.DEAD
    spared = _answer(d, ReactionChoice(), target=replace(GOBLIN, hp=6, spared=True))
    assert spared.target.health is HealthState.UNCONSCIOUS
    dead = replace(GOBLIN, hp=-3, health=HealthState.DEAD)
    assert _answer(d, ReactionChoice(), target=dead).target.health is HealthState.DEAD


@pytest.mark.parametrize("seed", range(200))
def test_with_any_dice_the_target_loses_at_most_the_critical_and_hp_add_up(seed):
    rng = random.Random(seed)
    target = replace(GOBLIN, posture=rng.choice(list(Posture)), hp=rng.randint(1, 8),
                     spared=rng.random() < 0.5)
    d = declare_attack(order(posture=rng.choice(list(Posture))), ARIA, target, allies=[GUARD],
                       rng=rng, params=P)
    choice = ReactionChoice(Reaction(rng.choice(d.reactions)))
    r = answer_attack(d.result, choice, target, target, rng=rng, params=P, round_key="r")
    assert 0 <= r.damage <= 11  # the 1d6's critical: 6 x 1.75
    assert r.target.hp == target.hp - r.damage
    assert r.damage == 0 or d.result.hit
    assert (r.target.health is HealthState.STANDING) == (r.target.hp > 0)
    if r.target.hp <= 0:  # an enemy dies at 0 unless spared
        assert r.target.health is (HealthState.UNCONSCIOUS if target.spared else HealthState.DEAD)


def test_the_pending_attack_goes_to_json_and_back():
    d = declare(5, target=replace(GOBLIN, posture=Posture.DEFENSIVE), round_key="e:1:round:2")
    pending = PendingAttack(attack=7, description="A cut", refused=d.refused, actor=ARIA.id,
                            target=GOBLIN.id, round_key="e:1:round:2", result=d.result,
                            reactions=d.reactions, protectors=(3,))
    data = json.loads(json.dumps(pending_to_json(pending)))
    assert data["v"] == PAYLOAD_VERSION and (data["grade"], data["damage"]) == (
        "critical_success", 11)
    assert "actor" not in data["order"] and "target" not in data["order"]  # names no one
    back = pending_from_json(data, actor=ARIA.id, target=GOBLIN.id,
                             options=["none", "parry", "dodge", "parry:3"])
    assert back == pending


def test_a_version_1_payload_is_still_read_and_an_unknown_version_refused():
    v1 = {"attack": 9, "weapon": "Sword", "die": "1d6", "kind": "physical", "damage": 4,
          "grade": "success", "description": "", "refused": {"parry": "target_down"}}
    back = pending_from_json(v1, actor=1, target=2)
    assert (back.attack, back.complete, back.refused) == (9, False, (("parry", "target_down"),))
    with pytest.raises(ValueError):
        pending_from_json({**v1, "v": 99})
