"""A cast's grades in the journal (issue 10, item 2): the casting test is d100 <= magic skill,
graded success or failure (EW1's magic has no perfect and no critical: seed 000, "Utilisation
de la magie"); the DEF rolls of the targets are graded too; the spell's power is not a test."""

from decimal import Decimal

import pytest

from magic.casting import spell_cast
from tests.gamerules.fakes import FakeRandom
from tests.magic.conftest import DEF_FAIL, DEF_OK, NOW, teach

SCORE = 55  # the mage's magic skill


@pytest.fixture
def fireball(mage, spells):
    teach(mage, spells["Boule de feu"])
    return spells["Boule de feu"]


def cast(user, caster, spell, *faces):
    rng = FakeRandom(*faces)
    result = spell_cast(user=user, character_id=caster.pk, spell_id=spell.pk, x=6, y=5, rng=rng,
                        now=NOW)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return result


@pytest.mark.parametrize("face", [1, 4, SCORE])  # no perfect below 5 for a spell
def test_a_successful_cast_is_a_success_and_its_def_rolls_are_graded(alice, mage, foe,
                                                                     fireball, face):
    result = cast(alice, mage, fireball, face, 5, DEF_FAIL, DEF_OK, DEF_FAIL)

    assert list(result.action.rolls.values_list("label", "grade", "success")) == [
        ("cast", "success", True), ("spell_power", "", None),
        ("damage_reduction", "failure", False), ("damage_reduction", "success", True),
        ("damage_reduction", "failure", False)]
    assert result.outcome.grade == "success" and result.action.cost == Decimal("2")


@pytest.mark.parametrize("face", [SCORE + 1, 100])  # 100 is no critical failure in EW1
def test_a_failed_cast_is_a_failure(alice, mage, foe, fireball, face):
    result = cast(alice, mage, fireball, face)

    assert list(result.action.rolls.values_list("label", "total", "grade", "success")) == [
        ("cast", face, "failure", False)]


def test_the_cast_api_shows_cost_and_grades(api_as, alice, mage, foe, fireball, monkeypatch):
    monkeypatch.setattr("magic.casting.random.SystemRandom",
                        lambda: FakeRandom(SCORE, 5, DEF_OK, DEF_OK, DEF_FAIL))

    response = api_as(alice).post(f"/api/characters/{mage.pk}/cast/",
                                  {"spell": fireball.pk, "x": 6, "y": 5}, format="json")

    assert response.status_code == 200, response.content
    action = response.json()["action"]
    assert action["cost"] == 2.0
    assert [(r["label"], r["grade"], r["success"]) for r in action["rolls"]] == [
        ("cast", "success", True), ("spell_power", "", None),
        ("damage_reduction", "success", True), ("damage_reduction", "success", True),
        ("damage_reduction", "failure", False)]
