"""A refused htmx form shows its refusal in the page (the fragments answered 400: the homebrew
and Eclipse Phase creation pages). htmx 2 does not swap a 4xx answer unless told to: without
the page's htmx configuration the player clicked "Create the character" and saw nothing."""

from __future__ import annotations

import pytest

from tests.browser.helpers import post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_too_much_starting_gear_is_refused_in_the_page(page, live_server, alice, bob):
    from playwright.sync_api import expect

    from tests.browser.helpers import log_in
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    for w in (hb.sword, hb.fireball, hb.claws):
        w.offered_at_creation = True
        w.save()
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}/homebrew/campaigns/{hb.campaign.pk}/new/?name=Nova")
    for w in (hb.sword, hb.fireball):
        page.get_by_test_id(f"gear-{w.pk}").check()
    # The page stops a third pick (static/js/creation-budget.js); the server is the authority,
    # so a page that did not (an old one, a hand-made form) sends it anyway.
    third = page.get_by_test_id(f"gear-{hb.claws.pk}")
    expect(third).to_be_disabled()
    third.evaluate("box => { box.disabled = false; box.checked = true; }")
    with post(page, f"/homebrew/campaigns/{hb.campaign.pk}/new/") as answer:
        page.get_by_role("button", name="Create the character").click()
    assert answer.value.status == 422
    expect(page.get_by_test_id("error")).to_contain_text("Pick at most 2")
    expect(page.locator("header.topbar")).to_be_visible()  # the page kept, the fragment swapped
    expect(page.get_by_test_id(f"gear-{hb.claws.pk}")).to_be_checked()  # the choices kept


def test_a_refused_eclipse_creation_is_shown_in_the_page(page, live_server, alice, bob):
    from playwright.sync_api import expect

    from tests.browser.helpers import log_in
    from tests.eclipse_play.conftest import build_world

    ep = build_world(alice, bob)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}/eclipse/campaigns/{ep.campaign.pk}/new/?name=Nova")
    page.get_by_label("COG · Cognition").fill("30")  # 120 points of 105
    with post(page, f"/eclipse/campaigns/{ep.campaign.pk}/new/") as answer:
        page.get_by_role("button", name="Create the character").click()
    assert answer.value.status == 422
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.locator("header.topbar")).to_be_visible()
