"""GET on a campaign's encounters lists them (issue 19, item 6; the endpoint answered 405): all
of them for the game master, those a player has a combatant in for a player, 404 for someone
with no part in the campaign. Constant queries whatever the number of encounters."""

from __future__ import annotations

import pytest

from encounters import services
from tests import factories
from tests.encounters.test_api import client_for

pytestmark = pytest.mark.django_db


def url(table) -> str:
    return f"/api/campaigns/{table.campaign.pk}/encounters/"


def test_the_game_master_lists_every_encounter_newest_first(table):
    other = services.encounter_create(user=table.gm, campaign_id=table.campaign.pk,
                                      name="Bridge")
    body = client_for(table.gm).get(url(table)).json()
    assert body["gm"] is True
    assert [(e["id"], e["name"], e["state"]) for e in body["encounters"]] == [
        (other.pk, "Bridge", "setup"), (table.encounter.pk, "Ambush", "setup")]
    assert set(body["encounters"][0]) == {"id", "campaign", "name", "state", "round",
                                          "players_may_join", "version", "created_at"}


def test_a_player_lists_the_encounters_they_play_in(table):
    services.encounter_create(user=table.gm, campaign_id=table.campaign.pk, name="Bridge")
    body = client_for(table.alice).get(url(table)).json()
    assert body["gm"] is False
    assert [e["name"] for e in body["encounters"]] == ["Ambush"]


def test_a_stranger_or_an_unknown_campaign_is_404(table):
    stranger = client_for(factories.user("eve"))
    response = stranger.get(url(table))
    assert (response.status_code, response.json()["code"]) == (404, "no_such_encounter")
    assert client_for(table.gm).get("/api/campaigns/999999/encounters/").status_code == 404


@pytest.mark.parametrize("user", ["gm", "alice"])
def test_the_query_count_does_not_grow_with_the_encounters(table, django_assert_num_queries,
                                                           user):
    client = client_for(getattr(table, user))
    client.get(url(table))
    counts = []
    for extra in (0, 5):
        for i in range(extra):
            services.encounter_create(user=table.gm, campaign_id=table.campaign.pk,
                                      name=f"More {i}")
        # session, user, the campaign, its encounters (a player's: joined to their combatants)
        with django_assert_num_queries(4) as captured:
            assert client.get(url(table)).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
