"""The control page's rows in a browser (issue 21, item 9): one form a row, its switches
posting to their own URL (``formaction``): with htmx (the row swapped, nothing reloaded) and
without JavaScript (a plain POST, the page again). Screenshots of the rows go to
``PERCENTILE_ARTEFACTS`` (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import pytest

from tests.browser.helpers import artefacts_dir, log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _world(alice, bob):
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, c = running(ep)
    for who, (x, y) in ((ep.ava, (0, 0)), (ep.bo, (3, -2))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    return ep, e, c


def test_the_row_buttons_switch_with_htmx_and_the_row_form_places(chromium, live_server, alice,
                                                                  bob, tmp_path):
    from playwright.sync_api import expect

    from encounters.models import Combatant

    ep, e, c = _world(alice, bob)
    guard = c[ep.guard.pk].pk
    shots = artefacts_dir(tmp_path)
    context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    gm = context.new_page()
    log_in(gm, live_server, "gm", PASSWORD)
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    order = gm.locator("#enc-order")
    order.scroll_into_view_if_needed()
    order.screenshot(path=str(shots / "control-rows-en.png"))
    row = gm.locator(f"#enc-row-{guard}")
    expect(row.locator("form")).to_have_count(1)  # one form a row, the switches its buttons
    expect(row.get_by_role("button", name="Hide")).to_have_attribute("form", f"row-{guard}")

    with post(gm, f"/combatants/{guard}/hide/") as answer:
        row.get_by_test_id(f"hide-{guard}").click()
    assert answer.value.request.headers.get("hx-request") == "true"
    expect(row.get_by_test_id(f"reveal-{guard}")).to_be_visible()
    expect(row).to_contain_text("(hidden)")
    with post(gm, f"/combatants/{guard}/defeated/"):
        row.get_by_test_id(f"defeated-{guard}").click()
    expect(row.get_by_test_id(f"up-{guard}")).to_be_visible()
    expect(row).to_have_class("defeated")

    row.locator("input[name=x]").fill("6")
    row.locator("input[name=y]").fill("-1")
    with post(gm, f"/positions/{guard}/"):
        row.locator("input[name=y]").press("Enter")  # the form's first button: Place
    expect(gm.locator(f"#map-token-{guard}")).to_have_attribute("data-x", "6")
    guard_row = Combatant.objects.get(pk=guard)
    assert (guard_row.hidden, guard_row.defeated, guard_row.x, guard_row.y) == (True, True, 6, -1)

    with post(gm, f"/combatants/{guard}/remove/"):
        row.get_by_test_id(f"remove-{guard}").click()
    expect(gm.get_by_test_id(f"readd-{guard}")).to_be_visible()
    assert Combatant.objects.get(pk=guard).removed
    gm.locator("#enc-order").screenshot(path=str(shots / "control-rows-switched-en.png"))
    context.close()


def test_without_javascript_a_switch_posts_to_its_own_url(chromium, live_server, alice, bob,
                                                          tmp_path):
    from playwright.sync_api import expect

    from encounters.models import Combatant

    ep, e, c = _world(alice, bob)
    bo = c[ep.bo.pk].pk
    context = chromium.new_context(locale="fr-FR", java_script_enabled=False,
                                   viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    gm = context.new_page()
    gm.goto(live_server.url + "/accounts/login/")
    gm.locator("main form input[name=username]").fill("gm")
    gm.locator("main form input[name=password]").fill(PASSWORD)
    gm.locator("main form button[type=submit]").click()
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    with gm.expect_response(lambda r: r.url.endswith(f"/combatants/{bo}/hide/")) as answer:
        gm.get_by_test_id(f"hide-{bo}").click()
    assert answer.value.status == 302 and answer.value.request.headers.get("hx-request") is None
    expect(gm.get_by_test_id(f"reveal-{bo}")).to_be_visible()
    assert Combatant.objects.get(pk=bo).hidden and Combatant.objects.get(pk=bo).x == 3
    gm.locator("#enc-order").screenshot(path=str(artefacts_dir(tmp_path) / "control-rows-fr.png"))
    context.close()
