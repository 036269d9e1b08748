"""Alice's equipment in a real browser: Aldric's inventory (unequip and equip again his
legendary mace through htmx, no page load), a melee attack on Brenna with it, the healing
potion, then a suicide and a reincarnation."""

import re
from datetime import timedelta

import pytest

from tests.browser.helpers import answered, expect_gauge, gauge, log_in, post

pytestmark = pytest.mark.browser

MACE = "Masse à deux mains"
POTION = "Potion de soin"


def test_aldric_equips_attacks_drinks_and_reincarnates(demo, live_server, page):
    from django.utils import timezone
    from playwright.sync_api import expect

    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    params = aldric.campaign.parameters

    # Alice logs in and opens Aldric's sheet.
    log_in(page, live_server, "alice")
    page.get_by_role("link", name="Aldric", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Aldric")
    page.evaluate("window.__journey = 'same page'")

    # The legendary mace is equipped.
    mace = page.get_by_test_id(f"item-{MACE}")
    expect(mace).to_contain_text("legendary")
    expect(mace).to_contain_text("equipped")
    expect(page.get_by_test_id(f"unequip-{MACE}")).to_be_visible()

    # Unequip it, then equip it again: each click swaps the sheet in place.
    with post(page, "/unequip/") as response:
        page.get_by_test_id(f"unequip-{MACE}").click()
    assert response.value.ok, answered(response.value)
    expect(page.get_by_test_id("notice")).to_have_text("Unequipped.")
    expect(page.get_by_test_id(f"equip-{MACE}")).to_be_visible()
    expect(page.get_by_test_id(f"unequip-{MACE}")).to_have_count(0)
    expect(page.get_by_test_id(f"item-{MACE}")).not_to_contain_text("equipped")

    with post(page, "/equip/") as response:
        page.get_by_test_id(f"equip-{MACE}").click()
    assert response.value.ok, answered(response.value)
    expect(page.get_by_test_id("notice")).to_have_text("Equipped.")
    expect(page.get_by_test_id(f"unequip-{MACE}")).to_be_visible()
    expect(page.get_by_test_id(f"item-{MACE}")).to_contain_text("equipped")
    expect(page.get_by_test_id("error")).to_have_count(0)
    assert page.evaluate("window.__journey") == "same page", "equipping reloaded the page"
    assert page.url.endswith(f"/characters/{aldric.pk}/")

    # The board: hit Brenna (next to Aldric) with the mace.
    page.get_by_test_id("board-link").click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/board/$"))
    expect(page.locator("#board td.cell.me")).to_have_count(1)
    pa_before = gauge(page, "pa")
    attack = page.get_by_test_id("attack-melee-Brenna")
    expect(attack).to_be_visible()
    with post(page, "/attack/") as response:
        attack.click()
    assert response.value.ok, answered(response.value)
    melee = page.locator("#combat-log li.log-melee").first
    expect(melee).to_contain_text("Aldric attacks Brenna")
    expect(melee).to_contain_text(MACE)
    expect(melee).to_contain_text("d100")
    expect(page.get_by_test_id("error")).to_have_count(0)
    expect_gauge(page, "pa", pa_before - params.melee_cost_pa)

    # Back to the sheet: drink the potion (1 PA, the potion is gone).
    page.get_by_role("link", name="Character sheet").click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/$"))
    pa_before = gauge(page, "pa")
    with post(page, "/use/") as response:
        page.get_by_test_id(f"use-{POTION}").click()
    assert response.value.ok, answered(response.value)
    expect(page.get_by_test_id("notice")).to_have_text("Used.")
    expect(page.get_by_test_id(f"item-{POTION}")).to_have_count(0)
    expect(page.locator("#combat-log li.log-use_item").first).to_contain_text(
        f"Aldric uses {POTION}")
    assert params.use_item_cost_pa == 1
    expect_gauge(page, "pa", pa_before - 1)

    # Suicide: accept the confirmation, the sheet tells how long to wait.
    page.evaluate("window.__journey = 'sheet'")
    page.on("dialog", lambda dialog: dialog.accept())
    with post(page, "/suicide/") as response:
        page.get_by_test_id("suicide").click()
    assert response.value.ok, answered(response.value)
    expect(page.get_by_test_id("reincarnation-wait")).to_contain_text("Reincarnation possible in")
    expect(page.get_by_test_id("position")).to_have_text("Disincarnated: off the board.")
    expect(page.get_by_test_id("reincarnate")).to_have_count(0)
    expect(page.get_by_test_id("board-link")).to_have_count(0)
    expect(page.locator("#combat-log li.log-suicide").first).to_contain_text("Aldric leaves")
    assert page.evaluate("window.__journey") == "sheet", "the suicide reloaded the page"
    aldric.refresh_from_db()
    assert aldric.board_id is None
    assert aldric.ew1.reincarnation_blocked_until > timezone.now() + timedelta(hours=5)

    # Move the clock past the suicide cooldown (suicide_cooldown_hours, 6 h): the test cannot
    # wait that long, so it arranges time by moving the suicide into the past, as if the hours
    # had gone by. Everything else (the reload, the reincarnation) goes through the browser.
    Character.objects.filter(pk=aldric.pk).update(
        suicided_at=timezone.now() - timedelta(hours=6, minutes=1))
    page.reload()
    expect(page.get_by_test_id("reincarnation-wait")).to_have_count(0)
    with post(page, "/reincarnate/") as response:
        page.get_by_test_id("reincarnate").click()
    assert response.value.ok, answered(response.value)
    expect(page.get_by_test_id("notice")).to_have_text("Your character is back on the board.")
    expect(page.get_by_test_id("position")).to_have_text(re.compile(r"^\(\d+, \d+\)$"))
    expect(page.get_by_test_id("suicide")).to_be_visible()
    aldric.refresh_from_db()
    assert aldric.board_id is not None and aldric.ew1.reincarnation_blocked_until is None
    expect(page.get_by_test_id("position")).to_have_text(f"({aldric.x}, {aldric.y})")

    # The board link is back on the swapped sheet, and the board shows Aldric where he landed.
    page.get_by_test_id("board-link").click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/board/$"))
    me = page.locator("#board td.cell.me")
    expect(me).to_have_count(1)
    expect(me).to_have_attribute("data-x", str(aldric.x))
    expect(me).to_have_attribute("data-y", str(aldric.y))
    expect(page.locator("#combat-log li.log-reincarnate").first).to_contain_text(
        f"Aldric reincarnates at ({aldric.x}, {aldric.y})")
