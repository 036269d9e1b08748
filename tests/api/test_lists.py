"""Pagination and filters of the older lists (issue 22, item 6): the characters, the open
campaigns, a campaign's factions and encounters keep their bodies (every client of them keeps
working) and are paged by ``?page=``/``?page_size=`` with the ``Link`` header; each has its
filter; bad input is a 400 that changes nothing; the queries do not grow with the rows."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.api_lists import MAX_PAGE_SIZE, PAGE_SIZE
from campaigns.models import RuleSystem
from encounters import services as encounter_services
from factions.models import Faction
from tests import factories
from tests.api.conftest import forced
from tests.encounters.conftest import SYSTEM


def links(response) -> dict[str, str]:
    return {rel: url for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"',
                                                 response.get("Link", ""))}


def counted(client, path: str, **query):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, query)
    assert response.status_code == 200, response.content
    return response, len(ctx.captured_queries)


@pytest.fixture
def many_campaigns(db):
    def make(count: int, rule_system: str = RuleSystem.ETERNAL_WAR):
        return [factories.campaign(name=f"C{rule_system}{i:03}", rule_system=rule_system)
                for i in range(count)]
    return make


# --- pages ------------------------------------------------------------------------------------

def test_pages_walk_the_list_by_the_link_header(alice, many_campaigns):
    made = many_campaigns(5)
    client = forced(alice)
    first = client.get("/api/campaigns/", {"page_size": 2})
    assert [c["id"] for c in first.json()] == [c.pk for c in made[:2]]
    assert set(links(first)) == {"next"}
    second = client.get(links(first)["next"])
    assert [c["id"] for c in second.json()] == [c.pk for c in made[2:4]]
    assert set(links(second)) == {"next", "prev"}
    assert "page=" not in links(second)["prev"] and "page_size=2" in links(second)["prev"]
    third = client.get(links(second)["next"])
    assert [c["id"] for c in third.json()] == [made[4].pk]
    assert set(links(third)) == {"prev"} and "page=2" in links(third)["prev"]
    past = client.get("/api/campaigns/", {"page": 9, "page_size": 2})
    assert past.status_code == 200 and past.json() == []


def test_the_default_page_and_the_cap(alice, many_campaigns):
    many_campaigns(PAGE_SIZE + 1)
    client = forced(alice)
    default = client.get("/api/campaigns/")
    assert len(default.json()) == PAGE_SIZE and "next" in links(default)
    capped = client.get("/api/campaigns/", {"page_size": MAX_PAGE_SIZE + 1})
    assert len(capped.json()) == PAGE_SIZE + 1 and "Link" not in capped


@pytest.mark.parametrize("path", ["/api/campaigns/", "/api/characters/"])
@pytest.mark.parametrize("query", [
    {"page": "0"}, {"page": "-1"}, {"page": "x"}, {"page": "1.0"}, {"page": " 2"},
    {"page": "\u0663"}, {"page_size": "0"}, {"page_size": "1.5"}, {"page": "9" * 30},
    {"pgae": "2"}, {"cursor": "x"}, {"campaign": "1.0"}, {"rule_system": "chess"},
    {"page": "1\x00"}])
def test_bad_list_input_is_a_400(alice, campaign, path, query):
    response = forced(alice).get(path, query)
    assert response.status_code == 400, (query, response.status_code)
    assert response.json()["code"] == "invalid_input"


# --- each list's filter -----------------------------------------------------------------------

def test_characters_by_campaign(alice, bob, many_campaigns):
    one, two = many_campaigns(2)
    mine = [factories.character(owner=alice, campaign=c, name=f"A{c.pk}", at=(1, 1))
            for c in (one, two)]
    factories.character(owner=bob, campaign=one, name="Bob's", at=(2, 2))
    client = forced(alice)
    assert [c["id"] for c in client.get("/api/characters/").json()] == [m.pk for m in mine]
    assert [c["id"] for c in client.get("/api/characters/", {"campaign": one.pk}).json()] == [
        mine[0].pk]
    assert forced(bob).get("/api/characters/", {"campaign": two.pk}).json() == []


def test_campaigns_by_rule_system(alice, many_campaigns):
    ew1 = many_campaigns(2)
    homebrew = many_campaigns(1, RuleSystem.HOMEBREW)
    client = forced(alice)
    assert [c["id"] for c in client.get("/api/campaigns/",
                                        {"rule_system": "homebrew"}).json()] == [
        homebrew[0].pk]
    assert len(client.get("/api/campaigns/", {"rule_system": "ew1"}).json()) == len(ew1)


def _factions(campaign, count: int, owner) -> list[Faction]:
    made = []
    for i in range(count):
        leader = factories.character(owner=owner, campaign=campaign, name=f"L{i}",
                                     at=(i % 10, i // 10))
        made.append(Faction.objects.create(campaign=campaign, name=f"F{i:03}", leader=leader,
                                           is_public=i % 2 == 0))
    return made


def test_factions_by_publicity(alice, campaign):
    made = _factions(campaign, 3, alice)
    client, path = forced(alice), f"/api/campaigns/{campaign.pk}/factions/"
    assert [f["id"] for f in client.get(path, {"is_public": "true"}).json()] == [
        made[0].pk, made[2].pk]
    assert [f["id"] for f in client.get(path, {"is_public": "false"}).json()] == [made[1].pk]
    assert client.get(path, {"is_public": "yes"}).status_code == 400
    assert client.get(path, {"page_size": 1, "page": 2}).json()[0]["id"] == made[1].pk


def _encounters(count: int):
    gm = factories.user("gm")
    campaign = factories.campaign(name="Encounters", rule_system=SYSTEM)
    campaign.game_master = gm
    campaign.save()
    for i in range(count):
        encounter_services.encounter_create(user=gm, campaign_id=campaign.pk, name=f"E{i}")
    return gm, campaign


def test_encounters_paged_and_by_state(db):
    gm, campaign = _encounters(3)
    client, path = forced(gm), f"/api/campaigns/{campaign.pk}/encounters/"
    body = client.get(path, {"page_size": 2})
    assert set(body.json()) == {"gm", "encounters"} and body.json()["gm"] is True
    assert len(body.json()["encounters"]) == 2 and "next" in links(body)
    assert len(client.get(path, {"page_size": 2, "page": 2}).json()["encounters"]) == 1
    assert len(client.get(path, {"state": "ended"}).json()["encounters"]) == 0
    assert len(client.get(path, {"state": "setup"}).json()["encounters"]) == 3
    for bad in ({"state": "nope"}, {"page": "0"}, {"pgae": "1"}):
        assert client.get(path, bad).status_code == 400
    stranger = factories.user("eve")
    assert forced(stranger).get(path).status_code == 404


# --- queries: the same at 2 rows and at 50 ----------------------------------------------------

@pytest.mark.parametrize("size", [2, 50])
def test_campaigns_queries_at_2_and_50(alice, many_campaigns, size):
    many_campaigns(size)
    response, queries = counted(forced(alice), "/api/campaigns/")
    assert len(response.json()) == size
    assert queries == 1  # the page, its boards joined


@pytest.mark.parametrize("size", [2, 50])
def test_characters_factions_encounters_queries_at_2_and_50(db, alice, size):
    campaign = factories.campaign(name="Characters", width=10, height=10)
    for i in range(size):
        factories.character(owner=alice, campaign=campaign, name=f"A{i}", at=(i % 10, i // 10))
    response, characters = counted(forced(alice), "/api/characters/")
    assert len(response.json()) == size
    assert characters == 1
    other = factories.campaign(name="Factions", width=10, height=10)
    _factions(other, size, alice)
    response, factions = counted(forced(alice), f"/api/campaigns/{other.pk}/factions/")
    assert len(response.json()) == size
    assert factions == 2  # the campaign, the page with leaders and sizes
    gm, encounters_campaign = _encounters(size)
    response, encounters = counted(forced(gm),
                                   f"/api/campaigns/{encounters_campaign.pk}/encounters/")
    assert len(response.json()["encounters"]) == size
    assert encounters == 2
