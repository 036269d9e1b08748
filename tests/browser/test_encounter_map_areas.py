"""An area attack's template previewed on the map before it is fired (issue 21, item 1): in
Ava's turn Alice opens the explosive (from the keyboard) and picks the Guard as the centre: the
frag grenade's blast (3d10, -2 DV a metre: under 15 m) is drawn round the Guard and the tokens
inside are named, but not the Sniper the GM hid there (a hidden combatant is not on her map);
in the Guard's turn the GM aims suppressive fire at Ava: the 20 m band ahead of the Guard is
drawn and names Ava and Bo, not the Sniper behind the Guard. Screenshots in artefacts_dir."""

from __future__ import annotations

import pytest

from tests.browser.helpers import artefacts_dir, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_blast_and_the_suppressive_zone_are_previewed_with_who_is_inside(
        chromium, live_server, alice, bob, tmp_path):
    from playwright.sync_api import expect

    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, c = running(ep)  # Ava's turn
    [sniper] = enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(name="Sniper", hidden=True)])
    for pk, (x, y) in ((c[ep.ava.pk].pk, (0, 0)), (c[ep.bo.pk].pk, (3, -2)),
                       (c[ep.guard.pk].pk, (8, 3)), (sniper.pk, (10, 4))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=pk, x=x, y=y)
    shots = artefacts_dir(tmp_path)

    context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    ap = context.new_page()
    log_in(ap, live_server, "alice", PASSWORD)
    ap.goto(f"{live_server.url}/encounters/{e.pk}/")
    assert "Sniper" not in ap.content()
    form = ap.get_by_test_id("explode-form")
    form.locator("summary").focus()
    ap.keyboard.press("Enter")  # the details open: the form asks for a centre
    listed = form.get_by_test_id("map-area-list")
    expect(listed).to_contain_text("Choose where it goes")
    ap.get_by_test_id("explode-centre").select_option(label="Guard")
    shape = ap.locator("[data-testid=map-area] [data-testid=map-area-shape]")
    expect(shape).to_have_count(1)
    scale = float(ap.locator("svg.map").get_attribute("data-scale"))
    assert abs(float(shape.get_attribute("r")) - 15 * scale) < 0.01  # under 15 m
    expect(listed).to_contain_text("Guard")
    expect(listed).to_contain_text("Bo")
    expect(listed).to_contain_text("Ava")  # 8.5 m from the Guard: the thrower too
    assert "Sniper" not in listed.inner_text()
    ap.locator(".map-card").screenshot(path=str(shots / "encounter-map-blast.png"))
    ap.keyboard.press("Shift+Tab")
    form.locator("summary").click()  # closed: the template goes
    expect(shape).to_have_count(0)

    for user in (alice, bob):  # Ava's turn, Bo's, then the Guard's
        e.refresh_from_db()
        enc.encounter_next_turn(user=user, encounter_id=e.pk, turn=e.turn_serial)
    gm_context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    gm_context.set_default_timeout(15_000)
    gm = gm_context.new_page()
    log_in(gm, live_server, "gm", PASSWORD)
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    zone_form = gm.get_by_test_id("suppressive-form")
    zone_form.locator("summary").click()
    gm.get_by_test_id("suppressive-aim").select_option(label="Ava")
    zone = gm.locator("[data-testid=map-area] polygon[data-testid=map-area-shape]")
    expect(zone).to_have_count(1)
    zone_listed = zone_form.get_by_test_id("map-area-list")
    expect(zone_listed).to_contain_text("Ava")
    expect(zone_listed).to_contain_text("Bo")
    text = zone_listed.inner_text()
    assert "Sniper" not in text and "Guard" not in text  # behind the Guard; the Guard fires
    gm.locator(".map-card").screenshot(path=str(shots / "encounter-map-suppressive.png"))
