"""Issue 17, item 7, in a real browser, for the kinds the other live tests leave out: a change
made in one context (or by a beat task) reaches a page open in another without reload, through
the page's one stream (campaigns.live), well before its fallback poll (30 s).

- an Eclipse Phase sheet: the game master heals Ash, the player's sheet page shows it;
- factions: a request to join reaches the leader's page, the acceptance the player's page
  (the faction's topic), an invitation the invited player's Factions page (their own topic);
- the regeneration tick (a beat task): the PA it gives show on the player's open board.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser.helpers import expect_gauge, htmx_ready, log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEEN_WITHIN_MS = 2_500  # well under the pages' 30 s poll without the stream


def _pages(chromium, live_server, *users, password=PASSWORD):
    contexts = [chromium.new_context(locale="en-GB") for _ in users]
    pages = []
    for context, user in zip(contexts, users):
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, live_server, user, password)
        pages.append(page)
    return contexts, pages


def _open_live(page, url):
    page.goto(url)
    htmx_ready(page)
    page.wait_for_function("() => document.body.dataset.live === 'live'")


def test_a_gms_healing_shows_on_the_players_eclipse_sheet(chromium, live_server, alice, bob):
    from playwright.sync_api import expect

    from eclipse.models import Sleeve
    from tests.eclipse.conftest import build_world

    ep = build_world(alice, bob)
    Sleeve.objects.filter(pk=ep.ash.eclipse.sleeve_id).update(damage=5)
    contexts, (player, gm) = _pages(chromium, live_server, "alice", "gm")
    try:
        url = f"{live_server.url}/eclipse/characters/{ep.ash.pk}/"
        _open_live(player, url)
        expect(player.get_by_test_id("damage").first).to_have_text("5")
        gm.goto(url)
        form = gm.get_by_test_id("heal-form")
        form.locator("input[name=damage]").fill("3")
        with post(gm, "/heal/") as response:
            form.locator("button[type=submit]").click()
        assert response.value.ok
        expect(player.get_by_test_id("damage").first).to_have_text("2", timeout=SEEN_WITHIN_MS)
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def table(transactional_db):
    """Lea leads the private Wolves; Otto, in no faction, plays in the same campaign."""
    from factions import services
    from tests import factories

    campaign = factories.campaign(name="War")
    lea, otto = factories.user("lea"), factories.user("otto")
    chars = {u.username: factories.character(owner=u, campaign=campaign, name=u.username.title(),
                                             at=(i, 0)) for i, u in enumerate((lea, otto))}
    wolves = services.faction_create(user=lea, character_id=chars["lea"].pk, name="Wolves",
                                     is_public=False)
    return campaign, wolves, chars


def test_a_request_reaches_the_leader_and_the_answer_the_player(chromium, live_server, table):
    from playwright.sync_api import expect

    _campaign, wolves, _chars = table
    contexts, (otto, lea) = _pages(chromium, live_server, "otto", "lea")
    try:
        _open_live(lea, f"{live_server.url}/factions/{wolves.pk}/manage/")
        _open_live(otto, f"{live_server.url}/factions/{wolves.pk}/")
        expect(lea.get_by_test_id("request-Otto")).to_have_count(0)
        with post(otto, "/join/") as response:
            otto.get_by_test_id("join-Otto").click()
        assert response.value.ok
        expect(lea.get_by_test_id("request-Otto")).to_have_count(1, timeout=SEEN_WITHIN_MS)
        expect(lea.get_by_test_id("pending-count")).to_have_text("1", timeout=SEEN_WITHIN_MS)
        expect(otto.get_by_test_id("member-Otto")).to_have_count(0)
        with post(lea, "/answer/") as response:
            lea.get_by_test_id("accept-Otto").click()
        assert response.value.ok
        expect(otto.get_by_test_id("member-Otto")).to_have_count(1, timeout=SEEN_WITHIN_MS)
        expect(otto.get_by_test_id("leave-Otto")).to_have_count(1)
    finally:
        for context in contexts:
            context.close()


def test_an_invitation_reaches_the_invited_players_factions_page(chromium, live_server, table):
    from playwright.sync_api import expect

    _campaign, wolves, chars = table
    contexts, (otto, lea) = _pages(chromium, live_server, "otto", "lea")
    try:
        _open_live(otto, f"{live_server.url}/factions/")
        expect(otto.get_by_test_id("invited-Otto")).to_have_count(0)
        lea.goto(f"{live_server.url}/factions/{wolves.pk}/manage/")
        lea.locator("#id_invite").select_option(str(chars["otto"].pk))
        with post(lea, "/invite/") as response:
            lea.get_by_test_id("invite-submit").click()
        assert response.value.ok
        expect(otto.get_by_test_id("invited-Otto")).to_have_count(1, timeout=SEEN_WITHIN_MS)
        expect(otto.get_by_test_id("pending-count")).to_have_text("1", timeout=SEEN_WITHIN_MS)
    finally:
        for context in contexts:
            context.close()


def test_the_regeneration_tick_shows_on_the_players_board(demo, chromium, live_server):
    from django.utils import timezone

    from characters.models import Character
    from config.demo import DEMO_PASSWORD
    from ew1.models import EternalWarSheet
    from ew1.regeneration import unix
    from ew1.tasks import regenerate_resources

    aldric = Character.objects.get(name="Aldric")
    now = unix(timezone.now())
    EternalWarSheet.objects.filter(pk=aldric.pk).update(pa=Decimal(0), pa_anchor=now)
    contexts, (alice,) = _pages(chromium, live_server, "alice", password=DEMO_PASSWORD)
    try:
        _open_live(alice, f"{live_server.url}/characters/{aldric.pk}/board/")
        expect_gauge(alice, "pa", Decimal(0))
        alice.evaluate("document.activeElement && document.activeElement.blur()")
        # Two days owed, unknown to the page (no announcement): only the tick tells it.
        EternalWarSheet.objects.filter(pk=aldric.pk).update(
            pa_anchor=unix(timezone.now() - timedelta(days=2)))
        assert regenerate_resources.run() >= 1
        pa = EternalWarSheet.objects.get(pk=aldric.pk).pa
        assert pa > 0
        alice.wait_for_function(
            "(v) => Number(document.querySelector(\"#board [data-testid='pa']\").textContent"
            ".trim()) === v", arg=float(pa), timeout=SEEN_WITHIN_MS)
        expect_gauge(alice, "pa", pa)
    finally:
        for context in contexts:
            context.close()
