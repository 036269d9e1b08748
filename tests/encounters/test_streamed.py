"""The fragment pushed in the stream (issue 17, item 2; encounters.streamed): after a step each
open page receives its own new fragment (a ``body`` event) instead of a bare change, exactly what
its refetch would answer (its own CSRF token in it), nothing hidden from its viewer in it; a user
who may no longer see the encounter receives the bare change (the refetch then answers 404).
The roster's viewer is the refetch's (selectors.roster, selectors.encounter_viewer)."""

from __future__ import annotations

import json
import re

import pytest
import requests

from encounters import pages, selectors, services
from encounters.models import Combatant
from tests import factories
from tests.encounters.conftest import NOW, Table
from tests.encounters.test_push import _events, _session

pytestmark = pytest.mark.django_db(transaction=True)

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _hide_orc(t: Table) -> None:
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, hidden=True)


def _next_body(events) -> dict:
    """The next ``body`` event's data (keep-alives and the opening skipped)."""
    for event, data in events:
        if event == "body":
            return json.loads(data)
        assert event in {"stream-open", "keep-alive"}, (event, data)
    raise AssertionError("the stream ended")


def _refetch(s: requests.Session, url: str) -> str:
    r = s.get(url, headers={"HX-Request": "true"}, timeout=10)
    assert r.status_code == 200
    return r.text


def _without_tokens(html: str) -> str:
    return _CSRF.sub('name="csrfmiddlewaretoken" value=""', html).strip()


def test_a_step_pushes_each_viewer_the_fragment_its_refetch_answers(live_server):
    t = Table()
    _hide_orc(t)
    e = t.start()
    gm, bob = _session(live_server, "gm"), _session(live_server, "bob")
    base = f"{live_server.url}/encounters/{e.pk}"
    with (bob.get(f"{base}/events/?page=play", stream=True, timeout=10) as bob_stream,
          gm.get(f"{base}/events/?page=control", stream=True, timeout=10) as gm_stream):
        bob_events, gm_events = _events(bob_stream), _events(gm_stream)
        assert next(bob_events)[0] == next(gm_events)[0] == "stream-open"
        t.next()
        to_bob, to_gm = _next_body(bob_events), _next_body(gm_events)
    version = t.reload().version
    assert to_bob["version"] == to_gm["version"] == version
    assert to_bob["html"].startswith(f'<div id="encounter" data-version="{version}"')
    assert 'events/?page=control' in to_gm["html"]
    # What each refetch answers at that version, tokens aside.
    assert _without_tokens(to_bob["html"]) == _without_tokens(_refetch(bob, f"{base}/?v=0"))
    assert _without_tokens(to_gm["html"]) == _without_tokens(
        _refetch(gm, f"{base}/control/?v=0"))
    assert "Orc" not in to_bob["html"] and "Orc" in to_gm["html"]
    # Each stream's own CSRF token: bob's works for bob's session.
    token = _CSRF.search(to_bob["html"]).group(1)
    r = bob.post(f"{live_server.url}/accounts/logout/", data={"csrfmiddlewaretoken": token},
                 headers={"Referer": f"{base}/"}, timeout=10, allow_redirects=False)
    assert r.status_code == 302


def test_a_viewer_who_may_no_longer_see_the_encounter_gets_the_bare_change(live_server):
    t = Table()
    e = t.start()
    bob = _session(live_server, "bob")
    with bob.get(f"{live_server.url}/encounters/{e.pk}/events/", stream=True,
                 timeout=10) as r:
        events = _events(r)
        assert next(events)[0] == "stream-open"
        services.combatant_remove(user=t.gm, encounter_id=e.pk,
                                  combatant_id=t.c["Brenna"].pk, now=NOW)
        event, data = next(events)
    assert event == "change"
    assert json.loads(data)["version"] == t.reload().version
    assert _refetch_status(bob, f"{live_server.url}/encounters/{e.pk}/?v=0") == 404


def _refetch_status(s: requests.Session, url: str) -> int:
    return s.get(url, headers={"HX-Request": "true"}, timeout=10).status_code


def test_the_roster_gives_each_user_the_viewer_of_their_refetch(table):
    _hide_orc(table)
    brenna = Combatant.objects.get(pk=table.c["Brenna"].pk)
    staff = factories.user("staff", is_staff=True)
    stranger = factories.user("stranger")
    e = table.reload()
    roster = selectors.roster(e.pk)
    assert roster.viewer_for(stranger) is None
    bob = roster.viewer_for(table.bob)
    assert (bob.gm, bob.mine, bob.version) == (False, (brenna.pk,), e.version)
    gm, by_staff = roster.viewer_for(table.gm), roster.viewer_for(staff)
    assert gm.gm and by_staff.gm and gm.mine == by_staff.mine == ()  # no character of theirs
    # Bob's combatant hidden: he no longer plays it as a player; removed: he sees nothing.
    Combatant.objects.filter(pk=brenna.pk).update(hidden=True)
    assert selectors.roster(e.pk).viewer_for(table.bob).mine == ()
    Combatant.objects.filter(pk=brenna.pk).update(removed=True)
    assert selectors.roster(e.pk).viewer_for(table.bob) is None
    assert selectors.roster(10**9) is None


def test_a_fragment_read_after_the_encounter_moved_on_is_not_pushed(table, rf):
    e = table.start()
    viewer = selectors.encounter_viewer(user=table.bob, encounter_id=e.pk)
    table.next()  # a step after the viewer was read: its kind may have changed since
    request = rf.get("/")
    request.user = table.bob
    assert pages.pushed_fragment(request, viewer, "play", language="en", zone="UTC") is None
    current = selectors.encounter_viewer(user=table.bob, encounter_id=e.pk)
    html = pages.pushed_fragment(request, current, "play", language="en", zone="UTC")
    assert html.startswith(f'<div id="encounter" data-version="{current.version}"')
    assert str(pages.CSRF_HOLE) in html


def test_a_stream_whose_session_no_longer_signs_its_user_in_gets_the_bare_change(live_server):
    """A stream outlives the request that checked its user: signed out elsewhere, deactivated
    or with the password changed, it pushes no fragment of its own any more."""
    from django.contrib.sessions.models import Session

    t = Table()
    e = t.start()
    bob, alice = _session(live_server, "bob"), _session(live_server, "alice")
    url = f"{live_server.url}/encounters/{e.pk}/events/"
    with (bob.get(url, stream=True, timeout=10) as bob_stream,
          alice.get(url, stream=True, timeout=10) as alice_stream):
        bob_events, alice_events = _events(bob_stream), _events(alice_stream)
        assert next(bob_events)[0] == next(alice_events)[0] == "stream-open"
        Session.objects.filter(session_key=bob.cookies["sessionid"]).delete()  # signed out
        t.alice.set_password("changed-elsewhere-42")
        t.alice.save()
        t.next()
        assert next(bob_events)[0] == "change"
        assert next(alice_events)[0] == "change"


def test_signed_in_reads_sessions_as_get_user_does():
    from django.test import Client

    from campaigns.signed_in import signed_in

    users = [factories.user(name) for name in ("ann", "ben", "cid")]
    keys = []
    for user in users:  # a browser each
        browser = Client()
        browser.force_login(user)
        keys.append(browser.session.session_key)
    assert signed_in([*keys, "", "no-such-key"]) == set(keys)
    users[1].is_active = False
    users[1].save()
    users[2].set_password("another-one-42")
    users[2].save()
    assert signed_in(keys) == {keys[0]}
