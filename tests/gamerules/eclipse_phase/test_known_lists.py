"""What the game master writes comes from the rules' lists (issue 19, item 2): a weapon's skill
and its modes for its kind, a morph's aptitudes and traits, an ego's skills and links."""

import pytest

from gamerules.eclipse_phase.errors import InvalidSheet
from gamerules.eclipse_phase.gear import WEAPON_SKILLS, FiringMode, Weapon
from gamerules.eclipse_phase.sheet import (
    SKILL_APTITUDES,
    Aptitude,
    Trait,
    aptitude_bonus_of,
    names_of,
    skill_links_of,
    skills_of,
    traits_of,
)


def refused(call, *args, **kwargs) -> InvalidSheet:
    with pytest.raises(InvalidSheet) as info:
        call(*args, **kwargs)
    return info.value


def test_every_weapon_skill_is_in_the_catalogue():
    assert set(SKILL_APTITUDES) >= WEAPON_SKILLS


@pytest.mark.parametrize("mode", list(FiringMode))
def test_a_melee_weapon_has_no_firing_mode(mode):
    error = refused(Weapon, "Knife", "blades", "1d10", melee=True, modes=frozenset({mode}))
    assert (error.key, error.params) == ("melee_no_modes", {"weapon": "Knife",
                                                            "modes": mode.value})
    assert Weapon("Knife", "blades", "1d10", melee=True).modes == frozenset()


@pytest.mark.parametrize("skill", ["kinetik_weapons", "blade", "fray", "perception", ""])
def test_a_weapon_skill_outside_the_weapon_skills_is_refused(skill):
    error = refused(Weapon, "Gun", skill, "1d10", modes=frozenset({FiringMode.SS}))
    assert error.key == "unknown_weapon_skill" and error.params["skill"] == skill


def test_traits_and_aptitudes_come_from_their_lists():
    assert traits_of(["pain_filter", "ambidextrous"]) == {Trait.PAIN_FILTER, Trait.AMBIDEXTROUS}
    assert aptitude_bonus_of({"SOM": 5}) == {Aptitude.SOM: 5}
    assert refused(traits_of, ["laser_eyes"]).key == "unknown_trait"
    assert refused(traits_of, "pain_filter").key == "traits_shape"
    assert refused(aptitude_bonus_of, {"STR": 5}).key == "unknown_aptitude"
    assert refused(aptitude_bonus_of, {"SOM": True}).key == "aptitude_bonus_shape"
    assert refused(aptitude_bonus_of, [5]).key == "aptitude_bonus_shape"


def test_an_egos_skills_are_the_catalogues_or_linked():
    links = skill_links_of({"pilot_groundcraft": "REF"})
    assert skills_of({"fray": 20, "pilot_groundcraft": 10}, links) == {"fray": 20,
                                                                      "pilot_groundcraft": 10}
    assert refused(skills_of, {"kinetik_weapons": 10}, {}).key == "unknown_skill"
    assert refused(skills_of, {"fray": 100}, {}).key == "skill_ranks"
    assert refused(skills_of, ["fray"], {}).key == "skills_shape"
    assert refused(skill_links_of, {"pilot": "STR"}).key == "unknown_aptitude"
    assert names_of(["Fear of heights"]) == ("Fear of heights",)
    assert refused(names_of, [""]).key == "names_shape"
