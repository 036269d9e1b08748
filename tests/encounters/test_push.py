"""Server push (issue 11, item 6; encounters.push): a committed step sends its version on the
encounter's channel, a refused one sends nothing, a lost push never fails a step, only those
who may see the encounter read its channel, and a real stream (uvicorn, tests.asgi_server)
delivers the new fragment within a second. With REDIS_URL set (CI) that stream goes through Redis
pub/sub, as between two web processes."""

from __future__ import annotations

import json
import time

import pytest
import requests

from campaigns import live
from encounters import push, services
from encounters.errors import EncounterConflict
from tests import factories
from tests.encounters.conftest import NOW, Table
from tests.factories import PASSWORD

PUSH_WITHIN_S = 1.0


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(live, "send_event", lambda *args: calls.append(args))
    return calls


@pytest.mark.django_db
def test_a_committed_step_pushes_its_new_version(table, sent, django_capture_on_commit_callbacks):
    e = table.start()
    with django_capture_on_commit_callbacks(execute=True):
        services.encounter_next_turn(user=table.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW)
    e.refresh_from_db()
    topic = f"encounter-{e.pk}"
    assert [s for s in sent if s[0] == topic] == [
        (topic, "change", {"topic": topic, "version": e.version})]
    # and the bell of the new turn's player (notifications.live), if a player has it
    assert {s[0] for s in sent if s[0] != topic} <= {f"notify-{table.alice.pk}",
                                                    f"notify-{table.bob.pk}"}


@pytest.mark.django_db
def test_a_refused_step_pushes_nothing(table, sent, django_capture_on_commit_callbacks):
    e = table.start()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(EncounterConflict):
        services.encounter_next_turn(user=table.gm, encounter_id=e.pk,
                                     turn=e.turn_serial - 1, now=NOW)
    assert callbacks == [] and sent == []


@pytest.mark.django_db
def test_a_lost_push_is_logged_and_the_step_stands(table, monkeypatch, caplog,
                                                   django_capture_on_commit_callbacks):
    def down(*args):
        raise ConnectionError("redis down")

    monkeypatch.setattr(live, "send_event", down)
    e = table.start()
    turn = e.turn_serial
    with django_capture_on_commit_callbacks(execute=True):
        services.encounter_next_turn(user=table.gm, encounter_id=e.pk, turn=turn, now=NOW)
    assert table.reload().turn_serial == turn + 1
    assert f"push to encounter-{e.pk} failed" in caplog.text


@pytest.mark.parametrize("name, expected", [("encounter-12", 12), ("encounter-", None),
                                            ("encounter-1x", None), ("other-3", None),
                                            ("encounter--3", None)])
def test_channel_names(name, expected):
    assert push.encounter_of(name) == expected


@pytest.mark.django_db
def test_who_reads_an_encounters_channel(table):
    name = push.channel(table.encounter.pk)
    assert live.can_read(table.gm, name)
    assert live.can_read(table.alice, name) and live.can_read(table.bob, name)
    assert not live.can_read(factories.user("stranger"), name)
    assert not live.can_read(None, name)
    assert not live.can_read(table.gm, "encounter-999999")
    assert not live.can_read(table.gm, "anything-else")
    channels = live.Topics()
    assert channels.can_read_channel(table.gm, name) and not channels.is_channel_reliable(name)


@pytest.mark.django_db
def test_under_wsgi_the_stream_answers_204_so_the_page_polls(client, table):
    client.login(username="alice", password=PASSWORD)
    assert client.get(f"/encounters/{table.encounter.pk}/events/").status_code == 204


@pytest.mark.django_db
def test_a_stranger_or_a_visitor_gets_no_stream(client, table):
    url = f"/encounters/{table.encounter.pk}/events/"
    assert client.get(url).status_code == 302  # to the login page
    factories.user("stranger")
    client.login(username="stranger", password=PASSWORD)
    assert client.get(url).status_code == 404


# --- a real stream, through uvicorn -----------------------------------------------------------

def _session(live_server, username: str) -> requests.Session:
    s = requests.Session()
    page = s.get(f"{live_server.url}/accounts/login/", timeout=5)
    assert page.status_code == 200
    r = s.post(f"{live_server.url}/accounts/login/", timeout=5,
               data={"username": username, "password": PASSWORD,
                     "csrfmiddlewaretoken": s.cookies["csrftoken"]},
               headers={"Referer": f"{live_server.url}/accounts/login/"})
    assert r.status_code == 200 and "sessionid" in s.cookies
    return s


def _events(response):
    """(event, data) pairs of a server-sent event stream, as they arrive."""
    event, data = None, []
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and event is not None:
            yield event, "\n".join(data)
            event, data = None, []


@pytest.mark.django_db(transaction=True)
def test_the_stream_delivers_a_step_within_a_second(live_server):
    t = Table()
    e = t.start()
    bob = _session(live_server, "bob")
    with bob.get(f"{live_server.url}/encounters/{e.pk}/events/", stream=True, timeout=10) as r:
        assert r.status_code == 200
        assert r.headers["Content-Type"].startswith("text/event-stream")
        events = _events(r)
        assert next(events)[0] == "stream-open"
        started = time.monotonic()
        services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW)
        event, data = next(events)
        elapsed = time.monotonic() - started
    # Bob's new fragment itself (encounters.streamed; tests/encounters/test_streamed.py).
    assert event == "body"
    assert json.loads(data)["version"] == t.reload().version
    assert elapsed < PUSH_WITHIN_S


@pytest.mark.django_db(transaction=True)
def test_the_stream_refuses_strangers_and_proxy_parameters(live_server):
    t = Table()
    factories.user("stranger")
    url = f"{live_server.url}/encounters/{t.encounter.pk}/events/"
    assert _session(live_server, "stranger").get(url, timeout=5).status_code == 404
    assert _session(live_server, "bob").get(url + "?recover=true", timeout=5).status_code == 400
