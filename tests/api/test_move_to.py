"""POST /api/characters/{id}/move-to/: the board's click as an API call (action_move_to)."""

from decimal import Decimal

import pytest

from campaigns.models import ActionRecord
from characters.models import Character
from tests import factories
from tests.api.conftest import assert_refused, forced, snapshot


@pytest.fixture
def anna(db, alice):
    campaign = factories.campaign(name="Wide", width=20, height=20, view_radius=5)
    return factories.character(owner=alice, campaign=campaign, name="Anna", at=(5, 5))


def move_to(client, c, **payload):
    return client.post(f"/api/characters/{c.pk}/move-to/", payload, format="json")


@pytest.mark.parametrize("goal", [(6, 5), (8, 8)])
def test_a_walk_by_the_api_costs_what_the_board_shows(django_assert_num_queries, alice, anna,
                                                      goal):
    client = forced(alice)
    steps = max(abs(goal[0] - 5), abs(goal[1] - 5))
    with django_assert_num_queries(12):  # as the API's one-cell move, whatever the walk's length
        response = move_to(client, anna, x=goal[0], y=goal[1])
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["action"]["cost"] in (str(Decimal("0.5") * steps), float(Decimal("0.5") * steps))
    c = Character.objects.select_related("ew1").get(pk=anna.pk)
    assert (c.x, c.y, c.ew1.pa) == (*goal, Decimal(12) - Decimal("0.5") * steps)
    assert ActionRecord.objects.get(kind="move").summary["steps"] == steps


@pytest.mark.parametrize(("payload", "status", "code"), [
    ({"x": 25, "y": 5}, 400, "off_board"), ({"x": 11, "y": 5}, 400, "out_of_range"),
    ({"x": 5, "y": 5}, 400, "invalid_direction"), ({"x": 10**7, "y": 5}, 400, "invalid"),
    ({"x": "a", "y": 5}, 400, "invalid"), ({"x": 6}, 400, "invalid"),
])
def test_refused_walks_change_nothing(alice, anna, payload, status, code):
    before = snapshot(anna)
    response = move_to(forced(alice), anna, **payload)
    assert response.status_code == status, response.content
    if code != "invalid":
        assert_refused(response, status, code, before, anna)
    assert snapshot(anna) == before


def test_not_enough_pa(alice, anna):
    anna.ew1.pa = Decimal("1.0")
    anna.ew1.save()
    before = snapshot(anna)
    response = move_to(forced(alice), anna, x=8, y=5)
    assert_refused(response, 400, "not_enough_pa", before, anna)
    params = response.json()["params"]
    assert (Decimal(str(params["cost"])), Decimal(str(params["pa"]))) == (Decimal("1.5"), 1)


def test_another_players_character_is_not_found(bob, anna):
    before = snapshot(anna)
    assert move_to(forced(bob), anna, x=6, y=5).status_code == 404
    assert snapshot(anna) == before
