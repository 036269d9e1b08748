"""Parry and dodge. Seed 002, "Parade", "Esquive", "Offensive", "Défensive", "Surprise"."""

import pytest

from gamerules.homebrew.attack import AttackKind, Attacker, Weapon, resolve_attack
from gamerules.homebrew.errors import ReactionRefused
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import (Reaction, Reactor, RoundDodges, available_reactions,
                                          resolve_reaction)
from gamerules.homebrew.turn import Posture
from tests.gamerules.fakes import FakeRandom

P = HomebrewParameters()
SWORD = Weapon("Épée", "1d6")
SPELL = Weapon("Éclair", "1d8", AttackKind.MAGICAL, mp_cost=2)
ORC = Attacker(physique=60, mental=60)
GUARD = Reactor(force=4, dexterite=3, posture=Posture.DEFENSIVE)


def hit(weapon=SWORD, face=30, damage=5):
    return resolve_attack(ORC, weapon, FakeRandom(face, damage), P)


def refused(code, *args, **kwargs):
    with pytest.raises(ReactionRefused) as info:
        resolve_reaction(*args, **kwargs)
    assert info.value.code == code


def test_parry_success_blocks_the_tests_result():
    outcome = resolve_reaction(hit(damage=5), Reaction.PARRY, GUARD, FakeRandom(3), P)
    assert (outcome.success, outcome.blocked, outcome.damage) == (True, 3, 2)
    assert outcome.test.roll.expression == "1d6"


def test_parry_never_blocks_more_than_the_damage():
    outcome = resolve_reaction(hit(damage=2), Reaction.PARRY, GUARD, FakeRandom(4), P)
    assert (outcome.blocked, outcome.damage) == (2, 0)


def test_failed_parry_takes_the_damage_normally():
    outcome = resolve_reaction(hit(damage=5), Reaction.PARRY, GUARD, FakeRandom(5), P)
    assert (outcome.success, outcome.blocked, outcome.damage, outcome.dodge_lost) == (
        False, 0, 5, False)


def test_a_parry_against_magic_is_refused():
    refused("parry_against_magic", hit(SPELL), Reaction.PARRY, GUARD, FakeRandom(), P)
    assert available_reactions(hit(SPELL), GUARD) == (Reaction.NONE, Reaction.DODGE)


def test_parry_for_a_nearby_ally():
    outcome = resolve_reaction(hit(damage=6), Reaction.PARRY, GUARD, FakeRandom(4), P,
                               for_ally=True)
    assert (outcome.for_ally, outcome.damage) == (True, 2)
    refused("dodge_for_ally", hit(), Reaction.DODGE, GUARD, FakeRandom(), P, for_ally=True)
    assert available_reactions(hit(), GUARD, for_ally=True) == (Reaction.NONE, Reaction.PARRY)


def test_dodge_success_cancels_the_attack():
    outcome = resolve_reaction(hit(SPELL, damage=7), Reaction.DODGE, GUARD, FakeRandom(3), P)
    assert (outcome.success, outcome.damage, outcome.dodge_lost) == (True, 0, False)


def test_failed_dodge_takes_the_maximum_and_loses_dodging():
    outcome = resolve_reaction(hit(damage=2), Reaction.DODGE, GUARD, FakeRandom(4), P)
    assert (outcome.success, outcome.damage_before, outcome.damage, outcome.dodge_lost) == (
        False, 2, 6, True)


def test_failed_dodge_against_a_critical_keeps_the_critical_damage():
    crit = resolve_attack(ORC, SWORD, FakeRandom(2), P)
    assert resolve_reaction(crit, Reaction.DODGE, GUARD, FakeRandom(6), P).damage == 11


def test_the_second_dodge_in_a_round_is_refused_after_a_failure():
    dodges = RoundDodges(round=3)
    first = resolve_reaction(hit(), Reaction.DODGE, GUARD, FakeRandom(5), P)
    if first.dodge_lost:
        dodges = dodges.lose("mira")
    again = Reactor(4, 3, Posture.DEFENSIVE, can_dodge=dodges.can_dodge("mira"))
    refused("no_more_dodges", hit(), Reaction.DODGE, again, FakeRandom(), P)
    assert resolve_reaction(hit(damage=5), Reaction.PARRY, again, FakeRandom(1), P).damage == 4
    assert dodges.can_dodge("oro")
    assert dodges.next_round().can_dodge("mira") and dodges.next_round().round == 4


def test_a_successful_dodge_keeps_dodging():
    first = resolve_reaction(hit(), Reaction.DODGE, GUARD, FakeRandom(1), P)
    assert not first.dodge_lost


def test_offensive_posture_allows_no_reaction():
    brute = Reactor(force=6, dexterite=6)
    refused("needs_defensive_posture", hit(), Reaction.PARRY, brute, FakeRandom(), P)
    refused("needs_defensive_posture", hit(), Reaction.DODGE, brute, FakeRandom(), P)
    assert available_reactions(hit(), brute) == (Reaction.NONE,)
    assert resolve_reaction(hit(damage=4), Reaction.NONE, brute, FakeRandom(), P).damage == 4


def test_surprised_and_missed_attacks_allow_no_reaction():
    surprised = Reactor(4, 3, Posture.DEFENSIVE, surprised=True)
    refused("surprised", hit(), Reaction.DODGE, surprised, FakeRandom(), P)
    miss = resolve_attack(ORC, SWORD, FakeRandom(80), P)
    refused("attack_missed", miss, Reaction.PARRY, GUARD, FakeRandom(), P)


def test_sub_of_0_never_parries_and_6_always_dodges():
    weak = Reactor(force=0, dexterite=6, posture=Posture.DEFENSIVE)
    for face in range(1, 7):
        assert not resolve_reaction(hit(), Reaction.PARRY, weak, FakeRandom(face), P).success
        assert resolve_reaction(hit(), Reaction.DODGE, weak, FakeRandom(face), P).damage == 0
