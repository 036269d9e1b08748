"""Issue 22, item 3, in a real browser: the game master and a player, each in their own
context, have the campaign's chat open; what one posts (a message, a free roll graded by the
homebrew's rules, a whisper) shows on the other's page without reload, through the page's
stream (campaigns.live), well before the 30 s poll. A screenshot of the player's page is kept
(var/screenshots/chat.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.browser.helpers import htmx_ready, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEEN_WITHIN_MS = 2_500


@pytest.fixture
def table(transactional_db):
    from tests import factories

    gm = factories.user("gm")
    campaign = factories.HomebrewCampaignFactory(game_master=gm, name="Table talk")
    alice = factories.user("alice")
    factories.CharacterFactory(campaign=campaign, owner=alice, name="Ash")
    return campaign


def _open(chromium, live_server, username, url):
    context = chromium.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, username, PASSWORD)
    page.goto(url)
    htmx_ready(page)
    page.wait_for_function("() => document.body.dataset.live === 'live'")
    return context, page


def _send(page, text, to="all"):
    form = page.get_by_test_id("chat-form")
    form.get_by_test_id("chat-text").fill(text)
    form.get_by_test_id("chat-to").select_option(to)
    form.get_by_test_id("chat-send").click()


def test_the_gm_and_a_player_see_each_others_messages_and_rolls_live(chromium, live_server,
                                                                       table):
    from playwright.sync_api import expect

    url = f"{live_server.url}/chat/campaigns/{table.pk}/"
    contexts = []
    try:
        gm_context, gm = _open(chromium, live_server, "gm", url)
        player_context, player = _open(chromium, live_server, "alice", url)
        contexts = [gm_context, player_context]
        messages = {who: page.get_by_test_id("chat-messages") for who, page in
                    (("gm", gm), ("player", player))}

        _send(player, "Hello, **game master**!")
        expect(messages["gm"]).to_contain_text("Hello, game master!", timeout=SEEN_WITHIN_MS)
        expect(messages["gm"].locator("strong")).to_have_text("game master")
        expect(player.get_by_test_id("chat-text")).to_have_value("")  # the form is fresh

        _send(gm, "/roll d100 <= 55")
        card = messages["player"].get_by_test_id("roll-card")
        expect(card).to_contain_text("rolls d100 ≤ 55", timeout=SEEN_WITHIN_MS)
        expect(card.get_by_test_id("grade")).to_have_text(
            __import__("re").compile("Critical success|Success|Failure|Critical failure"))

        _send(player, "/roll 2d6+3")
        expect(messages["gm"].get_by_test_id("roll-card").last).to_contain_text(
            "rolls 2d6+3", timeout=SEEN_WITHIN_MS)

        _send(player, "A word for you alone", to="gm")
        expect(messages["gm"]).to_contain_text("A word for you alone", timeout=SEEN_WITHIN_MS)
        expect(messages["gm"].get_by_test_id("chat-whisper")).to_have_text(
            "whispers to the game master")

        _send(player, "/roll 1000d1000000")
        expect(player.get_by_test_id("chat-error")).to_contain_text("between 1 and 100 dice")

        shots = Path(settings.BASE_DIR) / "var" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        player.screenshot(path=str(shots / "chat.png"), full_page=True)
        gm.screenshot(path=str(shots / "chat-gm.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_the_encounters_chat_panel_is_live_beside_the_encounter(chromium, live_server,
                                                                 transactional_db):
    """The panel on the encounter's pages (the GM's controls, the player's view): loaded by
    htmx, bound to the encounter's chat topic from the page's first render."""
    from playwright.sync_api import expect

    from tests import factories

    gm = factories.user("gm")
    campaign = factories.HomebrewCampaignFactory(game_master=gm, name="Table talk")
    sheet = factories.HomebrewSheetFactory(character__campaign=campaign,
                                           character__owner=factories.user("alice"),
                                           character__name="Ash")
    encounter = factories.EncounterFactory(campaign=campaign, name="Ambush")
    factories.CombatantFactory(encounter=encounter, character=sheet.character)
    contexts = []
    try:
        gm_context, gm_page = _open(chromium, live_server, "gm",
                                    f"{live_server.url}/encounters/{encounter.pk}/control/")
        player_context, player = _open(chromium, live_server, "alice",
                                       f"{live_server.url}/encounters/{encounter.pk}/")
        contexts = [gm_context, player_context]
        _send(player, "/roll d100 <= 40")
        expect(gm_page.get_by_test_id("chat-messages").get_by_test_id("roll-card")).to_contain_text(
            "rolls d100 ≤ 40", timeout=SEEN_WITHIN_MS)
        _send(gm_page, "Roll initiative")
        expect(player.get_by_test_id("chat-messages")).to_contain_text(
            "Roll initiative", timeout=SEEN_WITHIN_MS)
        shots = Path(settings.BASE_DIR) / "var" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        player.screenshot(path=str(shots / "chat-encounter.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
