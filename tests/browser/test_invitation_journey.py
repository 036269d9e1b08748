"""An invitation by link (issue 22, item 1; docs/campaigns.md, "Players"): the GM of a closed
homebrew campaign makes an invitation on its players page (htmx), a signed-out newcomer opens
the link in another browser, is sent to log in, signs up from there and comes back to the
invitation, joins, and makes a character in the campaign, which the stranger's list did not
offer. The GM's players page then lists the member. Screenshots kept
(tests/browser/helpers.artefacts_dir)."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import artefacts_dir, log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_newcomer_joins_by_the_gms_link_and_makes_a_character(chromium, live_server, tmp_path):
    from playwright.sync_api import expect

    from campaigns.models import CampaignMember
    from characters.models import Character
    from tests import factories

    gm_user = factories.user("gm")
    campaign = factories.HomebrewCampaignFactory(name="Sunken Keep", game_master=gm_user,
                                                 is_open=False)
    shots = artefacts_dir(tmp_path)
    contexts = {}
    for name in ("gm", "newcomer"):
        contexts[name] = chromium.new_context(locale="en-GB",
                                              viewport={"width": 1280, "height": 900})
        contexts[name].set_default_timeout(15_000)
    gm = contexts["gm"].new_page()
    newcomer = contexts["newcomer"].new_page()
    log_in(gm, live_server, "gm", PASSWORD)

    # The GM: the players page, an invitation made through htmx.
    gm.goto(f"{live_server.url}/campaigns/{campaign.pk}/gm/")
    gm.get_by_test_id("gm-members").click()
    expect(gm.get_by_test_id("join-policy")).to_contain_text("only its members")
    gm.get_by_label("Uses at most (empty: no limit)").fill("1")
    with post(gm, f"/campaigns/{campaign.pk}/invitations/new/") as made:
        gm.get_by_test_id("invitation-create").click()
    assert made.value.status == 200
    expect(gm.get_by_test_id("members-done")).to_contain_text("Invitation made")
    link = gm.get_by_test_id("invitation-link").first.input_value()
    assert link.startswith(live_server.url + "/campaigns/join/")
    gm.screenshot(path=str(shots / "invitation-made.png"), full_page=True)

    # The newcomer, signed out: the link sends them to log in, they sign up from there.
    newcomer.goto(link)
    expect(newcomer).to_have_url(re.compile(r"/accounts/login/\?next=(/|%2F)campaigns(/|%2F)join(/|%2F)"))
    newcomer.get_by_test_id("signup-link").click()
    form = newcomer.locator("main form")
    form.locator("input[name=username]").fill("newcomer")
    form.locator("input[name=email]").fill("newcomer@example.invalid")
    form.locator("input[name=password1]").fill("Lantern-Keep-83")
    form.locator("input[name=password2]").fill("Lantern-Keep-83")
    form.get_by_role("button", name="Create my account").click()
    expect(newcomer).to_have_url(link)
    expect(newcomer.get_by_test_id("invitation")).to_contain_text(
        "You are invited to play in Sunken Keep.")
    newcomer.screenshot(path=str(shots / "invitation-page.png"), full_page=True)
    newcomer.get_by_test_id("invitation-accept").click()
    expect(newcomer).to_have_url(f"{live_server.url}/characters/")
    expect(newcomer.locator("main")).to_contain_text("You are a member of Sunken Keep")

    # A character in the closed campaign: its only choice in the form.
    newcomer.get_by_label("Name").fill("Wren")
    newcomer.get_by_role("button", name="Begin the character").click()
    newcomer.get_by_role("button", name="Create the character").click()
    expect(newcomer.locator("main")).to_contain_text("Wren")
    newcomer.screenshot(path=str(shots / "invitation-character.png"), full_page=True)
    wren = Character.objects.get(name="Wren")
    assert wren.campaign_id == campaign.pk and wren.owner.username == "newcomer"
    assert CampaignMember.objects.filter(campaign=campaign, user=wren.owner).exists()

    # The GM's page lists the member; the invitation is used up.
    gm.reload()
    expect(gm.get_by_test_id("member-newcomer")).to_contain_text("by invitation")
    expect(gm.locator("[data-state=used_up]")).to_have_count(1)
    for context in contexts.values():
        context.close()
