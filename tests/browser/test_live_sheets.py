"""Issue 17, item 7, in a real browser: a game master's homebrew rest reaches the player's open
sheet page through the stream (campaigns.live, the ``character-<id>`` topic), without reload."""

from __future__ import annotations

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEEN_WITHIN_MS = 4_000


def test_a_gms_rest_shows_on_the_players_sheet_page(chromium, live_server, alice, bob):
    from playwright.sync_api import expect

    from homebrew.models import HomebrewSheet
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    sheet = HomebrewSheet.objects.get(pk=hb.aria.pk)
    HomebrewSheet.objects.filter(pk=sheet.pk).update(hp=1)
    contexts = [chromium.new_context(locale="en-GB") for _ in range(2)]
    try:
        player, gm = (c.new_page() for c in contexts)
        for page, user in ((player, "alice"), (gm, "gm")):
            page.set_default_timeout(15_000)
            log_in(page, live_server, user, PASSWORD)
        player.goto(f"{live_server.url}/homebrew/characters/{hb.aria.pk}/")
        player.wait_for_function("() => document.body.dataset.live === 'live'")
        expect(player.get_by_test_id("hp").first).to_have_text("1")
        gm.goto(f"{live_server.url}/homebrew/campaigns/{hb.campaign.pk}/rest/")
        gm.locator("select[name=kind]").select_option("long")
        with post(gm, "/rest/") as response:
            gm.get_by_test_id("grant-rest").click()
        assert response.value.ok
        expect(player.get_by_test_id("hp").first).to_have_text(str(sheet.hp_max),
                                                               timeout=SEEN_WITHIN_MS)
    finally:
        for context in contexts:
            context.close()
