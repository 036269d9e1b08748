"""Issue 8 in a real browser: a board refresh keeps the open "rolls" fold-out and the chosen
spell target (item 10), refused actions are disabled with their reason (item 12), and the board
and the sheet fit a 390 px phone screen without sideways scrolling (item 18)."""

import os
import re
import time
from decimal import Decimal

import pytest

from tests.browser.conftest import TIMEOUT_MS
from tests.browser.helpers import log_in, post

pytestmark = pytest.mark.browser

HEAL = "Soin"


def aldric_board(page, live_server):
    from playwright.sync_api import expect

    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    log_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/characters/{aldric.pk}/board/")
    expect(page.locator("#board td.cell.me")).to_have_count(1)
    return aldric


def wait_for_a_poll(page):
    """Mark the board, then refetch it as a pushed change does (with the stream live the 5 s
    poll is off; without its token, so that it renders even when the push's own refetch has
    already brought it up to date) and wait until it is replaced."""
    page.evaluate("document.activeElement && document.activeElement.blur();"
                  "document.getElementById('board').dataset.old = '1'")
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/board/")
                              and r.request.method == "GET", timeout=TIMEOUT_MS):
        page.evaluate("const b = document.getElementById('board');"
                      "htmx.ajax('GET', b.getAttribute('hx-get').split('?')[0],"
                      " {source: b, target: b, swap: 'outerHTML'})")
    page.wait_for_function("() => !document.getElementById('board').dataset.old")


def test_a_refresh_keeps_the_open_rolls_and_the_chosen_spell_target(demo, live_server, page):
    from playwright.sync_api import expect

    from characters.models import Character

    aldric = aldric_board(page, live_server)
    brenna = Character.objects.get(name="Brenna")
    with post(page, "/attack/") as response:
        page.get_by_test_id("attack-Brenna").click()
    assert response.value.ok
    entry = page.locator("#combat-log li").first
    expect(entry).to_contain_text("Aldric attacks Brenna")
    entry.locator("summary").click()
    expect(entry.locator("details")).to_have_attribute("open", "")
    heal = page.get_by_test_id(f"spell-{HEAL}")
    label = f"Brenna ({brenna.x}, {brenna.y})"
    heal.locator("select[name=target]").select_option(label=label)
    assert heal.locator("select[name=target] option").first.inner_text().startswith("yourself")

    wait_for_a_poll(page)

    entry = page.locator("#combat-log li").first
    expect(entry).to_contain_text("Aldric attacks Brenna")
    expect(entry.locator("details")).to_have_attribute("open", "")
    heal = page.get_by_test_id(f"spell-{HEAL}")
    selected = heal.locator("select[name=target]").evaluate(
        "s => s.selectedOptions[0].textContent")
    assert selected == label
    assert heal.locator("input[name=x]").input_value() == str(brenna.x)
    assert heal.locator("input[name=y]").input_value() == str(brenna.y)
    # The other log entries stay closed.
    expect(page.locator("#combat-log details[open]")).to_have_count(1)
    # The choice is what a cast posts after the refresh.
    with post(page, "/cast/") as response:
        heal.get_by_test_id(f"cast-{HEAL}").click()
    assert f"x={brenna.x}" in response.value.request.post_data
    assert aldric.pk


def test_refused_actions_are_disabled_with_their_reason(demo, live_server, page):
    from playwright.sync_api import expect

    from characters.models import Character
    from ew1.models import EternalWarSheet

    aldric = Character.objects.get(name="Aldric")
    EternalWarSheet.objects.filter(pk=aldric.pk).update(pa=Decimal("0.5"),
                                                        pa_anchor=int(time.time()))
    aldric_board(page, live_server)
    game = page.get_by_test_id("game")
    expect(game).to_be_disabled()
    expect(game).to_have_attribute("title", "This needs 1 PA; you have 0.5.")
    expect(page.get_by_test_id("attack-Brenna")).to_be_disabled()
    expect(page.get_by_test_id(f"cast-{HEAL}")).to_be_disabled()
    expect(page.get_by_test_id(f"cast-{HEAL}")).to_contain_text(re.compile(r"\(\d+ %\)"))
    # Brenna stands east of Aldric: that step is refused, the others cost 0.5 PA and are open.
    expect(page.get_by_test_id("move-e")).to_be_disabled()
    expect(page.get_by_test_id("move-e")).to_have_attribute("title",
                                                            "east: That cell is occupied.")
    expect(page.get_by_test_id("move-w")).to_be_enabled()
    # A disabled button sends nothing.
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    game.click(force=True)
    page.wait_for_timeout(300)
    assert sent == []


@pytest.mark.parametrize("language", ["en-GB", "fr-FR"])
def test_the_board_and_the_sheet_fit_a_390_px_phone(demo, live_server, chromium, language):
    from playwright.sync_api import expect

    from characters.models import Character
    from ew1.models import EternalWarSheet

    # Points to spend: the sheet shows its longest button ("Dépenser 15 points..." in French).
    EternalWarSheet.objects.filter(character__name="Aldric").update(skill_points=15,
                                                                   characteristic_points=3)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale=language,
                                   device_scale_factor=1)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        aldric = aldric_board(page, live_server) if language == "en-GB" else None
        if aldric is None:
            aldric = Character.objects.get(name="Aldric")
            log_in_fr(page, live_server)
            page.goto(f"{live_server.url}/characters/{aldric.pk}/board/")
            expect(page.locator("#board td.cell.me")).to_have_count(1)
        assert_fits(page, "board")
        shot = os.environ.get("PERCENTILE_SCREENSHOT_390")
        if shot and language == "en-GB":
            page.screenshot(path=shot, full_page=True)
        for path in (f"/characters/{aldric.pk}/", f"/characters/{aldric.pk}/level-up/",
                     "/characters/", f"/campaigns/{aldric.campaign_id}/leaderboard/",
                     "/factions/", f"/factions/campaign/{aldric.campaign_id}/"):
            response = page.goto(live_server.url + path)
            assert response.ok, path
            assert_fits(page, path)
            if path == f"/characters/{aldric.pk}/":
                expect(page.get_by_test_id("level-up")).to_be_visible()
                shot_sheet = os.environ.get("PERCENTILE_SCREENSHOT_390_SHEET")
                if shot_sheet and language == "fr-FR":
                    page.screenshot(path=shot_sheet, full_page=True)
    finally:
        context.close()


def log_in_fr(page, live_server):
    from config.demo import DEMO_PASSWORD
    page.goto(live_server.url + "/accounts/login/")
    form = page.locator("main form")
    form.locator("input[name=username]").fill("alice")
    form.locator("input[name=password]").fill(DEMO_PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/characters/$"))


def assert_fits(page, where):
    """No sideways scrolling: the document is no wider than the 390 px viewport, and no
    element sticks out of it, but for a table wider than the phone inside a box that fits and
    scrolls sideways itself (words are not broken between their letters to make it fit)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
                     && getComputedStyle(e).display !== 'none'
                     && !(e.parentElement.closest('.scroll-x, .card')
                          && e.parentElement.closest('.scroll-x, .card')
                              .getBoundingClientRect().right <= window.innerWidth + 0.5))
        .map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className).slice(0, 8)""")
    assert width <= 390 and not wide, (where, width, wide)
