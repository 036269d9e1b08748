"""A homebrew player finishes creation alone and joins an encounter (issue 21, item 6): Carol
begins a character from her list, shares the points, picks her starting gear among the
weapons and spells the GM offers, lands on a sheet with them equipped; the GM lets players
join the encounter from its control page; Carol's encounter page offers "Join with Nova", she
joins, and the GM's page shows Nova without a reload (pushed). A screenshot of each page is
kept (tests/browser/helpers.artefacts_dir)."""

from __future__ import annotations

import pytest

from tests.browser.helpers import artefacts_dir, htmx_ready, log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000


def test_a_player_creates_a_character_with_gear_and_joins_an_encounter(
        chromium, live_server, alice, bob, tmp_path):
    from playwright.sync_api import expect

    from encounters import services as enc
    from encounters.models import Combatant
    from tests import factories
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    for w in (hb.sword, hb.fireball):
        w.offered_at_creation = True
        w.save()
    factories.user("carol")
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Crossing")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.goblin)])
    shots = artefacts_dir(tmp_path)

    pages = {}
    for name in ("gm", "carol"):
        context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
    gm, carol = pages["gm"], pages["carol"]

    # Carol: the list's button says what it begins; the homebrew page shares points, no dice.
    carol.goto(f"{live_server.url}/characters/")
    expect(carol.get_by_test_id("creation-steps")).to_contain_text("no dice")
    carol.get_by_label("Name").fill("Nova")
    carol.get_by_role("button", name="Begin the character").click()
    expect(carol.get_by_test_id("gear")).to_be_visible()
    expect(carol.get_by_test_id(f"gear-{hb.claws.pk}")).to_have_count(0)  # not offered
    carol.get_by_test_id(f"gear-{hb.sword.pk}").check()
    carol.get_by_test_id(f"gear-{hb.fireball.pk}").check()
    carol.screenshot(path=str(shots / "homebrew-creation-gear.png"), full_page=True)
    htmx_ready(carol)
    carol.get_by_role("button", name="Create the character").click()
    weapons = carol.get_by_test_id("weapons")
    expect(weapons).to_contain_text("Sword · 1d6")
    expect(weapons).to_contain_text("Fireball · 1d8")
    expect(weapons).not_to_contain_text("Nothing equipped.")
    carol.screenshot(path=str(shots / "homebrew-sheet-gear.png"), full_page=True)

    # Not allowed yet: the encounter does not exist for her.
    response = carol.goto(f"{live_server.url}/encounters/{e.pk}/")
    assert response is not None and response.status == 404

    # The GM lets players join, from the control page.
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    expect(gm.locator("body")).to_have_attribute("data-push", "live")
    with post(gm, f"/encounters/{e.pk}/joining/"):
        gm.get_by_test_id("joining").click()
    expect(gm.get_by_test_id("joining-state")).to_contain_text("Players may join")

    # Carol joins with Nova; the GM's page shows Nova, pushed.
    carol.goto(f"{live_server.url}/encounters/{e.pk}/")
    join = carol.get_by_role("button", name="Join with Nova")
    expect(join).to_be_visible()
    expect(carol.locator("main")).not_to_contain_text("Goblin")  # nothing else of it shown
    join.click()
    expect(carol.locator("main")).to_contain_text("You joined the encounter.")
    expect(carol.get_by_test_id("status")).to_be_visible()
    expect(gm.locator("#encounter")).to_contain_text("Nova", timeout=SWAP_MS)
    assert Combatant.objects.filter(encounter=e, character__name="Nova").count() == 1
    carol.screenshot(path=str(shots / "encounter-joined.png"), full_page=True)
    gm.screenshot(path=str(shots / "encounter-joined-gm.png"), full_page=True)
    for p in pages.values():
        p.context.close()


def test_the_eclipse_skill_defaults_follow_the_aptitudes_typed(page, live_server, alice, tmp_path):
    from playwright.sync_api import expect

    from tests import factories

    campaign = factories.EclipseCampaignFactory(name="EP journey")
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}/eclipse/campaigns/{campaign.pk}/new/?name=Nova")
    expect(page.get_by_test_id("default-fray")).to_have_text("defaults to REF (15)")
    expect(page.get_by_test_id("default-infosec")).to_have_text("cannot be used untrained")
    page.get_by_test_id("field-REF").fill("22")
    expect(page.get_by_test_id("default-fray")).to_have_text("defaults to REF (22)")
    expect(page.get_by_test_id("default-freefall")).to_have_text("defaults to REF (22)")
    expect(page.get_by_test_id("default-blades")).to_have_text("defaults to SOM (15)")
    page.screenshot(path=str(artefacts_dir(tmp_path) / "eclipse-creation-skills.png"),
                    full_page=True)
