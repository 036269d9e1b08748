"""The journal in the API (issue 10, item 2): an action's ``cost`` in the rule system's unit
(PA here, Eternal War One II), each roll's ``grade`` and the ``success`` derived from it."""

import pytest

from tests import factories
from tests.gamerules.fakes import FakeRandom

NO_DODGE, DEF_FAIL = 12, 11
STATS = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10,
         "skills": {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10,
                    "throw": 25, "game": 30}}


@pytest.fixture
def scripted(monkeypatch):
    """The next action rolls these faces (``random.SystemRandom`` is replaced for the test)."""
    def script(*faces):
        monkeypatch.setattr("combat.services.random.SystemRandom", lambda: FakeRandom(*faces))
    return script


@pytest.fixture
def anna(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5), **STATS)


@pytest.fixture
def bert(campaign, bob):
    return factories.character(owner=bob, campaign=campaign, name="Bert", at=(6, 5), **STATS)


def grades(action) -> list[tuple[str, str, bool | None]]:
    return [(r["label"], r["grade"], r["success"]) for r in action["rolls"]]


@pytest.mark.django_db
def test_a_perfect_attack_shows_its_cost_and_grades(api_as, alice, anna, bert, scripted):
    scripted(4, NO_DODGE, 4, 3, DEF_FAIL, 10, DEF_FAIL)

    response = api_as(alice).post(f"/api/characters/{anna.pk}/attack/", {"target": bert.pk},
                                  format="json")

    assert response.status_code == 200, response.content
    action = response.json()["action"]
    assert action["cost"] == 2.0 and "pa_spent" not in action
    assert grades(action) == [
        ("attack", "perfect", True), ("dodge", "failure", False),
        ("brawl_damage", "", None), ("perfect_damage", "", None),
        ("damage_reduction", "failure", False), ("damage_reduction", "success", True),
        ("damage_reduction", "failure", False)]


@pytest.mark.django_db
def test_the_characters_log_shows_a_failed_game_with_its_grade(api_as, alice, anna, scripted):
    scripted(100)  # EW1 has no critical failure: a 100 fails like a 31
    assert api_as(alice).post(f"/api/characters/{anna.pk}/game/").status_code == 200

    body = api_as(alice).get(f"/api/characters/{anna.pk}/").json()

    game, created = body["log"]
    assert (game["kind"], game["cost"]) == ("game", 1.0)
    assert grades(game) == [("game", "failure", False)]
    assert created["cost"] == 0.0 and {r["grade"] for r in created["rolls"]} == {""}


@pytest.mark.django_db
def test_the_schema_documents_cost_and_grade(api):
    schemas = api.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]

    cost = schemas["Action"]["properties"]["cost"]
    assert "rule system" in cost["description"] and "PA" in cost["description"]
    assert "pa_spent" not in schemas["Action"]["properties"]
    assert schemas["GradeEnum"]["enum"] == [
        "critical_success", "perfect", "success", "failure", "critical_failure"]
    grade = schemas["Roll"]["properties"]["grade"]
    assert {"$ref": "#/components/schemas/GradeEnum"} in grade["oneOf"]
    assert "blank" in grade["description"]
