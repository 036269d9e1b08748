"""Levels bank skill and characteristic points; ``level_up_spend`` spends them.

docs/rules/eternal-war-one-ii.md, "Progression".
"""

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from combat.services import action_move
from ew1.models import EternalWarSheet
from ew1.progression import grant_xp, level_up_spend
from gamerules.ew1.levelup import LevelUpError
from tests import factories
from tests.services.conftest import NOW

SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10, "throw": 25,
          "game": 30}


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW,
                               FOR=12, DEF=10, TAI=12, INT=12, DEX=10, LUK=10, skills=SKILLS)


def sheet(c) -> EternalWarSheet:
    return EternalWarSheet.objects.get(pk=c.pk)


def points(c) -> tuple:
    s = sheet(c)
    return (s.level, s.skill_points, s.characteristic_points, s.skills_raised)


def spend(user, c, skills=None, chars=None):
    return level_up_spend(user=user, character_id=c.pk, add_skills=skills or {},
                          add_characteristics=chars or {}, now=NOW)


@pytest.fixture
def unchanged_sheet(unchanged):
    """``unchanged`` with the sheet's skills, characteristics and banked points too."""
    from contextlib import contextmanager

    fields = ("skills", "skills_raised", "skill_points", "characteristic_points", "FOR", "DEF",
              "TAI", "INT", "DEX", "LUK")

    @contextmanager
    def check():
        before = list(EternalWarSheet.objects.order_by("pk").values(*fields))
        with unchanged():
            yield
        assert list(EternalWarSheet.objects.order_by("pk").values(*fields)) == before

    return check


def test_the_first_level_banks_15_skill_points_and_1_characteristic_point(alice, hero):
    assert points(hero) == (0, 0, 0, {})
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=NOW)  # 1 XP: level 1
    assert points(hero) == (1, 15, 1, {})


def test_each_level_banks_its_points_and_they_add_up(alice, hero, campaign):
    EternalWarSheet.objects.filter(pk=hero.pk).update(xp=100, level=1, skill_points=15,
                                                      characteristic_points=1)
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=NOW)  # 101 XP: level 2
    assert points(hero) == (2, 15 + 14, 2, {})

    s = sheet(hero)  # three levels at once: 13 + 12 + 12
    assert grant_xp(s, 411 - s.xp, campaign.parameters) == 3
    assert (s.level, s.skill_points, s.characteristic_points) == (5, 29 + 37, 5)


def test_spending_raises_skills_and_characteristics_and_is_journaled(alice, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, xp=1, skill_points=15,
                                                      characteristic_points=1)
    s = spend(alice, hero, {"melee": 5, "dodge": 3}, {"FOR": 1})

    s = sheet(hero)
    assert (s.skills["melee"], s.skills["dodge"], s.FOR) == (40, 13, 13)
    assert (s.skill_points, s.characteristic_points, s.skills_raised) == (
        7, 0, {"melee": 5, "dodge": 3})
    action = ActionRecord.objects.get(kind="level_up")
    assert (action.actor_id, action.user, action.summary) == (
        hero.pk, alice, {"skills": {"melee": 5, "dodge": 3}, "characteristics": {"FOR": 1},
                         "level": 1})


def test_the_per_skill_cap_counts_every_spending_of_the_level(alice, hero, unchanged_sheet):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, xp=1, skill_points=15)
    spend(alice, hero, {"melee": 3})
    spend(alice, hero, {"melee": 2, "throw": 1})
    assert sheet(hero).skills_raised == {"melee": 5, "throw": 1}

    with unchanged_sheet(), pytest.raises(LevelUpError) as exc:
        spend(alice, hero, {"melee": 1})
    assert exc.value.code == "invalid_level_up"
    assert "At most 5 points per skill at level 1 (melee)" in exc.value.message
    with unchanged_sheet(), pytest.raises(LevelUpError):
        spend(alice, hero, {"throw": 5})

    # A new level starts the count again (the points left are banked).
    EternalWarSheet.objects.filter(pk=hero.pk).update(xp=100)
    action_move(user=alice, character_id=hero.pk, dx=1, dy=0, now=NOW)
    assert points(hero) == (2, 9 + 14, 1, {})
    spend(alice, hero, {"melee": 5})
    assert sheet(hero).skills["melee"] == 35 + 10


def test_the_cap_grows_with_the_level(alice, hero, unchanged_sheet):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=18, xp=3000, skill_points=20)
    with unchanged_sheet(), pytest.raises(LevelUpError) as exc:
        spend(alice, hero, {"melee": 7})
    assert "At most 6 points per skill at level 18" in exc.value.message
    spend(alice, hero, {"melee": 6})
    assert sheet(hero).skills["melee"] == 41


@pytest.mark.parametrize("setup, skills, chars, words", [
    ({"skills": {**SKILLS, "brawl": 98}}, {"brawl": 3}, {}, "brawl cannot go above 100"),
    ({"skills": {**SKILLS, "dodge": 88}}, {"dodge": 3}, {}, "dodge cannot go above 90"),
    ({"skills": {**SKILLS, "melee": 94}}, {"melee": 2}, {}, "melee cannot go above 95"),
    ({"FOR": 40}, {}, {"FOR": 1}, "FOR cannot go above 40"),
    ({"skill_points": 2}, {"melee": 3}, {}, "3 skill points spent, 2 available"),
    ({"characteristic_points": 0}, {}, {"DEX": 1}, "1 characteristic points spent, 0 available"),
    ({}, {"melee": -1}, {}, "positive whole numbers"),
    ({}, {"swimming": 1}, {}, "Unknown skill"),
    ({}, {}, {"POU": 1}, "Unknown characteristic"),
    ({}, {"melee": 0}, {}, "at least one point"),
], ids=["brawl-max", "dodge-max", "skill-max", "characteristic-max", "skill-points",
        "characteristic-points", "negative", "unknown-skill", "unknown-characteristic",
        "nothing"])
def test_a_refused_spending_changes_nothing(alice, hero, unchanged_sheet, setup, skills, chars,
                                            words):
    EternalWarSheet.objects.filter(pk=hero.pk).update(
        **{"level": 1, "xp": 1, "skill_points": 15, "characteristic_points": 1, **setup})
    with unchanged_sheet(), pytest.raises(LevelUpError) as exc:
        spend(alice, hero, skills, chars)
    assert words in exc.value.message


def test_another_players_character(alice, bob, hero, campaign, unchanged_sheet):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, xp=1, skill_points=15)
    # A stranger is told the character does not exist, like a missing one; the game master,
    # who may read the sheet, is told it is not theirs to play.
    with unchanged_sheet(), pytest.raises(NotFound):
        spend(bob, hero, {"melee": 1})
    campaign.game_master = factories.user("gm")
    campaign.save()
    with unchanged_sheet(), pytest.raises(Forbidden):
        spend(campaign.game_master, hero, {"melee": 1})
    with unchanged_sheet(), pytest.raises(NotFound):
        level_up_spend(user=alice, character_id=987654, add_skills={"melee": 1},
                       add_characteristics={}, now=NOW)
