"""Attacks and criticals. Seed 002, "Attaquer", "Critiques", "Multiplicateurs", "Défensive"."""

from decimal import Decimal

import pytest

from gamerules.homebrew.attack import (AttackKind, Attacker, Weapon, critical_damage,
                                       critical_multiplier, damage_expression, die_sides,
                                       resolve_attack, rolled_sides)
from gamerules.homebrew.errors import InvalidWeapon
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.turn import Posture
from tests.gamerules.fakes import FakeRandom

P = HomebrewParameters()
SWORD = Weapon("Épée", "1d6")
FIREBALL = Weapon("Boule de feu", "1d8", AttackKind.MAGICAL, mp_cost=3)
HERO = Attacker(physique=60, mental=40)
DEFENSIVE_HERO = Attacker(physique=60, mental=40, posture=Posture.DEFENSIVE)


def test_a_physical_attack_tests_physique_and_rolls_the_weapon_die():
    rng = FakeRandom(60, 4)
    result = resolve_attack(HERO, SWORD, rng, P)
    assert (result.characteristic, result.test.target, result.hit) == ("physique", 60, True)
    assert (result.damage_expression, result.damage, result.max_damage) == ("1d6", 4, 6)
    assert result.damage_roll.face_values == [4] and rng.exhausted
    assert not result.ends_turn and result.multiplier is None


def test_a_magical_attack_tests_mental():
    assert resolve_attack(HERO, FIREBALL, FakeRandom(40, 8), P).damage == 8
    miss = resolve_attack(HERO, FIREBALL, FakeRandom(41), P)
    assert (miss.characteristic, miss.hit, miss.damage) == ("mental", False, 0)


def test_a_failure_ends_the_turn_and_rolls_no_damage():
    rng = FakeRandom(61)
    result = resolve_attack(HERO, SWORD, rng, P)
    assert (result.hit, result.ends_turn, result.damage_roll) == (False, True, None)
    assert rng.exhausted


def test_5_is_critical_6_is_not():
    crit = resolve_attack(HERO, SWORD, FakeRandom(5), P)  # no damage die: the maximum is given
    assert (crit.critical_success, crit.damage, crit.multiplier) == (True, 11, Decimal("1.75"))
    normal = resolve_attack(HERO, SWORD, FakeRandom(6, 2), P)
    assert (normal.critical_success, normal.damage) == (False, 2)


def test_95_fails_96_is_a_critical_failure_even_with_a_high_physique():
    strong = Attacker(physique=100, mental=0)
    assert resolve_attack(strong, SWORD, FakeRandom(95, 1), P).hit
    fumble = resolve_attack(strong, SWORD, FakeRandom(96), P)
    assert (fumble.hit, fumble.critical_failure, fumble.ends_turn) == (False, True, True)
    assert not resolve_attack(HERO, SWORD, FakeRandom(95), P).critical_failure


@pytest.mark.parametrize(("die", "multiplier", "damage"), [
    ("1d3", "4", 12), ("1d4", "3", 12), ("1d5", "1.75", 9), ("1d6", "1.75", 11),
    ("1d7", "1.5", 11), ("1d8", "1.5", 12),  # the seed's table; 8.75 and 10.5 round half up
    ("1d2", "6", 12), ("1d9", "1.25", 11), ("1d10", "1.25", 13), ("1d12", "1", 12),
    ("1d20", "1", 20), ("1d100", "1", 100),  # our extension
])
def test_critical_table(die, multiplier, damage):
    sides = die_sides(die)
    assert critical_multiplier(sides, P) == Decimal(multiplier)
    assert critical_damage(sides, Posture.OFFENSIVE, P) == damage


def test_every_die_the_gm_may_use_has_a_multiplier():
    for sides in range(2, 101):
        assert critical_multiplier(sides, P) >= 1


def test_defensive_posture_halves_the_die_rounding_up():
    assert [damage_expression(rolled_sides(s, Posture.DEFENSIVE, P)) for s in (6, 5, 3, 2, 8)] \
        == ["1d3", "1d3", "1d2", "1", "1d4"]
    down = HomebrewParameters(defensive_round_up=False)
    assert [rolled_sides(s, Posture.DEFENSIVE, down) for s in (6, 5, 3, 2)] == [3, 2, 1, 1]
    result = resolve_attack(DEFENSIVE_HERO, SWORD, FakeRandom(30, 3), P)
    assert (result.damage_expression, result.damage, result.max_damage) == ("1d3", 3, 3)


def test_a_halved_1d2_deals_a_flat_1():
    dagger = Weapon("Dague", "1d2")
    rng = FakeRandom(30)
    result = resolve_attack(DEFENSIVE_HERO, dagger, rng, P)
    assert (result.damage_expression, result.damage, result.damage_roll.faces) == ("1", 1, ())


def test_a_defensive_critical_is_the_halved_maximum_times_the_weapons_multiplier():
    crit = resolve_attack(DEFENSIVE_HERO, SWORD, FakeRandom(1), P)
    assert crit.damage == 5  # 3 x 1.75 = 5.25
    assert critical_damage(3, Posture.DEFENSIVE, P) == 8  # 1d3 -> 1d2: 2 x 4


def test_modifiers_reach_the_attack_test():
    result = resolve_attack(HERO, SWORD, FakeRandom(65, 1), P, difficulty_value=10)
    assert result.test.target == 70 and result.hit


@pytest.mark.parametrize("die", ["2d6", "1d6+1", "d", "1d101", "-1d6", "3"])
def test_a_damage_die_is_one_die(die):
    with pytest.raises(InvalidWeapon) as info:
        die_sides(die)
    assert info.value.code == "invalid_weapon"
