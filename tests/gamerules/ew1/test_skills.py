"""gamerules.ew1.skills.base_skills: level-1 skills (seed, "Compétences de base")."""

import pytest

from gamerules.ew1.skills import SKILLS_BY_CODE, base_skills

CHARACTERISTICS = {"FOR": 10, "DEF": 12, "TAI": 14, "INT": 13, "DEX": 11, "LUK": 9}


@pytest.fixture
def skills():
    return base_skills(CHARACTERISTICS)


@pytest.mark.parametrize(("code", "value"), [("brawl", 90), ("melee", 35), ("ranged", 25),
                                              ("throw", 25)])
def test_fixed_base_skills(skills, code, value):
    assert skills[code] == value


def test_magic_is_dex_plus_int(skills):
    assert skills["magic"] == 11 + 13


def test_dodge_is_def(skills):
    assert skills["dodge"] == 12


def test_game_is_int_plus_dex_plus_luk(skills):
    assert skills["game"] == 13 + 11 + 9


def test_game_at_the_top_of_the_creation_rolls_is_54():
    assert base_skills({**CHARACTERISTICS, "INT": 18, "DEX": 18, "LUK": 18})["game"] == 54


def test_game_and_magic_are_capped_at_95():
    skills = base_skills({**CHARACTERISTICS, "INT": 40, "DEX": 40, "LUK": 40})
    assert skills["game"] == 95
    assert base_skills({**CHARACTERISTICS, "INT": 50, "DEX": 50})["magic"] == 95


@pytest.mark.parametrize(("defence", "dodge"), [(89, 89), (90, 90), (91, 90), (200, 90)])
def test_dodge_is_capped_at_90(defence, dodge):
    assert base_skills({**CHARACTERISTICS, "DEF": defence})["dodge"] == dodge


@pytest.mark.parametrize(("code", "label", "maximum"), [
    ("brawl", "Bagarre", 100), ("melee", "Arme mêlée", 95), ("ranged", "Arme distance", 95),
    ("magic", "Magie", 95), ("dodge", "Esquive", 90), ("throw", "Lancé", 95), ("game", "Jeu", 95),
])
def test_skill_labels_and_maxima_are_the_seed(code, label, maximum):
    assert (SKILLS_BY_CODE[code].label, SKILLS_BY_CODE[code].maximum) == (label, maximum)


def test_base_skills_has_every_skill(skills):
    assert set(skills) == set(SKILLS_BY_CODE)
