"""Every EW1 test carries its grade (gamerules.d100.Grade), decided in the rule, for all 100
faces. Seed 000, "Mécanismes de combat": "1d100 < 5 attaque parfaite"; the dodge is "d100 <
Esquive"; a DEF roll, a cast (seed, "Utilisation de la magie") and a game (Jeu) succeed at or
below their score. EW1 has no critical success but the perfect, and no critical failure."""

import random

import pytest

from gamerules.d100 import Grade
from gamerules.ew1.attacks import BRAWL, Combatant, resolve_attack
from gamerules.ew1.game import resolve_game
from gamerules.ew1.magic import SpellSpec, resolve_cast
from gamerules.ew1.params import EW1Parameters

FACES = range(1, 101)
SKILLS = {"brawl": 40, "dodge": 30}
ATTACKER = Combatant(characteristics={"FOR": 10, "TAI": 10, "DEX": 10, "DEF": 10}, skills=SKILLS,
                     level=0)
DOOR = Combatant(characteristics={"FOR": 0, "TAI": 0, "DEX": 0, "DEF": 0}, skills=SKILLS,
                 level=0, fixed_reduction=0)
DODGER = Combatant(characteristics={"FOR": 10, "TAI": 10, "DEX": 10, "DEF": 30}, skills=SKILLS,
                   level=0, luck=0)


class Then:
    """The first face given, then ``rest`` for every later die (faces within the die)."""

    def __init__(self, first: int, rest: int = 1):
        self.first, self.rest = [first], rest

    def randint(self, a: int, b: int) -> int:
        return self.first.pop() if self.first else min(max(self.rest, a), b)


@pytest.mark.parametrize("perfect_below", [5, 1, 20])
def test_the_attack_roll_is_perfect_strictly_below_the_threshold_then_success_then_failure(
        perfect_below):
    params = EW1Parameters(perfect_below=perfect_below)
    for face in FACES:
        outcome = resolve_attack(BRAWL, ATTACKER, DOOR, Then(face), params)
        attack = outcome.rolls[0]
        expected = (Grade.FAILURE if face > 40 else
                    Grade.PERFECT if face < perfect_below else Grade.SUCCESS)
        assert (attack.label, attack.grade, attack.success) == ("attack", expected,
                                                                expected.success), face
        assert (outcome.hit, outcome.perfect) == (expected.success, expected is Grade.PERFECT)
        assert all(r.grade is None for r in outcome.rolls[1:]), face  # damage rolls


def test_the_dodge_and_def_rolls_are_graded_strictly_below_and_at_or_below():
    params = EW1Parameters()
    for face in FACES:
        dodge = resolve_attack(BRAWL, ATTACKER, DODGER, Then(10, face), params).rolls[1]
        assert (dodge.label, dodge.grade) == (
            "dodge", Grade.SUCCESS if face < 30 else Grade.FAILURE), face
    # Then(10, 99): a hit, no dodge (99), damage dice at their highest face, DEF rolls of 99.
    high = resolve_attack(BRAWL, ATTACKER, DODGER, Then(10, 99), params).rolls
    assert {r.grade for r in high if r.label == "damage_reduction"} == {Grade.FAILURE}
    low = resolve_attack(BRAWL, ATTACKER, DODGER, Then(10, 30), params).rolls
    assert low[1].grade is Grade.FAILURE  # 30 is not below the dodge score of 30
    assert {r.grade for r in low if r.label == "damage_reduction"} == {Grade.SUCCESS}  # 30 <= 30


def test_a_cast_and_a_game_are_success_at_or_below_their_score_never_critical():
    spell = SpellSpec("Boule de feu", "damage", "1d6+1", 5)
    for face in FACES:
        expected = Grade.SUCCESS if face <= 37 else Grade.FAILURE
        cast = resolve_cast(spell, magic_skill=37, level=0, rng=Then(face))
        game = resolve_game(game_skill=37, rng=Then(face))
        assert (cast.grade, cast.success) == (expected, expected.success), face
        assert (game.grade, game.won) == (expected, expected.success), face


def test_seeded_outcomes_agree_with_their_grades():
    rng = random.Random(10)
    for _ in range(200):
        outcome = resolve_attack(BRAWL, ATTACKER, DODGER, rng, EW1Parameters())
        for r in outcome.rolls:
            assert (r.target is None) is (r.grade is None), r.label
        assert outcome.rolls[0].grade.success is outcome.hit
