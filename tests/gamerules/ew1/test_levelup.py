"""gamerules.ew1.levelup: points gained per level and how they are spent.

Seed, "Évolution des points de compétences": 15, 14, 13, 12, 12, 11, 10, ..., 7 at level 10, 6,
5, 4 from level 13 to 100, "un total de 500 points"; per skill and level-up at most
"niveau / 3, arrondi à l'inférieur". "Compétences de base" gives the skill maxima.
"""

import pytest

from gamerules.errors import RuleError
from gamerules.ew1.levelup import (
    LevelUpError, per_skill_cap, points_between, skill_points_for_level, validate_allocation,
)
from gamerules.ew1.params import EW1Parameters

P = EW1Parameters()
CHARACTERISTICS = {"FOR": 12, "DEF": 10, "TAI": 14, "INT": 13, "DEX": 9, "LUK": 11}
SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 22, "dodge": 10, "throw": 25,
          "game": 33}


def allocate(*, level=1, skills=SKILLS, characteristics=CHARACTERISTICS, skill_points=15,
             characteristic_points=1, add_skills=None, add_characteristics=None,
             already_raised=None):
    return validate_allocation(
        level=level, skills=skills, characteristics=characteristics, skill_points=skill_points,
        characteristic_points=characteristic_points, add_skills=add_skills or {},
        add_characteristics=add_characteristics or {}, skill_cap_floor=P.skill_cap_floor,
        characteristic_max=P.characteristic_max, already_raised=already_raised)


# --- points per level ---------------------------------------------------------------------------

@pytest.mark.parametrize(("level", "points"), [
    (1, 15), (2, 14), (3, 13), (4, 12), (5, 12), (6, 11), (7, 10), (10, 7), (11, 6), (12, 5),
    (13, 4), (50, 4), (100, 4),
])
def test_skill_points_at_the_seeds_listed_levels(level, points):
    assert skill_points_for_level(level) == points


@pytest.mark.parametrize(("level", "points"), [(8, 9), (9, 8)])
def test_levels_8_and_9_fill_the_seeds_gap_one_point_apart(level, points):
    assert skill_points_for_level(level) == points


def test_level_0_grants_no_points():
    assert skill_points_for_level(0) == 0


def test_total_over_100_levels_is_474_not_the_seeds_500_because_we_keep_the_listed_values():
    listed = [15, 14, 13, 12, 12, 11, 10, 9, 8, 7, 6, 5] + [4] * 88  # levels 1..12, 13..100
    assert sum(listed) == 474
    assert sum(skill_points_for_level(lvl) for lvl in range(1, 101)) == 474


def test_points_between_0_and_100_are_474_skill_and_100_characteristic_points():
    assert points_between(0, 100, characteristic_points_per_level=1) == (474, 100)


@pytest.mark.parametrize(("old", "new", "expected"), [
    (0, 1, (15, 1)),
    (1, 3, (14 + 13, 2)),
    (4, 7, (12 + 11 + 10, 3)),
    (11, 14, (5 + 4 + 4, 3)),
    (5, 5, (0, 0)),
])
def test_points_between_several_levels(old, new, expected):
    assert points_between(old, new, characteristic_points_per_level=1) == expected


def test_characteristic_points_per_level_is_a_parameter():
    assert points_between(2, 5, characteristic_points_per_level=2) == (13 + 12 + 12, 6)


# --- per-skill cap ------------------------------------------------------------------------------

@pytest.mark.parametrize(("level", "cap"), [(1, 5), (2, 5), (15, 5), (17, 5), (18, 6), (30, 10),
                                            (100, 33)])
def test_per_skill_cap_is_level_over_3_with_a_floor_of_5(level, cap):
    assert per_skill_cap(level, floor=P.skill_cap_floor) == cap


def test_the_seeds_level_over_3_alone_would_be_0_at_level_1():
    assert per_skill_cap(1, floor=0) == 1 // 3 == 0


# --- validate_allocation ------------------------------------------------------------------------

def test_a_valid_allocation_raises_skills_and_characteristics():
    result = allocate(add_skills={"melee": 5, "dodge": 5, "throw": 3},
                      add_characteristics={"FOR": 1})
    assert result.skills == {**SKILLS, "melee": 40, "dodge": 15, "throw": 28}
    assert result.characteristics == {**CHARACTERISTICS, "FOR": 13}


def test_a_valid_allocation_leaves_its_inputs_unchanged():
    skills, characteristics = dict(SKILLS), dict(CHARACTERISTICS)
    allocate(skills=skills, characteristics=characteristics, add_skills={"melee": 5},
             add_characteristics={"DEX": 1})
    assert (skills, characteristics) == (SKILLS, CHARACTERISTICS)


def test_spending_more_skill_points_than_banked_is_refused():
    with pytest.raises(LevelUpError, match="16 skill points spent, 15 available"):
        allocate(add_skills={"melee": 5, "ranged": 5, "throw": 5, "dodge": 1})


def test_spending_more_characteristic_points_than_banked_is_refused():
    with pytest.raises(LevelUpError, match="2 characteristic points spent, 1 available"):
        allocate(add_characteristics={"FOR": 1, "DEX": 1})


def test_more_than_the_cap_on_one_skill_in_one_level_up_is_refused():
    with pytest.raises(LevelUpError, match="At most 5 points per skill at level 1"):
        allocate(add_skills={"melee": 6})


def test_points_already_raised_since_the_last_level_count_toward_the_cap():
    with pytest.raises(LevelUpError, match="At most 5 points"):
        allocate(add_skills={"melee": 2}, already_raised={"melee": 4})
    assert allocate(add_skills={"melee": 1}, already_raised={"melee": 4}).skills["melee"] == 36


def test_the_cap_at_level_30_is_10():
    skills = {**SKILLS, "melee": 50}
    assert allocate(level=30, skills=skills, add_skills={"melee": 10}).skills["melee"] == 60
    with pytest.raises(LevelUpError, match="At most 10 points"):
        allocate(level=30, skills=skills, add_skills={"melee": 11})


@pytest.mark.parametrize(("code", "maximum"), [("dodge", 90), ("brawl", 100), ("melee", 95)])
def test_a_skill_cannot_pass_its_maximum(code, maximum):
    skills = {**SKILLS, code: maximum - 1}
    assert allocate(skills=skills, add_skills={code: 1}).skills[code] == maximum
    with pytest.raises(LevelUpError, match=f"{code} cannot go above {maximum}"):
        allocate(skills=skills, add_skills={code: 2})


def test_a_characteristic_cannot_pass_characteristic_max():
    characteristics = {**CHARACTERISTICS, "FOR": 40}
    with pytest.raises(LevelUpError, match="FOR cannot go above 40"):
        allocate(characteristics=characteristics, add_characteristics={"FOR": 1})


@pytest.mark.parametrize(("add_skills", "add_characteristics"), [
    ({"sword": 1}, {}), ({}, {"STR": 1}),
])
def test_an_unknown_skill_or_characteristic_is_refused(add_skills, add_characteristics):
    with pytest.raises(LevelUpError, match="Unknown"):
        allocate(add_skills=add_skills, add_characteristics=add_characteristics)


@pytest.mark.parametrize(("add_skills", "add_characteristics"), [
    ({"melee": -1}, {}), ({}, {"FOR": -1}), ({"melee": 1.5}, {}), ({"melee": True}, {}),
])
def test_negative_or_non_whole_points_are_refused(add_skills, add_characteristics):
    with pytest.raises(LevelUpError, match="positive whole numbers"):
        allocate(add_skills=add_skills, add_characteristics=add_characteristics)


def test_a_negative_addition_cannot_pay_for_another_skill():
    with pytest.raises(LevelUpError):
        allocate(skill_points=0, add_skills={"melee": 5, "ranged": -5})


def test_the_error_is_a_rule_error_with_a_stable_code():
    with pytest.raises(RuleError) as caught:
        allocate(add_skills={"melee": 6})
    assert caught.value.code == "invalid_level_up"
