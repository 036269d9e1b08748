"""Issue 21, item 4 in a browser: two players in two contexts. Bob turns the notifications on
(the opt-in, remembered in this browser); Alice's Aria attacks Bob's Bran; Bob's page shows
the prompt with the attack (attacker, weapon, damage dice, each answer's chance to succeed)
and a countdown that runs, flags the tab's title and raises one notification (none again on
the next refetch of the same prompt); Bob parries and the title comes back. A screenshot of
the prompt is saved (PERCENTILE_SCREENSHOT_PROMPT, or the test's tmp_path).

The browser's Notification is replaced by a recorder before the page's scripts run (a
headless browser shows none); the dice are scripted for the live server's thread as in
test_homebrew_encounter_journey: every d100 shows 40 (a hit), the d6s 5 then 3."""

from __future__ import annotations

import os
import random
import re
from typing import ClassVar

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000

RECORD_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({title: title, body: options && options.body}); }
  static requestPermission() {
    window.Notification.permission = "granted";
    return Promise.resolve("granted");
  }
};
window.Notification.permission = "default";
"""


class ScriptedDice:
    d6: ClassVar[list[int]] = [5, 3]

    def randint(self, a: int, b: int) -> int:
        if b == 100:
            return 40
        if b == 6 and ScriptedDice.d6:
            return ScriptedDice.d6.pop(0)
        return a


def test_the_defender_sees_the_attack_its_odds_and_a_countdown_and_is_alerted(
        chromium, live_server, alice, bob, monkeypatch, tmp_path):
    from playwright.sync_api import expect

    from encounters import services as enc
    from homebrew.models import HomebrewSheet
    from tests.homebrew.conftest import build_world

    ScriptedDice.d6 = [5, 3]
    monkeypatch.setattr(random, "SystemRandom", ScriptedDice)
    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive", force=4,
                                                         dexterite=2)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Sparring")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.bran, hb.goblin)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")

    pages = {}
    for name in ("alice", "bob"):
        context = chromium.new_context(locale="en-GB", viewport={"width": 1100, "height": 900})
        context.set_default_timeout(15_000)
        context.add_init_script(RECORD_NOTIFICATIONS)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name, PASSWORD)
        pages[name].goto(f"{live_server.url}/encounters/{e.pk}/")
    alice_page, bob_page = pages["alice"], pages["bob"]
    for p in pages.values():
        expect(p.locator("body")).to_have_attribute("data-push", "live")
    title = bob_page.title()
    assert not title.startswith("(!)")
    # Aria's turn: Alice's tab is flagged; Bob's is not.
    expect(alice_page).to_have_title(f"(!) Your turn — {title}")
    toggle = bob_page.get_by_test_id("alerts-toggle")
    expect(toggle).to_have_text("Notifications: off")
    toggle.click()
    expect(toggle).to_have_text("Notifications: on")
    assert bob_page.evaluate("localStorage.getItem('percentile.encounter-alerts')") == "on"

    alice_page.get_by_test_id("attack-target").select_option(label="Bran")
    alice_page.get_by_test_id("attack-weapon").select_option(label="Sword (1d6)")
    with post(alice_page, "/attack/"):
        alice_page.get_by_test_id("attack").click()

    card = bob_page.get_by_test_id("reaction")
    expect(card).to_be_visible(timeout=SWAP_MS)
    expect(card.get_by_test_id("prompt-attacker")).to_have_text("Aria")
    expect(card.get_by_test_id("prompt-weapon")).to_have_text("Sword")
    expect(card.get_by_test_id("prompt-dice")).to_have_text("1d6 · rolled 5")
    expect(card.get_by_test_id("chance-parry")).to_contain_text("66.7 % to succeed")
    expect(card.get_by_test_id("chance-dodge")).to_contain_text("33.3 % to succeed")
    countdown = card.get_by_test_id("countdown")
    expect(countdown).to_have_text(re.compile(r"^\d+ s left$"))
    first = int(countdown.inner_text().split()[0])
    bob_page.wait_for_function(
        "(n) => parseInt(document.querySelector('[data-testid=countdown]').textContent) < n",
        arg=first, timeout=5_000)
    expect(bob_page).to_have_title(f"(!) You are attacked: react — {title}")
    reaction_id = bob_page.locator("#enc-reactions [data-alert-prompts]").get_attribute(
        "data-alert-prompts")
    expect(bob_page.locator("html")).to_have_attribute("data-alerted", f"prompt-{reaction_id}")
    notes = bob_page.evaluate("window.__notes")
    assert len(notes) == 1 and "An attack waits for your reaction" in notes[0]["body"]
    assert bob_page.evaluate("window.__notes.length") == 1
    # A refetch of the same prompt announces nothing again.
    bob_page.evaluate("htmx.trigger(document.getElementById('encounter'), 'encounter-changed')")
    bob_page.wait_for_timeout(800)
    assert bob_page.evaluate("window.__notes.length") == 1

    shot = os.environ.get("PERCENTILE_SCREENSHOT_PROMPT") or str(tmp_path / "prompt.png")
    bob_page.screenshot(path=shot, full_page=True)

    card.get_by_test_id("answer-parry").click()
    expect(bob_page.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)
    expect(bob_page).to_have_title(title)
    expect(bob_page.get_by_test_id("log")).to_contain_text("blocked 3", timeout=SWAP_MS)
    for p in pages.values():
        p.context.close()
