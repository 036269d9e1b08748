"""The encounter pages refresh by themselves (htmx polling the version): a player is prompted to
react without reloading, answers, and the game master's page shows the result and advances."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 3_000  # a 1 s poll, with room for a busy machine


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

        services.encounter_act(
            user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
            act=lambda ctx: ctx.request_reaction(target=t.c["Brenna"],
                                                 action_payload={"damage": 4},
                                                 options=["parry"], resolver="enc_test.strike"))
        expect(bob_page.get_by_test_id("answer-parry")).to_be_visible(timeout=SWAP_MS)
        bob_page.get_by_test_id("answer-parry").click()
        expect(bob_page.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)
        expect(gm_page.get_by_test_id("log")).to_contain_text("enc_test_strike", timeout=SWAP_MS)
        expect(gm_page.get_by_test_id("log")).to_contain_text("parry")

        gm_page.get_by_test_id("next").click()
        expect(bob_page.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
        expect(bob_page.get_by_test_id("status")).to_contain_text(re.compile("Brenna's turn"))
    finally:
        unregister_test_system()
