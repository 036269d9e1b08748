"""A new player's first minutes, in a real browser: sign up, create a character in the demo
campaign, read its sheet, walk to Brenna with the move pad (htmx swaps, no page load) and
brawl her."""

import os
import re
from decimal import Decimal

import pytest

from config.demo import DEMO_CAMPAIGN, PLAYERS
from gamerules.geometry import chebyshev
from tests.browser.helpers import gauge

pytestmark = pytest.mark.browser

USERNAME = "newcomer"
PASSWORD = "a-long-browser-password-42"
HERO = "Hesper"
BRENNA = next((name, at) for _, name, at in PLAYERS if name == "Brenna")
DIRECTIONS = {(0, -1): "n", (1, -1): "ne", (1, 0): "e", (1, 1): "se",
              (0, 1): "s", (-1, 1): "sw", (-1, 0): "w", (-1, -1): "nw"}
MAX_STEPS = 30  # the demo board is 12x12: no walk needs more than 11 steps


def my_position(page):
    cell = page.locator("#board td.cell.me")
    return int(cell.get_attribute("data-x")), int(cell.get_attribute("data-y"))


def free_cells(page):
    """The cells in view (so on the board) that no piece stands on."""
    cells = page.locator("#board td.cell:not(.me):not(.mine):not(.other)").evaluate_all(
        "cells => cells.map(c => [Number(c.dataset.x), Number(c.dataset.y)])")
    return {tuple(c) for c in cells}


def next_step(here, goal, free, *, away=False):
    """The direction and cell that bring ``here`` closest to ``goal`` (farthest with ``away``)
    among the ``free`` cells (straight-line tie-break), or None."""
    options = []
    for (dx, dy), name in DIRECTIONS.items():
        cell = (here[0] + dx, here[1] + dy)
        if cell not in free:
            continue
        straight = abs(goal[0] - cell[0]) + abs(goal[1] - cell[1])
        distance = chebyshev(cell, goal)
        options.append((-distance if away else distance, straight, name, cell))
    if not options:
        return None
    return min(options)[2:]


def test_new_player_walks_to_brenna_and_brawls(demo, live_server, page, tmp_path):
    from playwright.sync_api import expect

    # Sign up.
    page.goto(live_server.url + "/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_role("link", name="Sign up").first.click()
    page.locator("input[name=username]").fill(USERNAME)
    page.locator("input[name=email]").fill(f"{USERNAME}@example.invalid")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page).to_have_url(re.compile(r"/characters/$"))
    expect(page.get_by_role("button", name=re.compile(USERNAME))).to_be_visible()

    # Create a character in the demo campaign: roll a draft, keep it, land on the sheet.
    page.locator("select[name=campaign]").select_option(label=DEMO_CAMPAIGN)
    page.locator("input[name=name]").fill(HERO)
    page.get_by_role("button", name="Begin the character").click()
    expect(page).to_have_url(re.compile(r"/characters/drafts/\d+/$"))
    expect(page.get_by_test_id("total")).not_to_be_empty()
    page.get_by_test_id("confirm").click()
    expect(page).to_have_url(re.compile(r"/characters/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(HERO)
    assert gauge(page, "pv") == 100
    assert gauge(page, "pa") == 12
    assert gauge(page, "level") == 0

    # The board.
    page.get_by_role("link", name="Go to the board").click()
    expect(page).to_have_url(re.compile(r"/characters/\d+/board/$"))
    board_url = page.url
    expect(page.locator("#board td.cell.me")).to_have_count(1)
    page.evaluate("window.__journey = 'same page'")

    # Walk to Brenna, one htmx move at a time.
    brenna = BRENNA[1]
    here = my_position(page)
    moves = 0
    while chebyshev(here, brenna) > 1 or moves == 0:
        assert moves < MAX_STEPS, f"still not next to Brenna at {here} after {moves} moves"
        # Born next to her (placement is random): step away first, so that there is a walk.
        away = moves == 0 and chebyshev(here, brenna) <= 1
        step = next_step(here, brenna, free_cells(page), away=away)
        assert step is not None, f"boxed in at {here}"
        direction, expected = step
        with page.expect_response(lambda r: r.url.endswith("/move/")
                                  and r.request.method == "POST") as response:
            page.get_by_test_id(f"move-{direction}").click()
        assert response.value.ok
        # The swap lands: our cell is where the server put us (the board polls every 5 s, so
        # a swap lost to a poll in flight is caught up by the next one).
        page.wait_for_function(
            "([x, y]) => { const me = document.querySelector('#board td.cell.me');"
            " return me && me.dataset.x === String(x) && me.dataset.y === String(y); }",
            arg=list(expected))
        expect(page.get_by_test_id("error")).to_have_count(0)
        here = expected
        moves += 1

    assert page.url == board_url
    assert page.evaluate("window.__journey") == "same page", "a move reloaded the page"
    assert gauge(page, "pa") == 12 - Decimal("0.5") * moves
    # Moves give XP: the move log shows the last one.
    expect(page.locator("#combat-log li.log-move").first).to_contain_text(
        f"{HERO} moves to ({here[0]}, {here[1]})")

    # Brawl Brenna.
    pa_before = gauge(page, "pa")
    attack = page.get_by_test_id("attack-Brenna")
    expect(attack).to_be_visible()
    with page.expect_response(lambda r: r.url.endswith("/attack/")
                              and r.request.method == "POST") as response:
        attack.click()
    assert response.value.ok
    brawl = page.locator("#combat-log li.log-brawl").first
    expect(brawl).to_contain_text("d100")
    expect(brawl).to_contain_text(f"{HERO} attacks Brenna")
    expect(page.get_by_test_id("error")).to_have_count(0)
    assert gauge(page, "pa") == pa_before - 2
    assert gauge(page, "pa") < 12
    assert page.evaluate("window.__journey") == "same page"

    shot = os.environ.get("PERCENTILE_SCREENSHOT") or str(tmp_path / "board.png")
    page.screenshot(path=shot, full_page=True)
