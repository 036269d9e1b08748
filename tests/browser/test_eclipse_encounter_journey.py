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
from dataclasses import replace

import pytest

from tests.browser.helpers import log_in, post
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SWAP_MS = 3_000


class ScriptedDice:
    d100: list[int] = []
    d10: list[int] = []

    def randint(self, a: int, b: int) -> int:
        queue = ScriptedDice.d100 if b == 100 else ScriptedDice.d10 if b == 10 else []
        return queue.pop(0) if queue else a


@pytest.fixture
def registry_templates():
    """As tests/eclipse_play/conftest.py: the registry's sheet templates come with the sheet
    pages (another branch)."""
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    from campaigns import rule_systems

    spec = rule_systems.get("eclipse_phase")
    try:
        get_template(spec.templates.log_entry)
    except TemplateDoesNotExist:
        rule_systems.register(replace(spec, templates=rule_systems.Templates()))
    yield
    rule_systems.register(spec)


def test_the_gm_fires_full_auto_bob_dodges_and_every_log_shows_the_rolls(
        chromium, live_server, alice, bob, monkeypatch, registry_templates):
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
