"""Exact odds (icepool) against brute force over every face of every die."""

from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from gamerules.homebrew.attack import AttackKind, Attacker, Weapon, resolve_attack
from gamerules.homebrew.errors import ReactionRefused
from gamerules.homebrew.odds import attack_odds, odds_by_reaction
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reaction, Reactor, resolve_reaction
from gamerules.homebrew.turn import Posture
from tests.gamerules.fakes import FakeRandom

P = HomebrewParameters()
SWORD = Weapon("Épée", "1d6")
SPELL = Weapon("Éclair", "1d5", AttackKind.MAGICAL)


def brute_force(physique, weapon, posture, reaction, reactor):
    """The damage distribution by playing every face of the d100, the damage die, the d6."""
    counts: Counter = Counter()
    attacker = Attacker(physique=physique, mental=physique, posture=posture)
    top = resolve_attack(attacker, weapon, FakeRandom(50, 1), P).max_damage
    damage_faces = range(1, top + 1) if top >= 2 else [None]
    sub_faces = range(1, 7) if reaction is not Reaction.NONE else [None]
    weight = Fraction(1, 100)
    for face in range(1, 101):
        attack = resolve_attack(attacker, weapon, FakeRandom(face), P) if face > physique \
            or face <= 5 or face >= 96 else None
        cases = []
        if attack is not None:
            cases = [(attack, Fraction(1))]
        else:
            for d in damage_faces:
                rng = FakeRandom(face) if d is None else FakeRandom(face, d)
                cases.append((resolve_attack(attacker, weapon, rng, P),
                              Fraction(1, len(damage_faces))))
        for result, w in cases:
            if not result.hit or reaction is Reaction.NONE:
                counts[result.damage] += weight * w
                continue
            for s in sub_faces:
                out = resolve_reaction(result, reaction, reactor, FakeRandom(s), P)
                counts[out.damage] += weight * w * Fraction(1, 6)
    return {k: v for k, v in counts.items() if v}


GUARD = Reactor(force=3, dexterite=4, posture=Posture.DEFENSIVE)


@pytest.mark.parametrize("reaction", list(Reaction))
@pytest.mark.parametrize("posture", list(Posture))
@pytest.mark.parametrize("physique", [3, 60, 100])
def test_damage_distribution_matches_brute_force(reaction, posture, physique):
    odds = attack_odds(target=physique, weapon=SWORD, params=P, attacker_posture=posture,
                       reaction=reaction, reactor=GUARD)
    assert odds.damage == brute_force(physique, SWORD, posture, reaction, GUARD)
    assert sum(odds.damage.values()) == 1


def test_a_halved_1d2_and_a_dodged_spell_match_brute_force():
    dagger = Weapon("Dague", "1d2")
    odds = attack_odds(target=50, weapon=dagger, params=P, attacker_posture=Posture.DEFENSIVE)
    assert odds.damage == brute_force(50, dagger, Posture.DEFENSIVE, Reaction.NONE, GUARD)
    odds = attack_odds(target=50, weapon=SPELL, params=P, reaction=Reaction.DODGE, reactor=GUARD)
    assert odds.damage == brute_force(50, SPELL, Posture.OFFENSIVE, Reaction.DODGE, GUARD)


def test_chances_to_hit_and_crit_and_the_damage_range():
    odds = attack_odds(target=60, weapon=SWORD, params=P)
    assert (odds.hit, odds.critical_success, odds.critical_failure) == (
        Fraction(60, 100), Fraction(5, 100), Fraction(5, 100))
    assert (odds.hit_damage, odds.critical_damage) == ((1, 11), 11)
    assert odds.mean_damage == Fraction(55, 100) * Fraction(7, 2) + Fraction(5, 100) * 11
    assert odds.damages == Fraction(60, 100)
    parried = attack_odds(target=60, weapon=SWORD, params=P, reaction=Reaction.PARRY,
                          reactor=GUARD)
    assert parried.hit_damage == (0, 11) and parried.reaction_success == Fraction(1, 2)


def test_the_odds_offer_only_the_allowed_reactions():
    assert set(odds_by_reaction(target=60, weapon=SWORD, params=P, reactor=GUARD)) == set(Reaction)
    assert set(odds_by_reaction(target=60, weapon=SPELL, params=P, reactor=GUARD)) == {
        Reaction.NONE, Reaction.DODGE}
    offensive = Reactor(force=3, dexterite=4)
    assert set(odds_by_reaction(target=60, weapon=SWORD, params=P, reactor=offensive)) == {
        Reaction.NONE}
    with pytest.raises(ReactionRefused):
        attack_odds(target=60, weapon=SPELL, params=P, reaction=Reaction.PARRY, reactor=GUARD)


def test_the_same_odds_are_computed_once_and_a_refusal_never_kept():
    from gamerules.homebrew import odds as module

    module._attack_odds.cache_clear()
    first = attack_odds(target=61, weapon=SWORD, params=P, reaction=Reaction.PARRY, reactor=GUARD)
    renamed = Weapon("Another name", SWORD.die, SWORD.kind)
    again = attack_odds(target=61, weapon=renamed, params=P, reaction=Reaction.PARRY,
                        reactor=GUARD)
    assert again is first and module._attack_odds.cache_info().hits == 1
    other = attack_odds(target=61, weapon=SWORD, params=HomebrewParameters(crit_multiplier_d5_d6=Decimal(3)),
                        reaction=Reaction.PARRY, reactor=GUARD)
    assert other is not first  # the campaign's parameters are part of the key
    for _ in range(2):
        with pytest.raises(ReactionRefused):
            attack_odds(target=61, weapon=SPELL, params=P, reaction=Reaction.PARRY,
                        reactor=GUARD)
