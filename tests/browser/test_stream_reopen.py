"""A page whose stream dropped and whose reconnect was refused opens it again (static/js/live.js,
static/js/encounter-push.js): after a restart behind a proxy, or during the reconnect storm the
server answers some openings 503, and a browser's EventSource gives up for good on an answer that
is not a stream. Here the first opening is a stream that ends at once (the drop), the browser's
own reconnect is refused with 503 (it gives up), and the page's reopen, a few seconds later,
reaches the real stream."""

from __future__ import annotations

import pytest

from tests.browser.helpers import log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
REOPENED_WITHIN_MS = 15_000  # the first reopen waits 2.5 to 5 s (REOPEN_MS, halved at least)


def _drop_then_refuse(answers: list[int]):
    """A route handler: a stream that ends at once, then a 503, then the real server."""
    def handle(route):
        if not answers:
            answers.append(200)
            route.fulfill(status=200, content_type="text/event-stream",
                          body="retry: 200\n\nevent: stream-open\ndata: \n\n")
        elif len(answers) == 1:
            answers.append(503)
            route.fulfill(status=503, headers={"Retry-After": "5"}, body="busy")
        else:
            answers.append(0)  # passed on
            route.continue_()
    return handle


def _reopens(page, flag: str, answers: list[int]) -> None:
    """The page went through the drop and the refusal, then reopened onto the real stream."""
    waited = 0
    while answers[:2] != [200, 503] and waited < REOPENED_WITHIN_MS:
        page.wait_for_timeout(100)
        waited += 100
    assert answers[:2] == [200, 503], answers
    page.wait_for_function(
        f"() => document.body.dataset.{flag} === 'live'", timeout=REOPENED_WITHIN_MS)
    assert answers[2:] == [0]  # one reopen, passed on to the server


def test_the_encounter_page_reopens_a_refused_stream(chromium, live_server, alice, bob):
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world

    ep = build_world(alice, bob)
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Habitat breach")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.guard, ep.ava)])
    context = chromium.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        log_in(page, live_server, "gm", PASSWORD)
        answers: list[int] = []
        page.route(lambda url: f"/encounters/{e.pk}/events/" in url, _drop_then_refuse(answers))
        page.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        _reopens(page, "push", answers)
    finally:
        context.close()


def test_a_live_board_reopens_a_refused_stream(demo, chromium, live_server):
    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    context = chromium.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        log_in(page, live_server, "alice")
        answers: list[int] = []
        page.route(lambda url: "/live/?t=" in url, _drop_then_refuse(answers))
        page.goto(f"{live_server.url}/characters/{aldric.pk}/board/")
        _reopens(page, "live", answers)
    finally:
        context.close()


def test_a_refused_refetch_is_made_again_before_the_safety_poll(chromium, live_server, alice,
                                                                bob, monkeypatch):
    """When the stream sends the bare change rather than the new fragment (here: none can be
    rendered), the page refetches; a refetch the server refuses (503 while busy) is made again
    after a few seconds (encounter-push.js), not at the minute's safety poll."""
    from playwright.sync_api import expect

    from encounters import pages
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world

    monkeypatch.setattr(pages, "pushed_fragment", lambda *args, **kwargs: None)

    ep = build_world(alice, bob)
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Habitat breach")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.guard, ep.ava)])
    context = chromium.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    refused: list[str] = []

    def busy_once(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "5"}, body="busy")
        else:
            route.continue_()

    try:
        page = context.new_page()
        log_in(page, live_server, "gm", PASSWORD)
        page.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        page.wait_for_function("() => document.body.dataset.push === 'live'")
        page.wait_for_timeout(1000)  # the refetch of the stream's opening (200 ms at most) is over
        version = page.locator("#encounter").get_attribute("data-version")
        page.route(lambda url: f"/encounters/{e.pk}/control/?v=" in url, busy_once)
        enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")  # pushed to the page
        expect(page.locator("#encounter")).not_to_have_attribute(
            "data-version", version, timeout=REOPENED_WITHIN_MS)
        assert len(refused) == 1
    finally:
        context.close()
