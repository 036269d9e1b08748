"""Changes made outside an encounter step reach the open encounter pages without reload, by
the push (issue 17, item 7): the GM's rest shows on the player's page, a new TACNet on the
GM's page of the encounter, well before the 10 s poll kept while the push is live."""

from __future__ import annotations

import pytest

from tests.browser.helpers import log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000  # well under the minute between a live page's safety polls: the push brings it


def _open(chromium, live_server, name, path):
    context = chromium.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server, name, PASSWORD)
    page.goto(f"{live_server.url}{path}")
    return page


def test_the_gms_rest_reaches_the_players_open_page(chromium, live_server, alice, bob):
    from playwright.sync_api import expect

    from encounters import services as enc
    from homebrew.models import HomebrewSheet
    from homebrew.services import rest_grant
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Sparring")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.goblin)])
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=1)
    full = HomebrewSheet.objects.get(pk=hb.aria.pk).hp_max
    page = _open(chromium, live_server, "alice", f"/encounters/{e.pk}/")
    hp = page.locator("#encounter [data-testid=meter][data-key=hp] .meter-value").first
    expect(hp).to_have_text(f"1/{full}")
    expect(page.locator("body")).to_have_attribute("data-push", "live")

    rest_grant(user=hb.gm, campaign=hb.campaign, kind="long")
    expect(hp).to_have_text(f"{full}/{full}", timeout=SWAP_MS)


def test_a_new_tacnet_reaches_the_gms_open_page(chromium, live_server, alice, bob):
    from playwright.sync_api import expect

    from eclipse import tacnet
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, _c = running(ep)
    page = _open(chromium, live_server, "gm", f"/encounters/{e.pk}/control/")
    expect(page.locator("body")).to_have_attribute("data-push", "live")
    expect(page.locator("#encounter")).not_to_contain_text("Night watch")

    tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Night watch")
    expect(page.locator("#encounter")).to_contain_text("Night watch", timeout=SWAP_MS)


def test_a_steps_fragment_arrives_in_the_stream_with_no_request(chromium, live_server, alice,
                                                                bob):
    """The page swaps in the new fragment the stream pushed (encounters.streamed): the change
    shows, its forms work, and the page sent no request for it."""
    from playwright.sync_api import expect

    from encounters import services as enc
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Sparring")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.goblin)])
    page = _open(chromium, live_server, "alice", f"/encounters/{e.pk}/")
    expect(page.locator("body")).to_have_attribute("data-push", "live")
    page.wait_for_timeout(1000)  # the refetch of the stream's opening is over
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if f"/encounters/{e.pk}/" in r.url
            and "/events/" not in r.url else None)
    version = page.locator("#encounter").get_attribute("data-version")

    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    expect(page.locator("#encounter")).not_to_have_attribute("data-version", version,
                                                             timeout=SWAP_MS)
    expect(page.locator("#encounter [data-testid=status]")).to_contain_text("Round 1")
    assert fetched == []
    # The swapped fragment is htmx's: its own triggers are bound (the safety poll fetches it).
    page.evaluate("() => htmx.trigger(document.getElementById('encounter'), 'encounter-changed')")
    page.wait_for_timeout(500)
    assert any("?v=" in url for url in fetched)
