"""The encounter's stream and the fragment it pushes (encounters.streamed) attacked: a combatant
hidden while a player's stream is open, a player's character removed or given to someone else,
a co-game master removed while their control stream is open, a player asking for the control
page's stream, garbage ``?page=`` values. Nothing hidden reaches a viewer by the stream: each
gets the fragment of the kind they are now, or the bare change."""

from __future__ import annotations

import json

import pytest

from campaigns.services import campaign_master_add, campaign_master_remove
from characters.models import Character
from encounters import services
from tests import factories
from tests.encounters.conftest import Table, enc_system
from tests.encounters.test_push import _events, _session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("enc_system")]
_ = enc_system  # the test rule system, registered for each test


def _next(events) -> tuple[str, str]:
    """The next ``body`` or ``change`` event (keep-alives and the opening skipped)."""
    for event, data in events:
        if event in {"body", "change"}:
            return event, data
        assert event in {"stream-open", "keep-alive"}, (event, data)
    raise AssertionError("the stream ended")


def _open(live_server, session, e, page: str = "play"):
    return session.get(f"{live_server.url}/encounters/{e.pk}/events/", params={"page": page},
                       stream=True, timeout=10)


def test_a_combatant_hidden_while_a_players_stream_is_open_is_not_pushed_to_them(live_server):
    t = Table()
    e = t.start()
    bob = _session(live_server, "bob")
    with _open(live_server, bob, e) as stream:
        events = _events(stream)
        assert next(events)[0] == "stream-open"
        services.combatant_update(user=t.gm, encounter_id=e.pk, combatant_id=t.c["Orc"].pk,
                                  hidden=True)
        event, data = _next(events)
    assert event == "body" and "Orc" not in json.loads(data)["html"]


def test_a_player_given_away_gets_no_fragment_of_their_old_kind(live_server, caplog):
    t = Table()
    e = t.start()
    bob = _session(live_server, "bob")
    with _open(live_server, bob, e) as stream:
        events = _events(stream)
        assert next(events)[0] == "stream-open"
        Character.objects.filter(pk=t.brenna.pk).update(owner=t.alice)  # the GM reassigns
        t.next()
        event, _data = _next(events)
    assert event == "change"
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # refused, not failed


@pytest.mark.parametrize("page", ["control", "control\x00", "../control", "x" * 3000, ""])
def test_a_player_asking_for_the_control_stream_never_gets_the_control_fragment(live_server,
                                                                                page, caplog):
    t = Table()
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, hidden=True)
    e = t.start()
    bob = _session(live_server, "bob")
    with _open(live_server, bob, e, page) as stream:
        assert stream.status_code == 200
        events = _events(stream)
        assert next(events)[0] == "stream-open"
        t.next()
        event, data = _next(events)
    if event == "body":
        html = json.loads(data)["html"]
        assert "Orc" not in html and "/control/" not in html
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_removed_co_game_master_gets_only_the_bare_change(live_server):
    t = Table()
    factories.user("carol")
    campaign_master_add(user=t.gm, campaign_id=t.campaign.pk, username="carol")
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, hidden=True)
    e = t.start()
    carol = _session(live_server, "carol")
    with _open(live_server, carol, e, "control") as stream:
        events = _events(stream)
        assert next(events)[0] == "stream-open"
        t.next()
        event, data = _next(events)
        assert event == "body" and "Orc" in json.loads(data)["html"]  # a co-GM sees it
        campaign_master_remove(user=t.gm, campaign_id=t.campaign.pk,
                               master_id=t.campaign.masters.get().user_id)
        t.next()
        event, _data = _next(events)
    assert event == "change"


def test_two_players_whose_characters_are_hidden_do_not_share_a_body(live_server):
    t = Table()
    for name in ("Hero", "Brenna"):
        services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                                  combatant_id=t.c[name].pk, hidden=True)
    e = t.start()
    alice, bob = _session(live_server, "alice"), _session(live_server, "bob")
    url = f"{live_server.url}/encounters/{e.pk}/?v=0"
    pages = {}
    for name, s in (("bob", bob), ("alice", alice)):
        r = s.get(url, headers={"HX-Request": "true"}, timeout=10)
        pages[name] = (r.status_code, r.text)
    with _open(live_server, bob, e) as bob_stream, _open(live_server, alice, e) as alice_stream:
        bob_events, alice_events = _events(bob_stream), _events(alice_stream)
        assert next(bob_events)[0] == next(alice_events)[0] == "stream-open"
        t.next()
        pushed = {"bob": _next(bob_events), "alice": _next(alice_events)}
    assert [status for status, _html in pages.values()] == [200, 200]  # each sees their own
    for who, other in (("bob", "Hero"), ("alice", "Brenna")):
        _status, html = pages[who]
        assert other not in html, who
        event, data = pushed[who]
        assert event == "change" or other not in json.loads(data)["html"], who
