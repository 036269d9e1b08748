"""gamerules.ew1.game and gamerules.ew1.healing.

Seed, "Répartition des gains d'XP par action": "Jeu (victoire) : 1 PA = 2D4 XP"; "Compétences de
base": Jeu INT+DEX+LUK|95. Seed, "Le Soins" and "Distribution des dégâts reçue": healing by
items, and a character at 0 PV may still be healed.
"""

import random

from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1.game import resolve_game
from gamerules.ew1.healing import resolve_heal
from tests.gamerules.fakes import FakeRandom


def play(skill, *faces):
    rng = FakeRandom(*faces)
    outcome = resolve_game(game_skill=skill, rng=rng)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return outcome, rng


def heal(dice, pv, pv_max, *faces):
    rng = FakeRandom(*faces)
    outcome = resolve_heal(dice=dice, pv=pv, pv_max=pv_max, rng=rng)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return outcome


# --- game (Jeu) ---------------------------------------------------------------------------------

def test_a_game_roll_equal_to_the_skill_wins_2d4_xp():
    outcome, rng = play(33, 33, 3, 4)
    assert outcome.won
    assert outcome.xp == 3 + 4
    assert rng.calls == [(1, 100), (1, 4), (1, 4)]


def test_a_game_roll_one_above_the_skill_loses_with_no_xp_and_no_second_roll():
    outcome, rng = play(33, 34)
    assert not outcome.won
    assert (outcome.xp, outcome.xp_roll) == (0, None)
    assert rng.calls == [(1, 100)]


def test_the_game_outcome_keeps_its_rolls():
    outcome, _ = play(50, 12, 1, 2)
    assert (outcome.score, outcome.test.total) == (50, 12)
    assert outcome.xp_roll.face_values == [1, 2]


@given(seed=st.integers(), skill=st.integers(min_value=0, max_value=95))
def test_game_xp_is_2_to_8_on_a_win_and_0_on_a_loss(seed, skill):
    outcome = resolve_game(game_skill=skill, rng=random.Random(seed))
    assert outcome.won == (outcome.test.total <= skill)
    if outcome.won:
        assert 2 <= outcome.xp <= 8
    else:
        assert outcome.xp == 0


# --- healing ------------------------------------------------------------------------------------

def test_healing_adds_the_dice_total():
    outcome = heal("1d6+1", 50, 100, 4)
    assert (outcome.pv_after, outcome.healed) == (55, 5)


def test_healing_is_capped_at_max_pv():
    outcome = heal("1d6+1", 95, 100, 6)
    assert (outcome.pv_after, outcome.healed) == (100, 5)


def test_a_character_at_0_pv_can_be_healed():
    assert heal("1d6+1", 0, 100, 2).pv_after == 3


def test_healing_never_lowers_pv_above_the_maximum():
    outcome = heal("1d6+1", 120, 100, 6)  # a game master set PV above the maximum
    assert (outcome.pv_after, outcome.healed) == (120, 0)


def test_a_negative_dice_total_heals_0():
    outcome = heal("1d4-5", 40, 100, 1)
    assert outcome.roll.total == -4
    assert (outcome.pv_after, outcome.healed) == (40, 0)


@given(seed=st.integers(), pv=st.integers(min_value=0, max_value=400),
       pv_max=st.integers(min_value=1, max_value=300))
def test_healing_never_lowers_pv_and_never_passes_the_maximum_it_starts_below(seed, pv, pv_max):
    outcome = resolve_heal(dice="2d6+2", pv=pv, pv_max=pv_max, rng=random.Random(seed))
    assert outcome.pv_after >= pv
    assert outcome.pv_after <= max(pv, pv_max)
    assert outcome.healed <= outcome.roll.total
