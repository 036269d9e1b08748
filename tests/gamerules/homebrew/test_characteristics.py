"""Creation budgets. Seed 002, "Caractéristiques": 170 points; subs "à hauteur du chiffre des
dizaines de la caractéristique principale [...] avec un maximum de 6 points par sous-catégorie"."""

import pytest

from gamerules.homebrew.characteristics import (CharacteristicsError, sub_points,
                                                validate_characteristics)
from gamerules.homebrew.params import HomebrewParameters

P = HomebrewParameters()


def sheet(**changes):
    values = {"physique": 60, "perception": 50, "mental": 60, "force": 4, "dexterite": 2,
              "sens": 3, "ether": 2, "esprit": 0, "intelligence": 6}
    values.update(changes)
    return values


def problems(values, params=P):
    with pytest.raises(CharacteristicsError) as info:
        validate_characteristics(values, params)
    return {(p.field, p.code): p for p in info.value.problems}, info.value


def test_a_valid_sheet():
    c = validate_characteristics(sheet(), P)
    assert (c.physique, c.perception, c.mental, c.force, c.intelligence) == (60, 50, 60, 4, 6)
    assert c.value("dexterite") == 2 and c.as_dict()["ether"] == 2


def test_the_seeds_example_60_in_physique_gives_6_points():
    assert sub_points(60) == 6
    assert validate_characteristics(sheet(force=6, dexterite=0), P).force == 6
    found, _ = problems(sheet(force=5, dexterite=2))
    assert found[("physique", "sub_points")].params == {"budget": 6, "spent": 7, "main": 60}
    assert "Force and Dextérité share 6 points with 60 in Physique (here 7)" in \
        found[("physique", "sub_points")].message


@pytest.mark.parametrize(("main", "points"), [(0, 0), (9, 0), (10, 1), (59, 5), (95, 9),
                                              (100, 10)])
def test_sub_points_are_the_tens(main, points):
    assert sub_points(main) == points


def test_sub_of_0_and_of_6_are_valid_7_is_not():
    assert validate_characteristics(sheet(esprit=0, intelligence=6), P).esprit == 0
    found, error = problems(sheet(esprit=0, intelligence=7))
    assert ("intelligence", "sub_out_of_range") in found
    assert "Intelligence must be between 0 and 6 (here 7)" in error.errors["intelligence"]
    found, _ = problems(sheet(force=-1))
    assert ("force", "sub_out_of_range") in found


def test_the_mains_must_spend_170_points_exactly():
    found, error = problems(sheet(physique=59))
    assert found[("*", "points_total")].params == {"budget": 170, "spent": 169}
    assert "must add up to 170 (here 169: 1 left to spend)" in error.message
    found, error = problems(sheet(physique=70))
    assert "(here 180: 10 too many)" in error.message


def test_leftover_points_allowed_when_the_gm_says_so():
    params = HomebrewParameters(spend_all_points=False)
    assert validate_characteristics(sheet(physique=50, force=3), params).physique == 50
    found, error = problems(sheet(physique=70), params)
    assert ("*", "points_total") in found
    # Leftover points are allowed: the budget is a most, not a total to reach.
    assert error.message.startswith(
        "Physique, Perception and Mental add up to at most 170 (here 180: 10 too many).")


def test_a_main_above_100_and_other_garbage_are_all_reported_at_once():
    found, error = problems({**sheet(physique=110, perception=10, mental=50), "charisma": 3,
                             "sens": True, "ether": None})
    assert set(found) >= {("physique", "main_out_of_range"), ("charisma", "unknown"),
                          ("sens", "not_whole"), ("ether", "missing")}
    assert error.code == "invalid_characteristics"
    assert found[("physique", "main_out_of_range")].params == {"low": 0, "high": 100,
                                                              "value": 110}


def test_the_100_main_gives_ten_sub_points_but_each_sub_stops_at_6():
    values = sheet(physique=100, perception=40, mental=30, force=6, dexterite=4, sens=2, ether=2,
                   esprit=1, intelligence=2)
    assert validate_characteristics(values, P).force == 6


# Issue 19, item 2: the GM's creatures keep the limits, not the creation budgets.
def test_a_creature_spends_any_points_within_the_limits():
    c = validate_characteristics(sheet(physique=100, perception=100, mental=5, force=6,
                                       dexterite=6), P, budgets=False)
    assert (c.physique, c.force) == (100, 6)


@pytest.mark.parametrize("changes,found", [
    ({"physique": 150}, ("physique", "main_out_of_range")),
    ({"force": 9}, ("force", "sub_out_of_range")),
])
def test_a_creature_past_a_limit_is_refused(changes, found):
    with pytest.raises(CharacteristicsError) as info:
        validate_characteristics(sheet(**changes), P, budgets=False)
    assert [(p.field, p.code) for p in info.value.problems] == [found]


def test_the_limits_are_the_campaigns():
    looser = HomebrewParameters(characteristic_max=100, sub_max=9)
    assert validate_characteristics(sheet(force=9, physique=90), looser, budgets=False).force == 9
