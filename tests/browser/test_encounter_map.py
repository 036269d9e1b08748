"""The encounter's map in two browsers (issue 21, items 1 and 2): the GM drags the Guard's
token on the control page and Alice's page shows it moved (pushed); the GM moves it a square
with the arrow keys; in Ava's turn Alice clicks a point within her walk (the distance and the
cost shown), moves there, clicks the Guard's token and it is the attack's target; the pistol's
range bands are rings around her. Screenshots (1280 and 390 px wide) go to
``PERCENTILE_ARTEFACTS`` (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.template.defaultfilters import floatformat

from tests.browser.helpers import artefacts_dir, log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _screen_point(page, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) metres is on the screen, from the map's frame."""
    return page.evaluate("""([x, y]) => {
        const svg = document.querySelector("svg.map"), box = svg.getBoundingClientRect();
        const vb = svg.viewBox.baseVal, d = svg.dataset;
        const u = (x - parseFloat(d.left)) * parseFloat(d.scale);
        const v = (parseFloat(d.top) - y) * parseFloat(d.scale);
        return [box.left + u * box.width / vb.width, box.top + v * box.height / vb.height];
    }""", [x, y])


def _shown(value) -> str:
    return floatformat(float(value), "-2u")


def test_the_gm_drags_alice_sees_it_then_moves_by_a_click_and_targets(
        chromium, live_server, alice, bob, tmp_path):
    from playwright.sync_api import expect

    from encounters import services as enc
    from encounters.models import Combatant
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, c = running(ep)  # Ava's turn
    for who, (x, y) in ((ep.ava, (0, 0)), (ep.bo, (3, -2)), (ep.guard, (8, 3))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    guard = c[ep.guard.pk]

    pages = {}
    for name in ("gm", "alice"):
        context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
    gm, ap = pages["gm"], pages["alice"]
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    ap.goto(f"{live_server.url}/encounters/{e.pk}/")
    on_alice = ap.locator("[data-testid=map-token][data-name=Guard]")
    expect(on_alice).to_have_attribute("data-x", "8")

    # The GM drags the Guard about 6 m west.
    token = gm.locator("[data-testid=map-token][data-name=Guard]")
    gm.locator("svg.map").scroll_into_view_if_needed()
    box = token.bounding_box()
    sx, sy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tx, ty = _screen_point(gm, 2, 3)
    with post(gm, f"/positions/{guard.pk}/") as answer:
        gm.mouse.move(sx, sy)
        gm.mouse.down()
        gm.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=4)
        gm.mouse.move(tx, ty, steps=4)
        gm.mouse.up()
    assert answer.value.ok
    row = Combatant.objects.get(pk=guard.pk)
    assert abs(row.x - 2) <= Decimal("0.3") and abs(row.y - 3) <= Decimal("0.3")
    expect(on_alice).to_have_attribute("data-x", _shown(row.x))  # pushed to Alice's page
    expect(on_alice).to_have_attribute("data-y", _shown(row.y))

    # The keyboard: focus the token, one square east a press.
    cell = Decimal(gm.locator("svg.map").get_attribute("data-cell"))
    gm.locator("[data-testid=map-token][data-name=Guard]").focus()
    with post(gm, f"/positions/{guard.pk}/") as answer:
        gm.keyboard.press("ArrowRight")
    assert answer.value.ok
    moved = Combatant.objects.get(pk=guard.pk)
    assert (moved.x, moved.y) == (row.x + cell, row.y)
    expect(on_alice).to_have_attribute("data-x", _shown(moved.x))
    expect(gm.locator("[data-testid=map-token][data-name=Guard]")).to_be_focused()

    # Alice, in turn: the reachable circles, a click within her walk, the move.
    expect(ap.get_by_test_id("map-reach").locator("circle")).to_have_count(2)
    ap.locator("svg.map").scroll_into_view_if_needed()
    px, py = _screen_point(ap, 2, 1)
    ap.mouse.click(px, py)
    preview = ap.get_by_test_id("map-move-preview")
    expect(preview).to_contain_text("m away: walk 4 m, a quick action")
    expect(ap.locator("#map-move input[name=pace][value=walk]")).to_be_checked()
    far_x, far_y = _screen_point(ap, 0, -9)
    ap.mouse.click(far_x, far_y)
    expect(preview).to_contain_text("run 20 m")  # 9 m: running, its malus said
    expect(preview).to_contain_text("-10 to every test")
    ap.mouse.click(px, py)
    expect(ap.locator("#map-move input[name=pace][value=walk]")).to_be_checked()  # cheapest
    ap.get_by_test_id("map-move-x").fill("2")  # typed: the keyboard's way, exact
    ap.get_by_test_id("map-move-y").fill("1")
    with post(ap, "/move/") as answer:
        ap.get_by_test_id("map-move-submit").click()
    assert answer.value.ok
    ava = Combatant.objects.get(pk=c[ep.ava.pk].pk)
    assert (ava.x, ava.y) == (Decimal("2.00"), Decimal("1.00"))
    from campaigns.models import ActionRecord
    walked = ActionRecord.objects.filter(summary__action="move").latest("pk").summary
    assert walked["pace"] == "walk" and walked["to"] == [2.0, 1.0]
    expect(ap.locator("[data-testid=map-token][data-name=Ava]")).to_have_attribute("data-x", "2")
    expect(gm.locator("[data-testid=map-token][data-name=Ava]")).to_have_attribute("data-x", "2")

    # A click on the Guard's token chooses it in the attack form.
    ap.locator("[data-testid=map-token][data-name=Guard]").click()
    expect(ap.get_by_test_id("attack-target")).to_have_value(str(guard.pk))
    expect(ap.locator("[data-testid=map-token][data-name=Guard]")).to_have_class(
        re.compile(r"\btargeted\b"))
    pistol = ap.locator("[data-testid=attack-weapon] option", has_text="Pistol").first
    ap.get_by_test_id("attack-weapon").select_option(pistol.get_attribute("value"))
    expect(ap.locator("[data-testid=map-ring]")).to_have_count(4)

    shots = artefacts_dir(tmp_path)
    ap.locator(".map-card").screenshot(path=str(shots / "encounter-map-player.png"))
    gm.locator(".map-card").screenshot(path=str(shots / "encounter-map-gm.png"))
    ap.set_viewport_size({"width": 390, "height": 844})
    width = ap.evaluate("document.querySelector('svg.map').getBoundingClientRect().width")
    assert 300 <= width <= 390
    ap.locator(".map-card").screenshot(path=str(shots / "encounter-map-390.png"))
