"""A private faction in a real browser: alice founds it with Aldric from the faction pages, bob
asks to join with Brenna, alice accepts from her leader's page, bob sees Brenna a member. With a
third member in view, Brenna dodges with the faction bonus when a third player brawls her from
the board."""

import random
import re
from contextlib import contextmanager

import pytest

from tests import factories
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.helpers import log_in, post

pytestmark = pytest.mark.browser

FACTION = "Ordre du Lion"
# random.Random(SEED) is the brawl's dice (attack d100 first, then dodge d100): with the
# positions below, Dorian's brawl hits (74 against 90) and Brenna dodges it (d100 < 12, her
# dodge score with the +2), so the log's summary line shows the faction dodge bonus.
SEED = 6


@contextmanager
def browser_page(chromium):
    """A page in a context of its own: another player, with their own cookies."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def open_faction_list(page, campaign):
    """From any page: the header's Factions link, then the campaign's factions."""
    from playwright.sync_api import expect

    page.get_by_role("banner").get_by_role("link", name="Factions").click()
    expect(page).to_have_url(re.compile(r"/factions/$"))
    page.get_by_test_id(f"campaign-{campaign.pk}").click()
    expect(page).to_have_url(re.compile(rf"/factions/campaign/{campaign.pk}/$"))


def test_private_faction_request_accept_and_dodge_bonus(demo, live_server, page, chromium,
                                                        monkeypatch):
    from playwright.sync_api import expect

    import combat.services
    from campaigns.models import ActionRecord
    from characters.models import Character
    from factions.models import Faction, JoinRequest, Membership

    aldric = Character.objects.select_related("campaign").get(name="Aldric")
    brenna = Character.objects.get(name="Brenna")
    campaign = aldric.campaign

    # Alice logs in and founds a private faction with Aldric.
    log_in(page, live_server, "alice")
    open_faction_list(page, campaign)
    create = page.get_by_test_id("create")
    create.locator("select[name=character]").select_option(label="Aldric")
    create.locator("input[name=name]").fill(FACTION)
    create.get_by_label("Private: on request or invitation").check()
    with post(page, f"/factions/campaign/{campaign.pk}/") as response:
        page.get_by_test_id("create-submit").click()
    assert response.value.ok
    expect(page.get_by_test_id("notice")).to_have_text("Faction created.")
    expect(page.get_by_test_id("error")).to_have_count(0)
    faction = Faction.objects.get(campaign=campaign, name=FACTION)
    assert not faction.is_public and faction.leader_id == aldric.pk
    row = page.get_by_test_id(f"faction-{faction.pk}")
    expect(row).to_contain_text("Aldric")
    expect(row).to_contain_text("private")
    row.get_by_role("link", name=FACTION).click()
    expect(page).to_have_url(re.compile(rf"/factions/{faction.pk}/$"))
    expect(page.get_by_test_id("leader")).to_have_text("Aldric")
    expect(page.get_by_test_id("access")).to_have_text("private")
    expect(page.get_by_test_id("size")).to_have_text("1")

    with browser_page(chromium) as bob:
        # Bob logs in, finds the faction and asks to join with Brenna.
        log_in(bob, live_server, "bob")
        open_faction_list(bob, campaign)
        bob.get_by_test_id(f"faction-{faction.pk}").get_by_role("link", name=FACTION).click()
        expect(bob).to_have_url(re.compile(rf"/factions/{faction.pk}/$"))
        expect(bob.get_by_test_id("members-hidden")).to_be_visible()  # private: not a member
        join = bob.get_by_test_id("join-Brenna")
        expect(join).to_have_text("Ask to join with Brenna")
        with post(bob, f"/factions/{faction.pk}/join/") as response:
            join.click()
        assert response.value.ok
        # Issue 8 (item 17): the message says which happened.
        expect(bob.get_by_test_id("notice")).to_have_text(
            f"Request sent: the leader of {FACTION} will answer it.")
        expect(bob.get_by_test_id("request-Brenna")).to_contain_text("asked to join")
        expect(bob.get_by_test_id("join-Brenna")).to_have_count(0)
        expect(bob.get_by_test_id("size")).to_have_text("1")
        assert not Membership.objects.filter(character=brenna).exists()

        # Alice opens her leader's page and accepts the request.
        page.get_by_test_id("manage").click()
        expect(page).to_have_url(re.compile(rf"/factions/{faction.pk}/manage/$"))
        expect(page.get_by_test_id("request-Brenna")).to_contain_text("bob")
        with post(page, "/answer/") as response:
            page.get_by_test_id("accept-Brenna").click()
        assert response.value.ok
        expect(page.get_by_test_id("notice")).to_have_text("Answer recorded.")
        expect(page.get_by_test_id("request-Brenna")).to_have_count(0)
        expect(page.locator("#members").get_by_test_id("member-Brenna")).to_contain_text("bob")
        assert JoinRequest.objects.get(character=brenna).state == JoinRequest.State.ACCEPTED

        # Bob sees Brenna a member (and now sees the members).
        bob.reload()
        expect(bob.get_by_test_id("member-Brenna")).to_be_visible()
        expect(bob.get_by_test_id("member-Aldric")).to_contain_text("leader")
        expect(bob.get_by_test_id("members-hidden")).to_have_count(0)
        expect(bob.get_by_test_id("request-Brenna")).to_have_count(0)
        expect(bob.get_by_test_id("leave-Brenna")).to_be_visible()
        expect(bob.get_by_test_id("size")).to_have_text("2")

    # Positions, arranged in the database since walking there is another journey's business
    # (test_player_journey). The demo puts Brenna at (6, 5) with Aldric at (5, 5), next to her.
    # One ally in view gives floor(2 x log2 1) = 0, so a third member stands in view too:
    # alice's Cassia at (6, 4), just north of Brenna. Brenna then has two allies within the
    # view radius (5 cells): floor(2 x log2 2) = +2 to dodge. Carol's Dorian stands at (7, 5),
    # east of Brenna, adjacent so that he can brawl her; he has no faction, and Carol no other
    # character, so his attack has neither a faction bonus nor an own-characters malus. None of
    # these cells holds a piece (the demo's wolf is at (9, 9), its door at (0, 6)).
    factories.character(owner=aldric.owner, campaign=campaign, name="Cassia", at=(6, 4))
    carol = factories.user("carol")
    dorian = factories.character(owner=carol, campaign=campaign, name="Dorian", at=(7, 5))

    # Cassia joins through the pages too: alice invites her from the leader's page, then
    # accepts the invitation (her own character's) on the faction's page.
    page.reload()
    invite = page.get_by_test_id("invite")
    invite.locator("select[name=character]").select_option(label="Cassia (alice)")
    with post(page, f"/factions/{faction.pk}/invite/") as response:
        page.get_by_test_id("invite-submit").click()
    assert response.value.ok
    expect(page.get_by_test_id("notice")).to_have_text("Invitation sent.")
    expect(page.get_by_test_id("invitation-Cassia")).to_be_visible()
    page.get_by_role("link", name="The faction's page").click()
    expect(page).to_have_url(re.compile(rf"/factions/{faction.pk}/$"))
    expect(page.get_by_test_id("invitation-Cassia")).to_contain_text("Cassia is invited.")
    with post(page, "/answer/") as response:
        page.get_by_test_id("accept-Cassia").click()
    assert response.value.ok
    expect(page.get_by_test_id("notice")).to_have_text("Answer recorded.")
    expect(page.get_by_test_id("member-Cassia")).to_be_visible()
    expect(page.get_by_test_id("size")).to_have_text("3")
    assert set(Membership.objects.filter(faction=faction).values_list(
        "character__name", flat=True)) == {"Aldric", "Brenna", "Cassia"}

    with browser_page(chromium) as third:
        # Carol logs in and opens Dorian's board: Brenna is in view, next to him.
        log_in(third, live_server, carol.username, factories.PASSWORD)
        third.get_by_role("link", name="Dorian", exact=True).click()
        expect(third).to_have_url(re.compile(rf"/characters/{dorian.pk}/$"))
        third.get_by_test_id("board-link").click()
        expect(third).to_have_url(re.compile(rf"/characters/{dorian.pk}/board/$"))
        me = third.locator("#board td.cell.me")
        expect(me).to_have_attribute("data-x", "7")
        expect(me).to_have_attribute("data-y", "5")
        expect(third.get_by_test_id("in-view-Brenna")).to_contain_text("(6, 5)")

        # The live server runs in this process: its SystemRandom becomes a seeded Random for
        # the brawl. ``combat.services.random`` is the random module itself, so the patch is
        # process-wide until the test ends; each call makes a fresh Random(SEED), so the
        # brawl's dice do not depend on what else drew numbers before it.
        seeded = random.Random
        monkeypatch.setattr(combat.services.random, "SystemRandom", lambda: seeded(SEED))
        with post(third, "/attack/") as response:
            third.get_by_test_id("attack-Brenna").click()
        assert response.value.ok
        expect(third.get_by_test_id("error")).to_have_count(0)

        record = ActionRecord.objects.filter(kind="brawl", actor=dorian, target=brenna).get()
        summary = record.summary
        assert summary["hit"], f"SEED {SEED} no longer hits: {summary}"
        assert summary["dodged"], f"SEED {SEED} is no longer dodged: {summary}"
        assert summary["faction_dodge_bonus"] == 2
        assert summary["faction_attack_bonus"] == 0 and summary["own_characters_malus"] == 0
        dodge = record.rolls.get(label="dodge")
        assert {"source": "faction (2 allies)", "value": 2} in [
            {"source": m["source"], "value": m["value"]} for m in dodge.modifiers]

        brawl = third.locator("#combat-log li.log-brawl").first
        expect(brawl).to_contain_text("Dorian attacks Brenna")
        expect(brawl).to_contain_text("dodged")
        expect(brawl).to_contain_text("faction dodge bonus +2")
        # The dodge roll's modifiers, in the entry's "rolls" details.
        expect(brawl.locator("details")).to_contain_text("faction (2 allies) +2")
