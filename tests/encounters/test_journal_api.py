"""The journal endpoints (issue 22, item 6): ``/api/campaigns/{id}/journal/`` and
``/api/encounters/{id}/journal/``, the rolls and actions as each viewer may read them (the GM,
staff: all; a player: nothing of a hidden combatant, on the campaign's journal only the
entries of their own characters; a stranger: 404), filtered by character, kind and time,
paged by cursor; bad input is a 400 and never a 500; the queries do not grow with the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from campaigns.api_lists import MAX_PAGE_SIZE
from campaigns.models import ActionRecord, RollRecord
from encounters import services
from tests import factories
from tests.encounters.conftest import NOW


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "journal-api"}}
    caches["default"].clear()


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def entry(table, kind: str, *, actor=None, target=None, minutes: int = 0, encounter=True,
          rolls: int = 1, **summary) -> ActionRecord:
    if encounter:
        summary["encounter"] = table.encounter.pk
    a = ActionRecord.objects.create(campaign=table.campaign, kind=kind, actor=actor,
                                    target=target, summary=summary,
                                    created_at=NOW + timedelta(minutes=minutes))
    for i in range(rolls):
        RollRecord.objects.create(action=a, actor=actor, label=f"roll {i}", expression="1d100",
                                  faces=[40 + i], total=40 + i,
                                  created_at=a.created_at)
    return a


@pytest.fixture
def journal(table):
    """The orc hidden; the hero strikes the orc, the orc strikes the hero, the hero strikes
    Brenna (an old entry, off the encounter), Brenna tests alone."""
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, hidden=True)
    return {
        "hero_orc": entry(table, "enc_test_strike", actor=table.hero, target=table.orc,
                          minutes=1),
        "orc_hero": entry(table, "enc_test_strike", actor=table.orc, target=table.hero,
                          minutes=2),
        "hero_brenna": entry(table, "enc_test_blast", actor=table.hero, target=table.brenna,
                             minutes=-60, encounter=False),
        "brenna": entry(table, "enc_test_blast", actor=table.brenna, minutes=3),
    }


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [a["id"] for a in response.json()["results"]]


def url(table, scope: str) -> str:
    if scope == "campaign":
        return f"/api/campaigns/{table.campaign.pk}/journal/"
    return f"/api/encounters/{table.encounter.pk}/journal/"


# --- who reads what ---------------------------------------------------------------------------

@pytest.mark.parametrize("who", ["gm", "staff"])
def test_the_gm_and_staff_read_everything_newest_first(table, journal, who):
    user = table.gm if who == "gm" else factories.user("root", is_staff=True)
    j = journal
    assert ids(as_user(user).get(url(table, "campaign"))) == [
        j["brenna"].pk, j["orc_hero"].pk, j["hero_orc"].pk, j["hero_brenna"].pk]
    body = as_user(user).get(url(table, "encounter")).json()
    assert [a["id"] for a in body["results"]] == [j["brenna"].pk, j["orc_hero"].pk,
                                                  j["hero_orc"].pk]
    assert body["next"] is None and body["previous"] is None
    hit = next(a for a in body["results"] if a["id"] == j["hero_orc"].pk)
    assert hit["target"] == {"id": table.orc.pk, "name": "Orc"}
    assert [r["label"] for r in hit["rolls"]] == ["roll 0"]


def test_a_player_reads_nothing_of_the_hidden_orc_in_the_encounter(table, journal):
    body = as_user(table.alice).get(url(table, "encounter")).json()
    j = journal
    assert [a["id"] for a in body["results"]] == [j["brenna"].pk, j["hero_orc"].pk]
    struck = next(a for a in body["results"] if a["id"] == j["hero_orc"].pk)
    assert struck["target"] is None  # the hidden orc, unnamed
    assert struck["rolls"] == []  # the rolls at it
    assert "Orc" not in str(body)


def test_a_player_reads_only_their_characters_entries_in_the_campaign(table, journal):
    j = journal
    # alice's hero: its strike at the orc and the orc's at it are of a hidden combatant
    assert ids(as_user(table.alice).get(url(table, "campaign"))) == [j["hero_brenna"].pk]
    assert ids(as_user(table.bob).get(url(table, "campaign"))) == [
        j["brenna"].pk, j["hero_brenna"].pk]
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, hidden=False)
    assert ids(as_user(table.alice).get(url(table, "campaign"))) == [
        j["orc_hero"].pk, j["hero_orc"].pk, j["hero_brenna"].pk]  # revealed: read again


@pytest.mark.parametrize("scope", ["campaign", "encounter"])
def test_a_stranger_gets_404_and_anonymous_401(table, journal, scope):
    stranger = factories.user("eve")
    response = as_user(stranger).get(url(table, scope))
    assert response.status_code == 404
    assert response.json()["code"] in ("no_such_campaign", "not_found", "no_such_encounter")
    assert APIClient().get(url(table, scope)).status_code == 401


@pytest.mark.parametrize("path", ["/api/campaigns/999999/journal/",
                                  "/api/encounters/999999/journal/"])
def test_a_missing_campaign_or_encounter_is_404(table, path):
    assert as_user(table.gm).get(path).status_code == 404


def test_a_player_cannot_learn_of_a_hidden_character_by_filtering_on_it(table, journal):
    response = as_user(table.alice).get(url(table, "encounter"), {"character": table.orc.pk})
    assert ids(response) == []
    assert ids(as_user(table.gm).get(url(table, "encounter"), {"character": table.orc.pk})) \
        == [journal["orc_hero"].pk, journal["hero_orc"].pk]


# --- filters ----------------------------------------------------------------------------------

def test_filters_by_character_kind_time_and_encounter(table, journal):
    gm, j = as_user(table.gm), journal
    campaign = url(table, "campaign")
    assert ids(gm.get(campaign, {"character": table.brenna.pk})) == [
        j["brenna"].pk, j["hero_brenna"].pk]
    assert ids(gm.get(campaign, {"kind": "enc_test_blast"})) == [j["brenna"].pk,
                                                                 j["hero_brenna"].pk]
    assert len(ids(gm.get(campaign, {"kind": ["enc_test_blast", "enc_test_strike"]}))) == 4
    since, until = (NOW + timedelta(minutes=2)).isoformat(), (NOW + timedelta(minutes=3))
    assert ids(gm.get(campaign, {"since": since})) == [j["brenna"].pk, j["orc_hero"].pk]
    assert ids(gm.get(campaign, {"since": since, "until": until.isoformat()})) == [
        j["orc_hero"].pk]
    assert ids(gm.get(campaign, {"encounter": table.encounter.pk})) == [
        j["brenna"].pk, j["orc_hero"].pk, j["hero_orc"].pk]


@pytest.mark.parametrize("scope", ["campaign", "encounter"])
@pytest.mark.parametrize("query", [
    {"character": "1.0"}, {"character": " 1"}, {"character": "\u0663"}, {"character": "-1"},
    {"character": "99999999999999999999"}, {"character": "x"}, {"kind": "no_such_kind"},
    {"since": "yesterday"}, {"until": "2026-13-40"}, {"charater": "1"}, {"page": "2"},
    {"cursor": "garbage"}, {"character": "1\x00"}, {"encounter": "1"}, {"page_size": "0"}])
def test_bad_input_is_a_400_never_a_500(table, journal, scope, query):
    if scope == "campaign" and "encounter" in query:
        query = {"encounter": "1.5"}
    response = as_user(table.gm).get(url(table, scope), query)
    if "page_size" in query:  # DRF reads a page size it cannot use as the default
        assert response.status_code == 200
        return
    assert response.status_code in (400, 404), (query, response.status_code)
    assert response.json()["code"] in ("invalid_input", "invalid", "not_found")


# --- pages ------------------------------------------------------------------------------------

def _many(table, count: int) -> list[int]:
    made = [entry(table, "enc_test_blast", actor=table.brenna, minutes=i, rolls=2)
            for i in range(count)]
    return [a.pk for a in reversed(made)]


def test_pages_by_cursor_cover_every_entry_once(table):
    expected = _many(table, 7)
    gm, seen, link = as_user(table.gm), [], url(table, "encounter") + "?page_size=3"
    sizes = []
    while link:
        body = gm.get(link).json()
        sizes.append(len(body["results"]))
        seen += [a["id"] for a in body["results"]]
        link = body["next"]
    assert sizes == [3, 3, 1]
    assert seen == expected
    back = gm.get(gm.get(url(table, "encounter") + "?page_size=3").json()["next"]).json()
    assert [a["id"] for a in gm.get(back["previous"]).json()["results"]] == expected[:3]


def test_the_page_size_is_capped(table):
    _many(table, 3)
    body = as_user(table.gm).get(url(table, "campaign"), {"page_size": MAX_PAGE_SIZE + 1000})
    assert len(body.json()["results"]) == 3


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("scope", ["campaign", "encounter"])
def test_queries_do_not_grow_with_the_page(table, django_assert_num_queries, scope, who):
    user = table.gm if who == "gm" else table.bob
    client = as_user(user)
    _many(table, 2)
    counts = []
    for size in (2, 50):
        ActionRecord.objects.all().delete()
        _many(table, size)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        with CaptureQueriesContext(connection) as ctx:
            assert len(client.get(url(table, scope), {"page_size": 50}).json()["results"]) \
                == size
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
    expected = {("campaign", "gm"): 3, ("campaign", "player"): 4,
                ("encounter", "gm"): 5, ("encounter", "player"): 5}[(scope, who)]
    assert counts[0] == expected, counts
