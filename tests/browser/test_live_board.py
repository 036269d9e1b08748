"""Issue 17, item 7, in a real browser: a change on the Eternal War One II board reaches another
player's open board through the stream (campaigns.live, the ``board-<campaign>`` topic), well
before its fallback poll (5 s without the stream, 60 s with it)."""

import pytest

from tests.browser.helpers import log_in, post

pytestmark = pytest.mark.browser

SEEN_WITHIN_MS = 4_000  # under the 5 s poll of a page without a live stream


def test_a_move_shows_on_another_players_board_without_reload(demo, live_server, chromium):
    from playwright.sync_api import expect

    from characters.models import Character

    aldric, brenna = (Character.objects.get(name=n) for n in ("Aldric", "Brenna"))
    contexts = [chromium.new_context(locale="en-GB") for _ in range(2)]
    try:
        alice, bob = (c.new_page() for c in contexts)
        for page, user, character in ((bob, "bob", brenna), (alice, "alice", aldric)):
            page.set_default_timeout(15_000)
            log_in(page, live_server, user)
            page.goto(f"{live_server.url}/characters/{character.pk}/board/")
            page.wait_for_function("() => document.body.dataset.live === 'live'")
        before = bob.locator(f"#board td[data-x='{aldric.x}'][data-y='{aldric.y}'].other")
        after = bob.locator(f"#board td[data-x='{aldric.x - 1}'][data-y='{aldric.y}'].other")
        expect(before).to_have_count(1)
        expect(after).to_have_count(0)
        bob.evaluate("document.activeElement && document.activeElement.blur()")
        with post(alice, "/move/") as response:
            alice.get_by_test_id("move-w").click()
        assert response.value.ok
        expect(after).to_have_count(1, timeout=SEEN_WITHIN_MS)
        expect(before).to_have_count(0)
    finally:
        for context in contexts:
            context.close()
