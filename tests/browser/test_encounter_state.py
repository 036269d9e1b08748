"""The state at a glance in a browser (issue 21, item 2): the Eclipse Phase encounter's roster
and map as the GM and as Alice see them, the icons with their tooltips; the GM hides the
enemies' state on the game master's screen and Alice's page follows (pushed). Screenshots go
to ``PERCENTILE_ARTEFACTS`` (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations


import pytest

from tests.browser.helpers import artefacts_dir, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_roster_and_the_map_show_the_state_as_icons(chromium, live_server, alice, bob,
                                                        tmp_path):
    from django.db import transaction
    from playwright.sync_api import expect

    from eclipse.models import Sleeve
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, c = running(ep)
    for who, (x, y) in ((ep.ava, (0, 0)), (ep.bo, (3, -2)), (ep.guard, (8, 3))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    Sleeve.objects.filter(worn_by__character=ep.ava).update(damage=9, wounds=1,
                                                            knocked_down=True, stunned=1)
    Sleeve.objects.filter(worn_by__character=ep.guard).update(damage=31, wounds=1)
    with transaction.atomic():
        enc.characters_changed([ep.ava.pk, ep.guard.pk])
    shots = artefacts_dir(tmp_path)

    pages = {}
    for name in ("gm", "alice"):
        context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 1100})
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
    gm, ap = pages["gm"], pages["alice"]

    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    row = gm.locator(f"#enc-row-{c[ep.guard.pk].pk}")
    expect(row.locator("[data-testid=mark][data-key=bleeding]")).to_have_attribute(
        "title", "bleeding")
    expect(row.locator("[data-testid=mark][data-key=unconscious]")).to_be_visible()
    token = gm.locator(f"#map-token-{c[ep.guard.pk].pk}")
    expect(token.locator("[data-testid=map-mark][data-key=bleeding] title")).to_have_text(
        "bleeding")
    gm.locator("#enc-order").scroll_into_view_if_needed()
    gm.screenshot(path=str(shots / "encounter-state-gm.png"), full_page=True)

    ap.goto(f"{live_server.url}/encounters/{e.pk}/")
    mine = ap.locator(f"#enc-row-{c[ep.ava.pk].pk}")
    stunned = mine.locator("[data-testid=mark][data-key=stunned]")
    expect(stunned).to_have_attribute("title", "stunned (1 action turn)")
    expect(stunned.locator(".visually-hidden")).to_have_text("stunned (1 action turn)")
    expect(mine.locator("[data-testid=meter][data-key=ammo]")).to_be_visible()
    guard_row = ap.locator(f"#enc-row-{c[ep.guard.pk].pk}")
    expect(guard_row.locator("[data-testid=level]")).to_have_text("● down")
    expect(guard_row.locator("[data-testid=meter]")).to_have_count(0)
    ap.locator("#enc-order").scroll_into_view_if_needed()
    ap.screenshot(path=str(shots / "encounter-state-alice.png"), full_page=True)
    ap.locator("svg.map").screenshot(path=str(shots / "encounter-state-map.png"))

    # The GM hides the enemies' state on the screen; Alice's open page follows.
    gm.goto(f"{live_server.url}/campaigns/{ep.campaign.pk}/gm/")
    gm.get_by_test_id("enemy-state").select_option("hidden")
    gm.get_by_test_id("enemy-state-form").get_by_role("button", name="Save").click()
    expect(gm.get_by_test_id("enemy-state")).to_have_value("hidden")
    expect(guard_row.locator("[data-testid=glance]")).to_have_count(0)
    expect(ap.locator(f"#map-token-{c[ep.guard.pk].pk} [data-testid=map-mark]")).to_have_count(0)
    expect(mine.locator("[data-testid=mark][data-key=stunned]")).to_be_visible()
