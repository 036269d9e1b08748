"""The refetch wave after a step (issue 17, item 2): the fragment's body is rendered once per
version and kind of viewer and read from the cache by every other page; what differs per
request (the CSRF token, the error, the polling triggers) is not shared; a step's htmx answer
carries only what changed, out of band."""

from __future__ import annotations

import json
import re

import pytest
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client

from encounters import pages, selectors, services
from tests.encounters.conftest import Table
from tests.encounters.test_pages import strike_brenna
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# 16 before issue 20 (the lock reads the combatants), 15 before the answer took the effects the
# step read (encounters.handoff)
QUERIES_START = 14


def logged_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def renders(monkeypatch):
    """How many times the pages built an EncounterView (each full render builds one)."""
    calls = []
    real = selectors.encounter_view

    def counting(**kw):
        calls.append(kw["user"].username)
        return real(**kw)

    monkeypatch.setattr(selectors, "encounter_view", counting)
    return calls


def fragment(client, e, page="play", seen=0):
    url = f"/encounters/{e.pk}/{'control/' if page == 'control' else ''}?v={seen}"
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_fifty_refetches_of_one_version_cost_one_render_per_kind_of_viewer(db, renders):
    t = Table(extra=17)  # 20 combatants
    e = t.start()
    pages = ([(logged_in(t.gm), "control")] + [(logged_in(t.alice), "play")] * 25
             + [(logged_in(t.bob), "play")] * 24)
    t.next()  # the step; every page refetches the new version
    e = t.reload()
    renders.clear()
    bodies = {}
    for client, page in pages:
        html = fragment(client, e, page, seen=e.version - 1)
        assert f'data-version="{e.version}"' in html
        bodies.setdefault(page, set()).add(re.sub(r'value="[^"]{64}"', "", html))
    assert sorted(renders) == ["alice", "bob", "gm"]
    assert len(bodies["control"]) == 1 and len(bodies["play"]) == 2  # alice's differs from bob's


def test_a_cached_refetch_costs_the_session_the_user_and_the_viewer(
        client, db, django_assert_num_queries):
    t = Table(extra=17)
    e = t.start()
    r = services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                               act=strike_brenna, costs_action=False)
    services.answer_reaction(user=t.bob, reaction_id=r.pk, choice="parry")
    services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                           act=strike_brenna, costs_action=False)
    e = t.reload()
    other = logged_in(t.bob)
    fragment(other, e, seen=e.version - 1)  # another page of bob's rendered this version
    assert client.login(username="bob", password=PASSWORD)
    client.get(f"/encounters/{e.pk}/?v={e.version}", **HTMX)  # session warm
    with django_assert_num_queries(3):  # session, user, the viewer (the body: the cache)
        html = fragment(client, e, seen=e.version - 1)
    assert html.count('data-testid="reaction"') == 1 and 'data-name="Goblin 17"' in html


def test_each_page_gets_its_own_csrf_token_in_a_shared_body(db):
    t = Table()
    e = t.start()
    services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                           act=strike_brenna, costs_action=False)
    e = t.reload()
    first, second = logged_in(t.bob), logged_in(t.bob)
    for client in (first, second):
        html = fragment(client, e, seen=e.version - 1)
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        secret = client.cookies["csrftoken"].value
        assert tokens and all(_unmask_cipher_token(tok) == secret for tok in tokens)
        assert "<!--csrf-token-->" not in html
    assert first.cookies["csrftoken"].value != second.cookies["csrftoken"].value


def test_what_one_viewer_sees_never_reaches_another_kind(db):
    t = Table()
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, hidden=True)
    e = t.start()
    gm_html = fragment(logged_in(t.gm), e, "play")  # the GM's play page, cached first
    assert 'data-name="Orc"' in gm_html
    alice_html = fragment(logged_in(t.alice), e)  # Hero's turn: alice's actions
    bob_html = fragment(logged_in(t.bob), e)
    assert 'data-name="Orc"' not in alice_html and 'data-name="Orc"' not in bob_html
    assert 'data-testid="end-turn"' in alice_html and 'data-testid="end-turn"' not in bob_html
    assert 'data-testid="your-turn"' not in bob_html


def test_the_body_of_another_language_is_not_shared(db):
    t = Table()
    e = t.start()
    assert "Hero's turn" in fragment(logged_in(t.bob), e)
    client = logged_in(t.bob)
    html = client.get(f"/encounters/{e.pk}/?v=0", HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    assert "Tour de Hero" in html.content.decode()


def test_a_pending_prompt_counts_down_from_now_on_a_cached_body(db):
    t = Table()
    e = t.start()
    services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                           act=strike_brenna, costs_action=False)
    e = t.reload()
    html = fragment(logged_in(t.bob), e, seen=e.version - 1)
    assert re.search(r"load delay:\d+s", html)  # in the wrapper, rendered per request


def test_the_live_page_polls_once_a_minute(db):
    t = Table()
    e = t.start()
    html = fragment(logged_in(t.bob), e)
    assert 'hx-trigger="encounter-changed, every 1s' in html and 'data-live-poll="60"' in html


@pytest.mark.parametrize("extra", [0, 17])
def test_the_step_answer_is_out_of_band_in_fixed_queries(client, db, extra,
                                                         django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    assert client.login(username="alice", password=PASSWORD)
    client.get(f"/encounters/{e.pk}/?v={e.version}", **HTMX)  # session warm
    shown = e.version
    # session, user; the step (in a savepoint here): encounter (locked) with its combatants
    # (one statement: issue 20), effects, the write; the answer: combatants (with the
    # encounter's stored columns: the step's encounter is not read again); the effects as the
    # step read them (it wrote none: encounters.handoff); the step journaled nothing: no log
    # read; no reaction pending: no query for the prompts
    with django_assert_num_queries(8) as queries:
        response = client.post(f"/encounters/{e.pk}/next/",
                               {"turn": e.turn_serial, "page": "play"}, **HTMX)
    html = response.content.decode()
    assert response["HX-Reswap"] == "none" and '<div id="encounter"' not in html
    assert 'id="enc-turn" hx-swap-oob="true"' in html and "Brenna's turn" in html
    assert 'data-testid="end-turn"' not in html  # no longer alice's turn
    assert "enc-controls" not in html  # not the control page
    assert html.count('data-testid="combatant"') == 2  # the two rows whose turn changed
    # from the version the rows were read at to the one the answer shows (the page that showed
    # the former skips the push of its own step)
    assert t.reload().version == shown + 1
    assert json.loads(response["HX-Trigger"]) == {
        "encounter-answered": {"from": shown, "to": shown + 1}}
    assert sum('FROM "encounters_encountereffect"' in q["sql"]
               for q in queries.captured_queries) == 1  # the step's read, not the answer's


def test_a_step_that_changes_the_order_sends_the_whole_order(client, table):
    e = table.start()
    assert client.login(username="gm", password=PASSWORD)
    c = table.c
    response = client.post(f"/encounters/{e.pk}/order/", {
        f"pos-{c['Hero'].pk}": 3, f"pos-{c['Brenna'].pk}": 2, f"pos-{c['Orc'].pk}": 1,
        "page": "control"}, **HTMX)
    html = response.content.decode()
    assert 'id="enc-order" hx-swap-oob="true"' in html and 'id="enc-setup"' in html
    assert html.index('data-name="Orc"') < html.index('data-name="Brenna"') \
        < html.index('data-name="Hero"')


def test_a_revealed_combatant_is_one_row_for_the_gm(client, table):
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, hidden=True)
    table.start()
    assert client.login(username="gm", password=PASSWORD)
    response = client.post(
        f"/encounters/{table.encounter.pk}/combatants/{table.c['Orc'].pk}/reveal/",
        {"page": "control"}, **HTMX)
    html = response.content.decode()
    assert '<div id="enc-order"' not in html  # its row and the turn holder's, not the order
    assert html.count('data-testid="combatant"') == 2
    assert f'<tr id="enc-row-{table.c["Orc"].pk}" hx-swap-oob="true"' in html
    assert "(hidden)" not in html


def test_a_page_waits_for_the_render_of_another_page_of_its_kind(db, renders, settings):
    from django.core.cache import cache

    settings.ENCOUNTER_BODY_RENDER_WAIT = 0.3
    t = Table()
    e = t.start()
    viewer = selectors.encounter_viewer(user=t.bob, encounter_id=e.pk)
    key = pages.fragment_key(viewer, "play")
    cache.add(key + ":rendering", 1)  # another page of bob's is rendering this version
    renders.clear()
    html = fragment(logged_in(t.bob), e)  # it never stores it: this page renders after all
    assert renders == ["bob"] and "Hero's turn" in html
    assert cache.get(key) is not None and cache.get(key + ":rendering") is None
    renders.clear()
    fragment(logged_in(t.bob), e)
    assert renders == []  # the body it stored is shared



@pytest.mark.parametrize("extra", [0, 17])
def test_a_journaling_step_answer_reads_its_entries_in_fixed_queries(
        client, db, extra, django_assert_num_queries, monkeypatch):
    import random

    # Seeded dice: an order rolled the same as the combatants' places would not send the
    # setup (nothing moved in the order) and read one query fewer, one run in a few.
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(7))
    t = Table(extra=extra)
    assert client.login(username="gm", password=PASSWORD)
    client.get(f"/encounters/{t.encounter.pk}/control/?v=0", **HTMX)  # session warm
    # session, user; the step (its writes: ranks, the initiative's entry and its rolls in two
    # INSERTs, the encounter); the answer: combatants (with the encounter's stored columns:
    # the step's encounter not read again), the new entries and their rolls, the
    # characters the GM may add (setup: the order came). The same with 3 and 20 combatants.
    with django_assert_num_queries(QUERIES_START) as queries:
        response = client.post(f"/encounters/{t.encounter.pk}/start/",
                               {"mode": "rolled", "page": "control"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and 'hx-swap-oob="afterbegin:#enc-log"' in html
    reads = [q["sql"] for q in queries.captured_queries]
    assert sum(sql.startswith("SELECT") and 'FROM "encounters_encounter"' in sql
               for sql in reads) == 1  # the lock; the answer shows the object the step saved
    assert sum(sql.startswith("SELECT") and 'FROM "campaigns_actionrecord"' in sql
               for sql in reads) == 1


def test_a_handed_encounter_changed_behind_its_back_is_read_again(db):
    from django.db.models import F

    from encounters.models import Encounter

    t = Table()
    e = t.start()
    held = Encounter.objects.select_related("campaign").get(pk=e.pk)
    Encounter.objects.filter(pk=e.pk).update(round=7, version=F("version") + 1)
    view = selectors.encounter_view(user=t.gm, encounter_id=e.pk, encounter=held)
    assert (view.encounter.round, view.encounter.version) == (7, e.version + 1)
    assert view.encounter is not held
    same = Encounter.objects.select_related("campaign").get(pk=e.pk)
    assert selectors.encounter_view(user=t.gm, encounter_id=e.pk, encounter=same).encounter \
        is same


def test_the_gms_step_answer_and_its_cached_body_never_reach_a_player(db):
    t = Table(extra=2)
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, hidden=True)
    e = t.start()
    gm = logged_in(t.gm)
    for page in ("control", "play"):  # after the GM's step, the GM's bodies (cached) name it
        answer = gm.post(f"/encounters/{e.pk}/next/", {"turn": t.reload().turn_serial,
                                                       "page": page}, **HTMX)
        assert answer.status_code == 200 and answer["HX-Reswap"] == "none"
        assert 'data-name="Orc"' in fragment(gm, e, page, seen=t.reload().version - 1)
    version = t.reload().version
    for player in (t.alice, t.bob):  # the same version, from the cache the GM's filled
        html = fragment(logged_in(player), e, seen=version - 1)
        assert f'data-version="{version}"' in html and 'data-name="Orc"' not in html
        assert "Orc" not in html
    gm_key = pages.fragment_key(selectors.encounter_viewer(user=t.gm, encounter_id=e.pk), "play")
    bob_key = pages.fragment_key(selectors.encounter_viewer(user=t.bob, encounter_id=e.pk), "play")
    assert ":gm:" in gm_key and ":player:" in bob_key and gm_key != bob_key


def test_the_journal_recording_counts_what_its_block_wrote(db):
    from campaigns import journal

    t = Table()
    with journal.recording() as outer:
        with journal.recording() as inner:
            services.encounter_start(user=t.gm, encounter_id=t.encounter.pk, mode="rolled")
        with journal.recording() as quiet:
            t.next()
    assert inner.wrote and outer.entries == inner.entries  # the enclosing block counts them
    assert not quiet.wrote  # a next turn journals nothing
    with journal.recording() as after:
        pass
    assert after.entries == 0
