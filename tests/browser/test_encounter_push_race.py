"""A refetch that left before the page's own step answered must not undo what the player did
since (static/js/encounter-push.js): the GM starts the encounter, the start's push makes the
page refetch while the start's answer is still on its way, the GM picks a target from the
answer's attack form, and the late refetch, which shows the version the answer already showed,
is not swapped in over the form. Found as a flaky journey: the late swap reset the target to
the form's default and the Guard shot Ava instead of Bo."""

from __future__ import annotations

import time

import pytest

from tests.browser.helpers import log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LATE_S = 1.5  # how long the refetch is held back: past the start's answer and the GM's pick
ANSWER_HELD_S = 0.5  # how long the start's answer is held back: past its push


def test_a_late_refetch_does_not_reset_the_form_the_gm_is_filling(chromium, live_server,
                                                                  alice, bob, monkeypatch):
    from playwright.sync_api import expect

    from encounters import pages
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world

    # The refetch this test races comes after a bare change: the stream sends that when it
    # cannot push the fragment itself (encounters.streamed), as here.
    monkeypatch.setattr(pages, "pushed_fragment", lambda *args, **kwargs: None)

    ep = build_world(alice, bob)
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Habitat breach")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.guard, ep.ava, ep.bo)])
    context = chromium.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    gm = context.new_page()
    log_in(gm, live_server, "gm", PASSWORD)
    held: list[str] = []

    def late(route):
        held.append(route.request.url)
        time.sleep(LATE_S)  # the refetch's answer comes after the start's
        route.continue_()

    def answered_late(route):
        # The start's answer reaches the page after its push does, whatever the machine's load
        # (under load the answer could come first, and then no refetch would leave at all).
        response = route.fetch()
        time.sleep(ANSWER_HELD_S)
        route.fulfill(response=response)

    try:
        gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        gm.wait_for_function("() => document.body.dataset.push === 'live'")
        gm.route(f"**/encounters/{e.pk}/control/?v=*", late)
        gm.route(f"**/encounters/{e.pk}/start/", answered_late)
        gm.get_by_test_id("start").click()
        expect(gm.get_by_test_id("attack-form")).to_be_visible()
        gm.get_by_test_id("attack-target").select_option(label="Bo")
        deadline = time.monotonic() + 10
        while not held and time.monotonic() < deadline:  # the push's refetch has left
            gm.wait_for_timeout(100)
        assert held, "the start's push made no refetch"
        gm.wait_for_timeout(LATE_S * 1000 + 500)  # and come back
        chosen = gm.get_by_test_id("attack-target")
        assert chosen.locator("option:checked").inner_text() == "Bo"
    finally:
        context.close()
