"""The board as a board stays live: another player's walk reaches an open board through the
stream; a piece's menu open with the focus in it holds the refetch (data-poll-unless), which
comes once the menu is closed; a focus cursor on a cell survives the refetch."""

import pytest

from tests.browser.helpers import log_in, post

pytestmark = pytest.mark.browser

SEEN_WITHIN_MS = 4_000  # under the 5 s poll of a page without a live stream


def test_a_walk_reaches_the_other_board_the_open_menu_holds_it_and_the_cursor_stays(
        demo, live_server, chromium):
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

        def aldric_on(x, y):
            return bob.locator(f"#board td[data-x='{x}'][data-y='{y}'] [data-testid='token-Aldric']")

        # Bob opens Aldric's menu: the focus is on its first action.
        bob.get_by_test_id("token-Aldric").click()
        expect(bob.get_by_test_id("piece-menu")).to_be_visible()
        expect(bob.get_by_test_id("menu-attack-brawl")).to_be_focused()

        # Alice walks Aldric two cells west with a click on the board.
        goal = alice.locator("#board td[data-x='3'][data-y='5']")
        goal.hover()
        with post(alice, "/move-to/") as response:
            goal.locator("button").click()
        assert response.value.ok

        # Bob's menu is not taken away while he is in it; closing it brings the change.
        bob.wait_for_timeout(1500)  # time enough for the push to have arrived (held)
        expect(bob.get_by_test_id("piece-menu")).to_be_visible()
        expect(aldric_on(5, 5)).to_have_count(1)
        bob.keyboard.press("Escape")
        expect(bob.get_by_test_id("piece-menu")).to_have_count(0)
        expect(aldric_on(3, 5)).to_have_count(1, timeout=SEEN_WITHIN_MS)

        # A focus cursor on a cell: a pushed change redraws the board, the cursor stays.
        cell = bob.locator("#board td[data-x='6'][data-y='7'] button")
        cell.focus()
        with post(alice, "/move-to/") as response:
            alice.locator("#board td[data-x='4'][data-y='6'] button").hover()
            alice.locator("#board td[data-x='4'][data-y='6'] button").click()
        assert response.value.ok
        expect(aldric_on(4, 6)).to_have_count(1, timeout=SEEN_WITHIN_MS)
        bob.wait_for_function("() => { const td = document.activeElement.closest('td');"
                              " return td && td.dataset.x === '6' && td.dataset.y === '7'; }")
        expect(bob.get_by_test_id("board-preview")).to_contain_text("(6, 7): 2 cells, 1.0 PA")
    finally:
        for context in contexts:
            context.close()
