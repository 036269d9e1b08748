"""The Content-Security-Policy in a real browser (issue 17 item 6): the conftest's hook fails a
test on any violation, so each page here is opened for that; and what replaced the inline
handlers and the style attribute (static/js/behaviours.js) still does its work."""

import re

import pytest

from tests.browser.helpers import log_in

pytestmark = pytest.mark.browser


def test_an_inline_script_is_refused_and_the_hook_reports_it(demo, live_server, page,
                                                             csp_violations):
    """The hook is live: a script injected into a page does not run, and it is reported."""
    log_in(page, live_server, "alice")
    ran = page.evaluate("""() => { window.ran = false;
        const s = document.createElement("script"); s.textContent = "window.ran = true";
        document.body.append(s); return window.ran; }""")
    assert ran is False
    page.wait_for_function("() => true")  # a round trip: the console message has arrived
    page.wait_for_timeout(200)
    assert any("script-src" in v for v in csp_violations), csp_violations
    csp_violations.clear()


def test_the_language_switch_submits_itself(demo, live_server, page):
    from playwright.sync_api import expect

    log_in(page, live_server, "alice")
    with page.expect_navigation():
        page.locator("select[name=language]").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    with page.expect_navigation():
        page.locator("select[name=language]").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_board_gets_its_column_count_without_a_style_attribute(demo, live_server, page):
    from playwright.sync_api import expect

    log_in(page, live_server, "alice")
    page.locator("tr", has_text="Aldric").get_by_role("link", name="Board").click()
    table = page.locator("#board table.grid")
    expect(table).to_have_count(1)
    columns = table.locator("tr").first.locator("td").count()
    assert table.get_attribute("data-cells") == str(columns)
    page.wait_for_function("() => getComputedStyle(document.querySelector('#board table.grid'))"
                           f".getPropertyValue('--cells').trim() === '{columns}'")


def test_the_api_docs_render_under_the_policy(demo, live_server, page):
    from playwright.sync_api import expect

    log_in(page, live_server, "alice")
    page.goto(live_server.url + "/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Percentile API")
    expect(page.locator(".opblock").first).to_be_visible()  # the schema loaded (connect-src)
    # Try it out: a GET of the campaigns from the page (the inline script's interceptor).
    block = page.locator(".opblock-get", has=page.locator("[data-path='/api/campaigns/']"))
    block.first.locator(".opblock-summary").click()
    block.first.get_by_role("button", name="Try it out").click()
    with page.expect_response(lambda r: r.url.endswith("/api/campaigns/")) as response:
        block.first.get_by_role("button", name="Execute").click()
    assert response.value.status == 200


def test_the_admin_works_under_the_policy(demo, live_server, page):
    """The GM (a superuser in the demo) opens the admin, a list with its filters and actions, and
    a character's change form with its inlines and widgets."""
    from playwright.sync_api import expect

    from characters.models import Character

    log_in(page, live_server, "gm")
    page.goto(live_server.url + "/admin/")
    expect(page.locator("#site-name")).to_be_visible()
    page.goto(live_server.url + "/admin/characters/character/")
    expect(page.locator("#result_list")).to_be_visible()
    page.locator("#action-toggle").check()  # actions.js: every row's box follows
    expect(page.locator("input.action-select").first).to_be_checked()
    aldric = Character.objects.get(name="Aldric")
    page.goto(live_server.url + f"/admin/characters/character/{aldric.pk}/change/")
    expect(page.locator("input[name=name]")).to_have_value("Aldric")
    # Adding a character: its campaign first, then the page of that campaign's rule system.
    page.goto(live_server.url + "/admin/characters/character/add/")
    page.locator("select[name=campaign]").select_option(
        label="Homebrew d100: demo (Homebrew d100)")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("input[name=homebrew-0-physique]")).to_be_visible()
    expect(page.locator("input[name=x]")).to_have_count(0)  # no board in the homebrew
    page.goto(live_server.url + "/admin/campaigns/campaign/add/")
    expect(page.locator("form")).not_to_have_count(0)
    expect(page).to_have_url(re.compile(r"/admin/campaigns/campaign/add/$"))


def fragment_gets(page, path):
    """The GETs of ``path`` (query ignored) the page sends from now on, as a growing list."""
    seen = []
    page.on("request", lambda r: seen.append(r.url) if r.method == "GET"
            and r.url.split("?")[0].endswith(path) else None)
    return seen


def test_the_board_holds_its_poll_while_a_form_has_the_focus(demo, live_server, page):
    """What the filter "every 5s [!document.activeElement.closest('#board form')]" did, now
    data-poll-unless="editing": no poll while the player is in a form, and a change pushed
    meanwhile (its "live-changed" event, as static/js/live.js sends it) is fetched once the
    focus leaves: with the stream live the board polls only once a minute."""
    from playwright.sync_api import expect

    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    log_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/characters/{aldric.pk}/board/")
    expect(page.locator("#board td.cell.me")).to_have_count(1)
    page.locator("#board form select, #board form input:not([type=hidden]), #board form button"
                 ).first.focus()
    gets = fragment_gets(page, "/board/")
    page.evaluate("htmx.trigger(document.getElementById('board'), 'live-changed')")
    page.wait_for_timeout(7_000)  # more than one 5 s period
    assert gets == []
    page.evaluate("document.activeElement.blur()")
    with page.expect_request(lambda r: r.url.split("?")[0].endswith("/board/"), timeout=12_000):
        pass


@pytest.mark.django_db(transaction=True)
def test_a_live_encounter_page_stops_its_one_second_poll(chromium, live_server):
    """What the filter "every 1s [document.body.dataset.push !== 'live']" did, now
    data-live-poll="10": with the push live, no poll every second (at most the safety one)."""
    from playwright.sync_api import expect

    from tests.encounters.conftest import Table, register_test_system, unregister_test_system
    from tests.factories import PASSWORD

    register_test_system()
    try:
        t = Table()
        e = t.start()
        page = chromium.new_context(locale="en-GB").new_page()
        log_in(page, live_server, "bob", PASSWORD)
        page.goto(f"{live_server.url}/encounters/{e.pk}/")
        expect(page.locator("body")).to_have_attribute("data-push", "live")
        page.wait_for_timeout(500)  # the refresh the stream's opening asks for
        gets = fragment_gets(page, f"/encounters/{e.pk}/")
        page.wait_for_timeout(5_000)
        assert len(gets) <= 1, gets  # about five with the one-second poll
        page.evaluate("delete document.body.dataset.push")  # the push lost: polls come back
        page.wait_for_timeout(3_000)
        assert len(gets) >= 2, gets
    finally:
        unregister_test_system()
