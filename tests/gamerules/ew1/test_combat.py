"""gamerules.ew1.combat: base damage table and the brawl attack, with scripted dice.

Every brawl below uses a FakeRandom that hands out queued faces in order:
attack d100, dodge d100 (defenders with luck), base damage dice (if any), 1d4,
1d3 (perfect attacks), then one d100 per damage-reduction roll (3 at level 1).
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules import dice
from gamerules.ew1.combat import Combatant, Modifier, base_damage_dice, resolve_brawl
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import damage_reduction_rolls
from tests.gamerules.fakes import FakeRandom

P = EW1Parameters()
MISS_ALL_DEF = [100, 100, 100]  # three damage-reduction rolls above any DEF below 100
NO_DODGE = 99


def fighter(*, FOR=10, TAI=10, DEF=10, brawl=90, dodge=10, luck=10, level=1, armour=0):
    """FOR+TAI 20 has no base damage dice; luck 10 adds 10 // 5 = 2 to the dodge score."""
    return Combatant(
        characteristics={"FOR": FOR, "TAI": TAI, "DEF": DEF, "INT": 10, "DEX": 10, "LUK": luck or 0},
        skills={"brawl": brawl, "dodge": dodge}, level=level, luck=luck, armour=armour,
    )


def brawl(*faces, attacker=None, defender=None, params=P, **kwargs):
    rng = FakeRandom(*faces)
    outcome = resolve_brawl(attacker or fighter(), defender or fighter(), rng, params, **kwargs)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return outcome


def labels(outcome):
    return [r.label for r in outcome.rolls]


# --- base damage table ("Dégâts de base") -----------------------------------------------------

@pytest.mark.parametrize(("for_plus_tai", "dice_expr"), [
    (2, "-1d6"), (12, "-1d6"),
    (13, "-1d4"), (16, "-1d4"),
    (17, None), (24, None),
    (25, "+1d4"), (32, "+1d4"),
    (33, "+1d6"), (40, "+1d6"),
    (41, "+2d6"), (56, "+2d6"),
    (57, "+2d6+2"), (64, "+2d6+2"),
    (65, "+2d6+3"), (72, "+2d6+3"),
    (73, "+2d6+4"), (80, "+2d6+4"),
])
def test_base_damage_at_each_seed_boundary(for_plus_tai, dice_expr):
    assert base_damage_dice(for_plus_tai) == dice_expr


@pytest.mark.parametrize("for_plus_tai", [81, 100, 1000])
def test_base_damage_beyond_80_uses_the_last_row(for_plus_tai):
    assert base_damage_dice(for_plus_tai) == "+2d6+4"


def test_base_damage_below_2_uses_the_first_row():
    assert base_damage_dice(1) == "-1d6"


def test_every_base_damage_entry_is_valid_dice_notation():
    for total in range(2, 81):
        expr = base_damage_dice(total)
        if expr is not None:
            assert dice.validate(expr) == expr


# --- attack roll --------------------------------------------------------------------------

def test_attack_roll_equal_to_the_skill_hits():
    outcome = brawl(90, NO_DODGE, 3, *MISS_ALL_DEF)
    assert outcome.hit
    assert (outcome.attack_score, outcome.attack_roll) == (90, 90)


def test_attack_roll_one_above_the_skill_misses():
    outcome = brawl(91)  # no dodge, damage or reduction roll is consumed
    assert not outcome.hit
    assert labels(outcome) == ["attack"]


def test_a_miss_gives_the_attacker_miss_xp_and_nothing_else():
    outcome = brawl(91)
    assert outcome.attacker_xp == P.miss_xp == 1
    assert (outcome.defender_xp, outcome.damage, outcome.reduction, outcome.pv_lost) == (0, 0, 0, 0)
    assert outcome.dodge_score is None
    assert not outcome.dodged


def test_a_hit_gives_the_attacker_hit_xp():
    assert brawl(50, NO_DODGE, 1, *MISS_ALL_DEF).attacker_xp == P.hit_xp == 5


def test_attack_modifiers_change_the_score():
    penalty = (Modifier("allies_nearby", -10),)
    assert not brawl(81, attack_modifiers=penalty).hit
    outcome = brawl(80, NO_DODGE, 1, *MISS_ALL_DEF, attack_modifiers=penalty)
    assert outcome.hit and outcome.attack_score == 80
    assert outcome.rolls[0].modifiers == penalty


def test_roll_4_is_a_perfect_attack():
    outcome = brawl(4, NO_DODGE, 2, 3, *MISS_ALL_DEF)
    assert outcome.perfect
    assert outcome.damage == 2 + 3  # 1d4 + 1d3


def test_a_perfect_attack_gives_7_xp():
    outcome = brawl(4, NO_DODGE, 2, 3, *MISS_ALL_DEF)
    assert outcome.attacker_xp == P.hit_xp + P.perfect_bonus_xp == 7


def test_roll_5_is_not_perfect():
    outcome = brawl(5, NO_DODGE, 2, *MISS_ALL_DEF)  # no 1d3 consumed
    assert outcome.hit and not outcome.perfect
    assert outcome.attacker_xp == 5
    assert "perfect_damage" not in labels(outcome)


def test_perfect_threshold_is_a_parameter():
    params = EW1Parameters.from_overrides({"perfect_below": 6})
    assert brawl(5, NO_DODGE, 2, 1, *MISS_ALL_DEF, params=params).perfect


def test_a_roll_below_5_above_a_tiny_skill_misses_and_is_not_perfect():
    outcome = brawl(4, attacker=fighter(brawl=3))
    assert not outcome.hit and not outcome.perfect


# --- dodge ------------------------------------------------------------------------------------

def test_dodge_score_is_dodge_skill_plus_luck_divided_by_5():
    outcome = brawl(50, NO_DODGE, 1, *MISS_ALL_DEF, defender=fighter(dodge=10, luck=10))
    assert outcome.dodge_score == 10 + 10 // 5


@pytest.mark.parametrize(("luck", "bonus"), [(4, 0), (5, 1), (14, 2), (15, 3), (18, 3)])
def test_luck_bonus_to_dodge_is_rounded_down(luck, bonus):
    outcome = brawl(50, NO_DODGE, 1, *MISS_ALL_DEF, defender=fighter(dodge=10, luck=luck))
    assert outcome.dodge_score == 10 + bonus


def test_dodge_roll_below_the_dodge_score_dodges():
    outcome = brawl(50, 11)  # dodge score 12; no damage or reduction roll is consumed
    assert outcome.dodged
    assert (outcome.damage, outcome.reduction, outcome.pv_lost) == (0, 0, 0)


def test_dodge_roll_equal_to_the_dodge_score_does_not_dodge():
    outcome = brawl(50, 12, 1, *MISS_ALL_DEF)
    assert not outcome.dodged
    assert outcome.damage == 1


def test_a_dodge_gives_the_defender_2_xp_and_the_attacker_keeps_hit_xp():
    outcome = brawl(50, 1)
    assert outcome.defender_xp == P.dodge_xp == 2
    assert outcome.attacker_xp == P.hit_xp


def test_a_dodged_perfect_attack_still_gives_the_perfect_xp():
    outcome = brawl(2, 1)
    assert outcome.perfect and outcome.dodged
    assert outcome.attacker_xp == P.hit_xp + P.perfect_bonus_xp


def test_dodge_modifiers_change_the_dodge_score():
    bonus = (Modifier("faction_allies", 2),)
    outcome = brawl(50, 13, dodge_modifiers=bonus)  # 10 + 2 + 2 = 14
    assert outcome.dodged and outcome.dodge_score == 14


def test_defender_without_luck_cannot_dodge():
    door = fighter(luck=None)
    outcome = brawl(50, 3, *MISS_ALL_DEF, defender=door)  # second face is the 1d4
    assert outcome.dodge_score is None
    assert not outcome.dodged
    assert labels(outcome) == ["attack", "brawl_damage"] + ["damage_reduction"] * 3


def test_no_dodge_xp_when_the_dodge_fails():
    assert brawl(50, NO_DODGE, 4, *MISS_ALL_DEF).defender_xp == 0


# --- damage -----------------------------------------------------------------------------------

def test_damage_is_base_damage_plus_1d4():
    strong = fighter(FOR=30, TAI=30)  # 60 -> +2d6+2
    outcome = brawl(50, NO_DODGE, 3, 4, 2, *MISS_ALL_DEF, attacker=strong)
    assert outcome.damage == (3 + 4 + 2) + 2


def test_perfect_damage_adds_1d3_to_base_damage_and_1d4():
    strong = fighter(FOR=15, TAI=15)  # 30 -> +1d4
    outcome = brawl(1, NO_DODGE, 4, 4, 3, *MISS_ALL_DEF, attacker=strong)
    assert outcome.damage == 4 + 4 + 3


def test_no_base_damage_dice_between_17_and_24():
    outcome = brawl(50, NO_DODGE, 4, *MISS_ALL_DEF, attacker=fighter(FOR=12, TAI=12))
    assert "base_damage" not in labels(outcome)
    assert outcome.damage == 4


def test_negative_base_damage_lowers_the_damage():
    weak = fighter(FOR=7, TAI=8)  # 15 -> -1d4
    outcome = brawl(50, NO_DODGE, 1, 4, *MISS_ALL_DEF, attacker=weak)
    assert outcome.damage == -1 + 4


def test_damage_is_never_below_0():
    weak = fighter(FOR=3, TAI=7)  # 10 -> -1d6
    outcome = brawl(50, NO_DODGE, 6, 1, *MISS_ALL_DEF, attacker=weak)
    assert outcome.damage == 0
    assert outcome.pv_lost == 0


# --- damage reduction -------------------------------------------------------------------------

def test_reduction_is_1_plus_def_rolls_won_plus_armour():
    defender = fighter(DEF=10, armour=3)
    outcome = brawl(50, NO_DODGE, 4, 10, 11, 1, defender=defender)  # 10 and 1 win, 11 loses
    assert outcome.reduction == P.base_damage_reduction + 2 + 3


def test_a_def_roll_equal_to_def_wins_and_one_above_loses():
    outcome = brawl(50, NO_DODGE, 4, 10, 11, 100, defender=fighter(DEF=10))
    assert [r.success for r in outcome.rolls if r.label == "damage_reduction"] == [True, False, False]
    assert all(r.target == 10 for r in outcome.rolls if r.label == "damage_reduction")


def test_a_level_1_defender_rolls_3_reduction_dice():
    outcome = brawl(50, NO_DODGE, 4, *MISS_ALL_DEF, defender=fighter(level=1))
    assert labels(outcome).count("damage_reduction") == 3


def test_a_level_100_defender_rolls_20_reduction_dice():
    outcome = brawl(50, NO_DODGE, 4, *[100] * 20, defender=fighter(level=100))
    assert labels(outcome).count("damage_reduction") == damage_reduction_rolls(100) == 20


def test_pv_lost_is_damage_minus_reduction():
    outcome = brawl(50, NO_DODGE, 4, *MISS_ALL_DEF)
    assert outcome.pv_lost == 4 - 1


def test_no_pv_lost_when_damage_equals_reduction():
    outcome = brawl(50, NO_DODGE, 4, 1, 1, 1)  # reduction 1 + 3
    assert (outcome.damage, outcome.reduction, outcome.pv_lost) == (4, 4, 0)


def test_no_pv_lost_when_damage_is_below_reduction():
    outcome = brawl(50, NO_DODGE, 2, 1, 1, 100, defender=fighter(armour=2))  # 1 + 2 + 2
    assert (outcome.damage, outcome.reduction, outcome.pv_lost) == (2, 5, 0)


def test_one_pv_lost_when_damage_is_one_above_reduction():
    outcome = brawl(1, NO_DODGE, 2, 3, 1, 1, 1)  # perfect: 2 + 3 = 5 against 1 + 3
    assert outcome.pv_lost == 1


# --- the roll log -----------------------------------------------------------------------------

def test_rolls_are_logged_in_order_with_their_labels():
    strong = fighter(FOR=30, TAI=30)
    outcome = brawl(3, NO_DODGE, 1, 2, 3, 2, *MISS_ALL_DEF, attacker=strong)
    assert labels(outcome) == ["attack", "dodge", "base_damage", "brawl_damage", "perfect_damage",
                               "damage_reduction", "damage_reduction", "damage_reduction"]
    assert [r.roll.total for r in outcome.rolls] == [3, 99, 1 + 2 + 2, 3, 2, 100, 100, 100]


def test_attack_and_dodge_rolls_carry_their_target_and_success():
    outcome = brawl(50, NO_DODGE, 1, *MISS_ALL_DEF)
    attack, dodge = outcome.rolls[:2]
    assert (attack.target, attack.success) == (90, True)
    assert (dodge.target, dodge.success) == (12, False)


def test_a_dodged_attack_logs_attack_and_dodge_only():
    assert labels(brawl(50, 1)) == ["attack", "dodge"]


# --- real random source -----------------------------------------------------------------------

@given(seed=st.integers(), level=st.integers(min_value=0, max_value=100),
       for_tai=st.integers(min_value=2, max_value=90), armour=st.integers(min_value=0, max_value=10),
       has_luck=st.booleans())
def test_brawl_invariants_with_seeded_dice(seed, level, for_tai, armour, has_luck):
    attacker = fighter(FOR=for_tai // 2, TAI=for_tai - for_tai // 2)
    defender = fighter(level=level, armour=armour, luck=10 if has_luck else None)
    outcome = resolve_brawl(attacker, defender, random.Random(seed), P)
    assert outcome.damage >= 0
    assert outcome.pv_lost == max(0, outcome.damage - outcome.reduction)
    assert outcome.attacker_xp in (P.miss_xp, P.hit_xp, P.hit_xp + P.perfect_bonus_xp)
    if outcome.hit and not outcome.dodged:
        assert labels(outcome).count("damage_reduction") == damage_reduction_rolls(level)
    again = resolve_brawl(attacker, defender, random.Random(seed), P)
    assert again == outcome
