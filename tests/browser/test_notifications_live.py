"""Issue 22, item 4, in a real browser: the game master, in their own context, ends a turn on
the encounter's control page; the player of the next turn, on another page of the site, sees
their bell count it and say "your turn" without reloading (the bell's notify-<user> topic,
campaigns.live), well before any poll; opening the bell and marking all seen empties it. A
screenshot of the player's page is kept (var/screenshots/notifications.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.browser.helpers import htmx_ready, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEEN_WITHIN_MS = 5_000


def test_the_players_bell_says_your_turn_when_the_gm_ends_the_turn(chromium, live_server):
    from playwright.sync_api import expect

    from tests.encounters.conftest import Table, register_test_system, unregister_test_system

    register_test_system()
    contexts = []
    try:
        t = Table()
        e = t.start()  # Hero's turn (alice); Brenna's (bob) comes next
        gm_context = chromium.new_context(locale="en-GB")
        bob_context = chromium.new_context(locale="en-GB", viewport={"width": 1100, "height": 700})
        contexts = [gm_context, bob_context]
        gm, bob = gm_context.new_page(), bob_context.new_page()
        log_in(gm, live_server, "gm", PASSWORD)
        log_in(bob, live_server, "bob", PASSWORD)
        gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        bob.goto(f"{live_server.url}/characters/")
        htmx_ready(bob)
        bob.wait_for_function("() => document.body.dataset.live === 'live'")
        expect(bob.get_by_test_id("bell")).to_be_visible()
        expect(bob.get_by_test_id("bell-count")).to_have_count(0)

        gm.get_by_test_id("next").click()
        expect(bob.get_by_test_id("bell-count")).to_have_text("1", timeout=SEEN_WITHIN_MS)
        bob.get_by_test_id("bell").click()
        item = bob.get_by_test_id("bell-item")
        expect(item).to_have_text(__import__("re").compile(r"It is Brenna's turn in Ambush\."))
        shots = Path(settings.BASE_DIR) / "var" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        bob.screenshot(path=str(shots / "notifications.png"))
        assert item.get_by_role("link").get_attribute("href") == f"/encounters/{e.pk}/"

        bob.get_by_test_id("bell-all").click()
        bob.get_by_test_id("seen-all").click()
        expect(bob.get_by_test_id("bell-count")).to_have_count(0, timeout=SEEN_WITHIN_MS)
        expect(bob.locator(".notifications li.seen")).to_have_count(1)
    finally:
        for context in contexts:
            context.close()
        unregister_test_system()
