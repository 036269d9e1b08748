"""The encounter pages refresh by themselves (the server pushes each new version, the fragment
fetches itself; without the push it polls): a player is prompted to react without reloading,
answers, and the game master's page shows the result and advances."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000  # well under the minute between a live page's safety polls: the push brings it


def test_prompt_answer_and_next_turn_without_reloading(chromium, live_server):
    from playwright.sync_api import expect

    from encounters import services
    from tests.encounters.conftest import Table, register_test_system, unregister_test_system

    register_test_system()
    try:
        t = Table()
        e = t.start()
        gm_page = chromium.new_context(locale="en-GB").new_page()
        bob_page = chromium.new_context(locale="en-GB").new_page()
        log_in(gm_page, live_server, "gm", PASSWORD)
        log_in(bob_page, live_server, "bob", PASSWORD)
        gm_page.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        bob_page.goto(f"{live_server.url}/encounters/{e.pk}/")
        expect(bob_page.get_by_test_id("status")).to_contain_text("Hero's turn")
        for p in (gm_page, bob_page):
            expect(p.locator("body")).to_have_attribute("data-push", "live")

        services.encounter_act(
            user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
            act=lambda ctx: ctx.request_reaction(target=t.c["Brenna"],
                                                 action_payload={"damage": 4},
                                                 options=["parry"], resolver="enc_test.strike"))
        expect(bob_page.get_by_test_id("answer-parry")).to_be_visible(timeout=SWAP_MS)
        bob_page.get_by_test_id("answer-parry").click()
        expect(bob_page.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)
        expect(gm_page.get_by_test_id("log")).to_contain_text("Hero acts on Brenna",
                                                              timeout=SWAP_MS)
        expect(gm_page.get_by_test_id("log")).to_contain_text("reaction: Parry")

        gm_page.get_by_test_id("next").click()
        expect(bob_page.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
        expect(bob_page.get_by_test_id("status")).to_contain_text(re.compile("Brenna's turn"))
    finally:
        unregister_test_system()


def test_the_game_master_drags_a_row_to_set_the_order(chromium, live_server):
    from playwright.sync_api import expect

    from tests.encounters.conftest import Table, register_test_system, unregister_test_system

    register_test_system()
    try:
        t = Table()
        e = t.start()
        before = [c.name for c in t.reload().combatants.filter(removed=False).order_by("rank")]
        assert before[0] != "Orc"
        gm_page = chromium.new_context(locale="en-GB").new_page()
        log_in(gm_page, live_server, "gm", PASSWORD)
        gm_page.goto(f"{live_server.url}/encounters/{e.pk}/control/")
        rows = gm_page.locator("tr[data-draggable]")
        expect(rows.first).to_have_attribute("data-name", before[0])
        # Drag the Orc's row onto the first row: it takes the first place, the others follow.
        with gm_page.expect_response(lambda r: r.url.endswith("/order/")) as answered:
            gm_page.locator("tr[data-draggable][data-name='Orc'] td:nth-child(2)").drag_to(
                rows.first.locator("td:nth-child(2)"))
        assert answered.value.status == 200
        expect(gm_page.get_by_test_id("error")).to_have_count(0)
        expect(gm_page.locator("tr[data-draggable]").first).to_have_attribute(
            "data-name", "Orc", timeout=SWAP_MS)
        after = [c.name for c in t.reload().combatants.filter(removed=False).order_by("rank")]
        assert after == ["Orc", *(n for n in before if n != "Orc")]
    finally:
        unregister_test_system()
