"""Issue 11's "Done when" journey: two players and the game master in three browser contexts.
The GM starts the homebrew encounter; Alice attacks Bran with the odds shown; Bob is prompted
on his page without reloading, within a second (the server pushes the encounter's new version
on its event stream, the fragment fetches itself) and parries; the
log shows the rolls with their grades; the GM advances the turn and Bob's page says it is his.

The dice are scripted for the live server's thread (random.SystemRandom patched): every d100
shows 40 (Aria's Physique 60: a hit), the d6s show 5 (the sword's damage), then 3 (Bran's
Force 3: a successful parry blocking 3)."""

from __future__ import annotations

import random
import time
from typing import ClassVar

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000  # well under the minute between a live page's safety polls: the push brings it
# The push brings the prompt (issue 11, item 6): with the stream live the page polls once a
# minute only (data-live-poll), so a prompt shown within a few seconds came through the push.
# Its latency is the bench's figure (make bench), not a timed test's: on a loaded 2-core
# machine the push, the render and the swap have taken 1.2 s.
PROMPT_WITHIN_S = 5.0


class ScriptedDice:
    """Faces shared by every instance (each service makes its own random source)."""

    d6: ClassVar[list[int]] = [5, 3]

    def randint(self, a: int, b: int) -> int:
        if b == 100:
            return 40
        if b == 6 and ScriptedDice.d6:
            return ScriptedDice.d6.pop(0)
        return a


def test_two_players_and_the_gm_play_an_attack_and_its_parry(chromium, live_server, alice, bob,
                                                            monkeypatch):
    from playwright.sync_api import expect

    from encounters import services as enc
    from homebrew.models import HomebrewSheet
    from tests.homebrew.conftest import build_world

    ScriptedDice.d6 = [5, 3]
    monkeypatch.setattr(random, "SystemRandom", ScriptedDice)
    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive")
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Sparring")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.bran, hb.goblin)])

    pages = {}
    for name in ("gm", "alice", "bob"):
        context = chromium.new_context(locale="en-GB")
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
    gm, alice_page, bob_page = pages["gm"], pages["alice"], pages["bob"]
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    alice_page.goto(f"{live_server.url}/encounters/{e.pk}/")
    bob_page.goto(f"{live_server.url}/encounters/{e.pk}/")
    expect(bob_page.get_by_test_id("status")).to_contain_text("Not started")
    for p in pages.values():  # the event streams are open: the pages now poll every 10 s only
        expect(p.locator("body")).to_have_attribute("data-push", "live")

    gm.get_by_test_id("start").click()
    expect(alice_page.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
    expect(bob_page.get_by_test_id("status")).to_contain_text("Aria's turn", timeout=SWAP_MS)
    expect(alice_page.get_by_test_id("odds-line").first).to_be_attached()
    alice_page.get_by_test_id("attack-target").select_option(label="Bran")
    alice_page.get_by_test_id("attack-weapon").select_option(label="Sword (1d6)")
    alice_page.get_by_test_id("attack-description").fill("A feint, then a thrust")
    with post(alice_page, "/attack/"):
        alice_page.get_by_test_id("attack").click()

    asked = time.monotonic()  # the attack is stored: the push brings Bob the prompt
    expect(bob_page.get_by_test_id("answer-parry")).to_be_visible(timeout=SWAP_MS)
    prompted_after = time.monotonic() - asked
    print(f"prompted after {prompted_after:.2f} s")
    assert prompted_after < PROMPT_WITHIN_S  # the push, a render and the swap
    expect(bob_page.get_by_test_id("answer-dodge")).to_be_visible()
    bob_page.get_by_test_id("answer-parry").click()
    expect(bob_page.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)

    for p in (gm, alice_page, bob_page):
        log = p.get_by_test_id("log")
        expect(log).to_contain_text("Sword", timeout=SWAP_MS)
        expect(log).to_contain_text("blocked 3")
        expect(log).to_contain_text("1d100 → 40 = 40 / 60")
        expect(log.get_by_test_id("grade").first).to_be_attached()
    assert HomebrewSheet.objects.get(pk=hb.bran.pk).hp == 18  # 5 - 3

    gm.get_by_test_id("next").click()
    expect(bob_page.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
    expect(bob_page.get_by_test_id("status")).to_contain_text("Bran's turn")
    expect(alice_page.get_by_test_id("your-turn")).to_have_count(0, timeout=SWAP_MS)
    for p in pages.values():
        p.context.close()
