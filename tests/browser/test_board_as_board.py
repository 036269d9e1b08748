"""The EW1 board as a board, in a real browser: pointing at a cell shows the walk and its PA
cost (the server's), a click walks there and the PA gauge drops; the arrow keys move a focus
cursor and Enter walks; a click on a piece opens its action menu (cost and odds), Escape closes
it, an attack from it shows its result. ``PERCENTILE_SCREENSHOT_DIR`` keeps the screenshots."""

import os
import re
from decimal import Decimal

import pytest

from tests.browser.helpers import expect_gauge, gauge, htmx_ready, log_in, post

pytestmark = pytest.mark.browser


def shoot(page, tmp_path, name):
    folder = os.environ.get("PERCENTILE_SCREENSHOT_DIR") or str(tmp_path)
    # The page, clipped to the board's box: the element itself may be swapped by a live refetch
    # while the screenshot waits for it to be stable ("not attached to the DOM").
    box = page.locator("#board").bounding_box()
    page.screenshot(path=os.path.join(folder, f"board-{name}.png"), clip=box, full_page=True)


def me(page):
    cell = page.locator("#board td.cell.me")
    return int(cell.get_attribute("data-x")), int(cell.get_attribute("data-y"))


def test_walk_by_a_click_and_by_the_keys_then_attack_from_the_menu(demo, live_server, page,
                                                                    tmp_path):
    from playwright.sync_api import expect

    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    log_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/characters/{aldric.pk}/board/")
    htmx_ready(page)
    assert me(page) == (5, 5) and gauge(page, "pa") == 12
    board = page.locator("#board")
    expect(board.get_by_test_id("token-Brenna")).to_be_visible()

    # Point at a cell: its path is lit, the cost written, nothing spent yet.
    goal = board.locator('td[data-x="5"][data-y="7"]')
    goal.hover()
    preview = page.get_by_test_id("board-preview")
    expect(preview).to_contain_text("(5, 7): 2 cells, 1.0 PA. Click to go.")
    expect(board.locator("td.on-path")).to_have_count(2)
    expect(goal).to_have_class(re.compile(r"\bpath-goal\b"))
    expect(goal.locator(".cell-cost")).to_have_text("1.0")
    shoot(page, tmp_path, "preview")
    assert gauge(page, "pa") == 12

    # Click: the walk goes, the PA gauge drops by the cost shown.
    with post(page, "/move-to/") as response:
        goal.locator("button").click()
    assert response.value.ok
    expect(board.locator('td.cell.me[data-x="5"][data-y="7"]')).to_have_count(1)
    expect_gauge(page, "pa", Decimal("11.0"))
    expect(page.get_by_test_id("result")).to_contain_text("Moved to (5, 7): 2 cells, 1.0 PA.")

    # The keys: focus on one's own token, Up twice lands on (5, 5), Enter walks.
    page.get_by_test_id("token-me").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("[document.activeElement.closest('td').dataset.x,"
                            " document.activeElement.closest('td').dataset.y]")
    assert focused == ["5", "5"]
    expect(preview).to_contain_text("(5, 5): 2 cells, 1.0 PA. Click again or press Enter")
    with post(page, "/move-to/") as response:
        page.keyboard.press("Enter")
    assert response.value.ok
    expect(board.locator('td.cell.me[data-x="5"][data-y="5"]')).to_have_count(1)
    expect_gauge(page, "pa", Decimal("10.0"))

    # A piece: its menu, with each attack's cost and chance; Escape closes it.
    board.get_by_test_id("token-Brenna").click()
    menu = page.get_by_test_id("piece-menu")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("heading", name="Brenna")).to_be_visible()
    brawl = menu.get_by_test_id("menu-attack-brawl")
    expect(brawl).to_contain_text(re.compile(r"2 PA\s+\d+ %"))
    expect(brawl).to_be_focused()
    expect(board.locator('td.selected[data-x="6"][data-y="5"]')).to_have_count(1)
    shoot(page, tmp_path, "menu")
    page.keyboard.press("Escape")
    expect(menu).to_have_count(0)
    expect(board.get_by_test_id("token-Brenna")).to_be_focused()
    page.keyboard.press("Enter")  # the focused token opens its menu again
    expect(page.get_by_test_id("piece-menu")).to_be_visible()

    with post(page, "/attack/") as response:
        page.get_by_test_id("piece-menu").get_by_test_id("menu-attack-brawl").click()
    assert response.value.ok
    expect(page.get_by_test_id("result")).to_contain_text("Brawl on Brenna (2.0 PA):")
    expect_gauge(page, "pa", Decimal("8.0"))
    expect(page.locator("#combat-log li").first).to_contain_text("Aldric attacks Brenna")
    expect(board.get_by_test_id("token-Brenna")).to_be_focused()  # back on the piece
    shoot(page, tmp_path, "result")
