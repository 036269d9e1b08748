"""The journal API and the paged lists under a hostile client (campaigns.api_lists): a cursor
rewritten by hand, page numbers and sizes that are no numbers, filters on what the player may
not know of, a stranger. A clear 4xx, never a 500, and nothing hidden read."""

from __future__ import annotations

import base64
from urllib.parse import urlencode

import pytest
from rest_framework.test import APIClient

from campaigns import journal
from tests import factories
from tests.chat.conftest import NOW
from tests.chat.conftest import table as chat_table  # noqa: F401  the fixture "table"

pytestmark = pytest.mark.django_db


@pytest.fixture(name="table")
def _table(chat_table):  # noqa: F811  the chat's table (tests.chat.conftest)
    return chat_table


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _cursor(**fields) -> str:
    return base64.b64encode(urlencode(fields).encode()).decode()


BAD_POSITIONS = [_cursor(p="garbage"), _cursor(p="\x00"), _cursor(p="2026-13-45T99:00:00")]
CURSORS = [*BAD_POSITIONS, "garbage", "!!!", "\x00", _cursor(o="-5"), _cursor(o="x"),
           _cursor(o="99999999999999999999"), _cursor(r="2"),
           _cursor(p="1" * 5000),  # Python reads it as 1111-11-11 11:11:11.111111
           _cursor(p="2026-01-01T12:00:00+00:00", o="1", r="1")]


@pytest.mark.parametrize("cursor", CURSORS)
@pytest.mark.parametrize("who", ["gm", "alice"])
def test_a_tampered_cursor_is_a_4xx_never_a_500(table, cursor, who):
    t = table
    journal.record_action(campaign=t.campaign, kind="encounter_action_spent", now=NOW,
                          user=t.gm, summary={"encounter": t.encounter.pk})
    api = _api(getattr(t, who))
    for url in (f"/api/campaigns/{t.campaign.pk}/journal/",
                f"/api/encounters/{t.encounter.pk}/journal/"):
        answer = api.get(url, {"cursor": cursor})
        # DRF reads what it can (a cursor it cannot decode is the first page) and refuses
        # the rest as "Invalid cursor" (404); a position that is no time too (it was a 500)
        expected = (404,) if cursor in BAD_POSITIONS else (200, 404)
        assert answer.status_code in expected, (url, cursor, answer.status_code)


@pytest.mark.parametrize("query", [
    {"page_size": "abc"}, {"page_size": "-1"}, {"page_size": "0"}, {"page_size": "\x00"},
    {"page_size": "9" * 40}, {"since": "yesterday"}, {"until": "\x00"},
    {"since": "9999-12-31T23:59:59+14:00"}, {"since": "0001-01-01T00:00:00-14:00"},
    {"kind": "no_such_kind"}, {"character": "1.0"}, {"character": "-1"}, {"character": "\x00"},
    {"character": str(2**63)}, {"encounter": "abc"}, {"nope": "1"},
])
def test_bad_journal_queries_are_4xx_never_a_500(table, query):
    t = table
    answer = _api(t.alice).get(f"/api/campaigns/{t.campaign.pk}/journal/", query)
    assert answer.status_code in (200, 400), (query, answer.status_code, answer.content)


@pytest.mark.parametrize("query", [
    {"page": "abc"}, {"page": "0"}, {"page": "-1"}, {"page": "\x00"}, {"page": "9" * 40},
    {"page": str(2**31)}, {"page_size": "0"}, {"page_size": "abc"}, {"page_size": "1e3"},
    {"page_size": "\x00"}, {"page": "1.5"}, {"page": "\u0661"},
])
@pytest.mark.parametrize("url", ["/api/characters/", "/api/campaigns/"])
def test_bad_pages_are_400(table, query, url):
    answer = _api(table.alice).get(url, query)
    assert answer.status_code == 400, (url, query, answer.status_code)


def test_a_page_far_past_the_end_is_empty(table):
    answer = _api(table.alice).get("/api/characters/", {"page": str(2**31 - 1),
                                                        "page_size": "200"})
    assert answer.status_code == 200
    assert answer.json() == []


def test_a_player_reads_nothing_of_a_hidden_combatant_in_the_journal(table):
    t = table
    ghoul = t.hidden
    journal.record_action(campaign=t.campaign, kind="encounter_action_spent", now=NOW,
                          user=t.gm, summary={"encounter": t.encounter.pk,
                                              "combatant": ghoul.name,
                                              "combatant_id": ghoul.pk})
    wolf = factories.CharacterFactory(campaign=t.campaign, owner=None, name="Hidden wolf",
                                      kind="creature")
    factories.CombatantFactory(encounter=t.encounter, character=wolf, hidden=True)
    journal.record_action(campaign=t.campaign, kind="encounter_action_spent", now=NOW,
                          user=t.gm, actor=wolf, target=t.alice.characters.get(),
                          summary={"encounter": t.encounter.pk, "combatant": "Hidden wolf"})
    api = _api(t.alice)
    for url in (f"/api/campaigns/{t.campaign.pk}/journal/",
                f"/api/encounters/{t.encounter.pk}/journal/",
                f"/api/campaigns/{t.campaign.pk}/journal/?character={wolf.pk}",
                f"/api/encounters/{t.encounter.pk}/journal/?character={wolf.pk}"):
        text = api.get(url).content.decode()
        assert "ghoul" not in text.lower() and "wolf" not in text.lower(), (url, text)
    assert len(_api(t.gm).get(f"/api/encounters/{t.encounter.pk}/journal/").json()[
        "results"]) == 2


def test_strangers_read_no_journal(table):
    t = table
    for who in (t.stranger, t.carol):
        assert _api(who).get(f"/api/encounters/{t.encounter.pk}/journal/").status_code == 404
    assert _api(t.stranger).get(f"/api/campaigns/{t.campaign.pk}/journal/").status_code == 404
    assert _api(t.stranger).get("/api/campaigns/99999999/journal/").status_code == 404
