"""The game master's back office in a browser (issue 22, item 1): from the game master's
screen to the back office, an Eclipse Phase armour refused (a negative energy armour: the
admin's message, swapped in by htmx, nothing saved), then corrected and listed, then deleted
after the confirmation; the rule parameters shown with their defaults."""

from __future__ import annotations

import os
import re

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_gm_adds_and_deletes_an_armour_template(chromium, live_server, tmp_path):
    from playwright.sync_api import expect

    from campaigns.models import RuleSystem
    from eclipse.models import ArmourTemplate
    from tests import factories

    gm = factories.user("gm")
    campaign = factories.campaign(name="Titan", rule_system=RuleSystem.ECLIPSE_PHASE)
    type(campaign).objects.filter(pk=campaign.pk).update(game_master=gm)
    page = chromium.new_context(viewport={"width": 1280, "height": 900},
                                locale="en-GB").new_page()
    log_in(page, live_server, "gm", PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/gm/")
    page.get_by_test_id("gm-manage").click()
    expect(page.get_by_test_id("manage-home")).to_be_visible()
    page.get_by_test_id("manage-armours").click()
    page.get_by_test_id("add").click()
    form = page.get_by_test_id("catalogue-form")
    form.get_by_label("Name").fill("Vest")
    form.get_by_label("Energy armour").fill("-1")
    # The box's own min="0" would stop the browser: sent as a hand-made form would.
    form.get_by_label("Energy armour").evaluate("box => box.removeAttribute('min')")
    with post(page, "/manage/armours/new/") as answer:
        form.get_by_test_id("save").click()
    assert answer.value.status == 422
    expect(page.get_by_test_id("form-refused")).to_be_visible()
    expect(page.get_by_test_id("catalogue-form")).to_contain_text(
        "Ensure this value is greater than or equal to 0.")
    assert not ArmourTemplate.objects.exists()
    shot = os.environ.get("PERCENTILE_SCREENSHOT_BACK_OFFICE") or str(tmp_path / "refused.png")
    page.screenshot(path=shot, full_page=True)
    page.get_by_test_id("catalogue-form").get_by_label("Energy armour").fill("2")
    page.get_by_test_id("catalogue-form").get_by_test_id("save").click()
    expect(page).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/manage/armours/$"))
    armour = ArmourTemplate.objects.get(campaign=campaign)
    expect(page.get_by_test_id(f"row-{armour.pk}")).to_contain_text("Vest")
    page.get_by_test_id(f"delete-{armour.pk}").click()
    page.get_by_test_id("confirm-delete").click()
    expect(page).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/manage/armours/$"))
    expect(page.get_by_text("Vest (2/0) is deleted.")).to_be_visible()
    assert not ArmourTemplate.objects.exists()
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/manage/parameters/")
    expect(page.get_by_test_id("parameters-form")).to_contain_text("Default:")
