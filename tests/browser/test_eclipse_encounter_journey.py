"""Issue 12's journey on the shared encounter, two players and the game master in three browser
contexts: the GM starts; its Guard's turn: the odds panel before the shot, then full auto with
the rifle at Bo; Bob is prompted on his page without reloading and dodges (dodge/2 against a
ranged attack); every page's log shows the rolls (attack, defence, damage, the SOMx3 test);
Bo's sleeve carries the damage and wounds; the GM ends the turn and it is Alice's.

Dice scripted for the live server's thread (random.SystemRandom patched): the d100s show 45
(the Guard's kinetic weapons 60: a hit, margin 45: +5 DV), 30 (Bo's dodge/2 = 20: a failure),
50 (SOMx3 60 - 30 for three wounds: a failure, stunned); the d10s 7 and 8: 2d10+2 = 17 + 5 =
22, kinetic armour 4 - AP 4 = 0, 22 damage, (22 - 1) // 6 = 3 wounds."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 10_000  # well under the minute between a live page's safety polls: the push brings it


class ScriptedDice:
    d100: ClassVar[list[int]] = []
    d10: ClassVar[list[int]] = []

    def randint(self, a: int, b: int) -> int:
        queue = ScriptedDice.d100 if b == 100 else ScriptedDice.d10 if b == 10 else []
        return queue.pop(0) if queue else a


def test_the_gm_fires_full_auto_bob_dodges_and_every_log_shows_the_rolls(
        chromium, live_server, alice, bob, monkeypatch):
    from playwright.sync_api import expect

    from eclipse.models import CarriedWeapon, Sleeve
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world

    ScriptedDice.d100, ScriptedDice.d10 = [45, 30, 50], [7, 8]
    monkeypatch.setattr(random, "SystemRandom", ScriptedDice)
    ep = build_world(alice, bob)
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Habitat breach")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.guard, ep.ava, ep.bo)])

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

    gm.get_by_test_id("start").click()
    expect(gm.get_by_test_id("attack-form")).to_be_visible(timeout=SWAP_MS)
    expect(bob_page.get_by_test_id("status")).to_contain_text("Guard's turn", timeout=SWAP_MS)
    gm.get_by_test_id("attack-target").select_option(label="Bo")
    gm.get_by_test_id("attack-weapon").select_option(index=0)  # the rifle, 20/20
    gm.get_by_test_id("attack-mode").select_option("FA")
    with post(gm, "/odds/"):
        gm.get_by_test_id("odds-button").click()
    odds = gm.get_by_test_id("odds-line")
    expect(odds).to_have_count(2)  # no defence, dodge
    expect(gm.get_by_test_id("odds-hit").first).to_contain_text("%")
    expect(gm.get_by_test_id("odds-wounds").first).to_contain_text("%")
    with post(gm, "/attack/"):
        gm.get_by_test_id("attack").click()

    expect(bob_page.get_by_test_id("answer-dodge")).to_be_visible(timeout=SWAP_MS)
    expect(alice_page.get_by_test_id("answer-dodge")).to_have_count(0)  # Bo's to answer
    bob_page.get_by_test_id("answer-dodge").click()
    expect(bob_page.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)

    for p in (gm, alice_page, bob_page):
        log = p.get_by_test_id("log")
        expect(log).to_contain_text("Guard", timeout=SWAP_MS)
        expect(log).to_contain_text("Dodge")
        expect(log).to_contain_text("1d100 → 45 = 45 / 60")  # the attack
        expect(log).to_contain_text("1d100 → 30 = 30 / 20")  # dodge/2
        expect(log).to_contain_text("2d10+2 → 7, 8 = 17")  # the damage dice
        expect(log).to_contain_text("1d100 → 50 = 50 / 30")  # SOMx3 - 30 against stun
    s = Sleeve.objects.get(worn_by__character=ep.bo)
    assert (s.damage, s.wounds, s.stunned) == (22, 3, 1)
    assert CarriedWeapon.objects.get(pk=ep.w.guard_rifle.pk).loaded == 10

    gm.get_by_test_id("end-turn").click()
    expect(alice_page.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
    expect(alice_page.get_by_test_id("attack-form")).to_be_visible()
    expect(alice_page.get_by_test_id("phase-actions")).to_contain_text("0 quick, 0 complex")
    for p in pages.values():
        p.context.close()


# --- the demo's encounter -------------------------------------------------------------------

# The push brings the prompt (issue 11, item 6): with the stream live the page polls once a
# minute only (data-live-poll), so a prompt shown within a few seconds came through the push.
# Its latency is the bench's figure (make bench), not a timed test's: on a loaded 2-core
# machine the push, the render and the swap have taken 1.2 s.
PROMPT_WITHIN_S = 5.0
PLAYERS = {"Ash Okonkwo": "alice", "Brick": "bob"}  # eclipse.demo's squad


class DemoDice:
    """The demo journey's faces, shared by every instance: the d100s 25 (the attack: a
    success, MoS 25, no DV bonus below 30), 90 (the dodge/2: a failure), 10 (SOMx3 against
    the knockdown of the wound: a success); the d10s 7 and 8 (the rifle's 2d10)."""

    d100: ClassVar[list[int]] = []
    d10: ClassVar[list[int]] = []

    def randint(self, a: int, b: int) -> int:
        queue = DemoDice.d100 if b == 100 else DemoDice.d10 if b == 10 else []
        return queue.pop(0) if queue else a


def test_on_the_demo_a_player_fires_a_burst_the_other_dodges_and_every_log_shows_it(
        chromium, live_server, demo, monkeypatch):
    """The demo's Eclipse Phase encounter: the GM starts it in their order; in the first
    player character's action phase (Ash's, Alice's) its player fires a burst (BF, concentrated
    to hit) with a table row checked (superior position +20), the odds shown first, at the
    other player's character (Brick, Bob's); that player is prompted within a second (pushed)
    and dodges; every page's log shows both tests with their modifiers, the damage through
    armour and the SOMx3 test; the GM advances the phase."""
    import time

    from playwright.sync_api import expect

    from eclipse.demo import DEMO_ENCOUNTER
    from eclipse.models import Sleeve
    from encounters.models import Encounter

    DemoDice.d100, DemoDice.d10 = [25, 90, 10], [7, 8]
    monkeypatch.setattr(random, "SystemRandom", DemoDice)
    e = Encounter.objects.get(name=DEMO_ENCOUNTER)

    pages = {}
    for name in ("gm", "alice", "bob"):
        context = chromium.new_context(locale="en-GB")
        context.set_default_timeout(15_000)
        pages[name] = context.new_page()
        log_in(pages[name], live_server, name)
    gm = pages["gm"]
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    for name in ("alice", "bob"):
        pages[name].goto(f"{live_server.url}/encounters/{e.pk}/")
    expect(pages["bob"].get_by_test_id("status")).to_contain_text("Not started")
    for p in pages.values():  # the event streams are open
        expect(p.locator("body")).to_have_attribute("data-push", "live")

    with post(gm, "/start/"):
        gm.get_by_test_id("start").click()
    for _ in range(8):  # to the first player character's action phase
        status = gm.get_by_test_id("status").inner_text()
        current = next((c for c in PLAYERS if f"{c}'s turn" in status), None)
        if current:
            break
        with post(gm, "/next/"):
            gm.get_by_test_id("next").click()
    assert current, status
    other = next(c for c in PLAYERS if c != current)
    attacker, defender = pages[PLAYERS[current]], pages[PLAYERS[other]]

    expect(attacker.get_by_test_id("your-turn")).to_be_visible(timeout=SWAP_MS)
    expect(attacker.get_by_test_id("attack-form")).to_be_visible()
    attacker.get_by_test_id("attack-target").select_option(label=other)
    attacker.get_by_test_id("attack-weapon").select_option(index=0)  # the rifle, the pulser
    attacker.get_by_test_id("attack-mode").select_option("BF")
    attacker.get_by_test_id("attack-concentrate").select_option("bonus")
    attacker.get_by_test_id("situations-open").click()
    attacker.get_by_test_id("situation-superior_position").check()
    with post(attacker, "/odds/"):
        attacker.get_by_test_id("odds-button").click()
    expect(attacker.get_by_test_id("odds-line")).to_have_count(2)  # no defence, dodge
    expect(attacker.get_by_test_id("odds-hit").first).to_contain_text("%")
    expect(attacker.get_by_test_id("odds-wounds").first).to_contain_text("%")
    with post(attacker, "/attack/"):
        attacker.get_by_test_id("attack").click()

    asked = time.monotonic()
    expect(defender.get_by_test_id("answer-dodge")).to_be_visible(timeout=SWAP_MS)
    prompted_after = time.monotonic() - asked
    assert prompted_after < PROMPT_WITHIN_S, prompted_after
    expect(attacker.get_by_test_id("answer-dodge")).to_have_count(0)  # not the attacker's
    with post(defender, "/answer/"):
        defender.get_by_test_id("answer-dodge").click()
    expect(defender.get_by_test_id("reaction")).to_have_count(0, timeout=SWAP_MS)

    for p in pages.values():
        entry = p.get_by_test_id("ep-log-eclipse_attack")
        expect(entry).to_contain_text(f"{current} → {other}", timeout=SWAP_MS)
        expect(entry).to_contain_text("(BF, 3 rounds)")
        expect(entry).to_contain_text("Defence: Dodge")
        shot = entry.get_by_test_id("ep-shot").first
        expect(shot).to_contain_text("Success, MoS 25")
        expect(shot).to_contain_text("superior position +20")
        expect(shot).to_contain_text("burst +10")
        expect(shot).to_contain_text("dodge/2 90 /")
        expect(shot).to_contain_text("Failure")
        expect(shot).to_contain_text("hit")
        expect(shot.get_by_test_id("ep-damage")).to_contain_text("DV 15")
        log = p.get_by_test_id("log")
        expect(log).to_contain_text("1d100 → 25 = 25")  # the rolls' details
        expect(log).to_contain_text("1d100 → 90 = 90")
        expect(log).to_contain_text("2d10 → 7, 8 = 15")
    entry = gm.get_by_test_id("ep-log-eclipse_attack")
    for seen in (  # the skill 55 + superior position 20 + the burst's 10; fray 35 / 2
            "attack Kinetic weapons 25 / 85 Success, MoS 25 [superior position +20, "
            "short range +0, concentrated burst +10]; defence dodge/2 90 / 17 Failure — hit",
            "DV 15, armour 6 - AP 6 = 0, 15 damage, 1 wound",  # the synth's 6, the rifle's AP 6
            # SOM 20 + the synth's 5, x3 = 75: the one wound's -10 is ignored by the pain
            # filter implanted in Brick's synth (issue 18)
            "SOMx3 against knockdown 10 / 75 Success, MoS 10 [wounds (pain filter: one "
            "ignored) +0]",
            f"{other}: 1 hit, damage 0 → 15, wounds 0 → 1"):
        expect(entry).to_contain_text(seen)
    sleeve = Sleeve.objects.get(worn_by__character__name=other)
    assert (sleeve.damage, sleeve.wounds, sleeve.knocked_down) == (15, 1, False)

    with post(gm, "/next/"):
        gm.get_by_test_id("next").click()
    expect(attacker.get_by_test_id("your-turn")).to_have_count(0, timeout=SWAP_MS)
    expect(defender.get_by_test_id("status")).not_to_contain_text(f"{current}'s turn")
    for p in pages.values():
        p.context.close()
