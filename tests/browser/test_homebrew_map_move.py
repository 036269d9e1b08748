"""The homebrew's click-to-move (issue 21, item 1): in Aria's turn Alice clicks a point of the
map, the distance shows with what it costs (free; the GM may count a long move), she moves
there, and the GM's map shows her token moved (pushed). Screenshot in artefacts_dir."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.browser.helpers import artefacts_dir, log_in, post
from tests.browser.test_encounter_map import _screen_point
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_alice_clicks_a_point_and_aria_moves_there(chromium, live_server, alice, bob, tmp_path):
    from playwright.sync_api import expect

    from encounters import services as enc
    from encounters.models import Combatant
    from tests.homebrew.conftest import build_world
    from tests.homebrew.test_play import running

    hb = build_world(alice, bob)
    e, c = running(hb)  # Aria's turn
    for who, (x, y) in ((hb.aria, (0, 0)), (hb.bran, (2, -3)), (hb.goblin, (6, 8))):
        enc.combatant_place(user=hb.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)

    pages = {}
    for name in ("gm", "alice"):
        context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
    gm, ap = pages["gm"], pages["alice"]
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    ap.goto(f"{live_server.url}/encounters/{e.pk}/")
    expect(ap.get_by_test_id("map-move-note")).to_contain_text("A move is free")
    ap.locator("svg.map").scroll_into_view_if_needed()
    px, py = _screen_point(ap, 3, 4)
    ap.mouse.click(px, py)
    expect(ap.get_by_test_id("map-move-preview")).to_contain_text("m away.")
    shots = artefacts_dir(tmp_path)
    ap.locator(".map-card").screenshot(path=str(shots / "homebrew-map-move.png"))
    ap.get_by_test_id("map-move-x").fill("3")  # the keyboard's way, exact
    ap.get_by_test_id("map-move-y").fill("4")
    expect(ap.get_by_test_id("map-move-preview")).to_contain_text("5 m away.")
    with post(ap, "/other/") as answer:
        ap.get_by_test_id("map-move-submit").click()
    assert answer.value.ok
    row = Combatant.objects.get(pk=c[hb.aria.pk].pk)
    assert (row.x, row.y) == (Decimal("3.00"), Decimal("4.00"))
    expect(gm.locator("[data-testid=map-token][data-name=Aria]")).to_have_attribute("data-x", "3")
    expect(ap.locator("[data-testid=map-token][data-name=Aria]")).to_have_attribute("data-y", "4")
