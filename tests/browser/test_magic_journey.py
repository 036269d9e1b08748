"""Alice's magic in a real browser: Aldric's spell panel on the board, a fireball on Brenna and
a healing spell on himself (htmx swaps of the board), then his spellbook page. The casts are
random: the tests check what every cast shows (the entry and its d100 roll), and the effect
only when the cast succeeded."""

import re
from urllib.parse import parse_qs

import pytest

from config.demo import PLAYERS, STARTING_SPELLS
from tests.browser.helpers import expect_gauge, gauge, log_in

pytestmark = pytest.mark.browser

FIREBALL, HEAL = "Boule de feu", "Soin"
BRENNA_AT = next(at for _, name, at in PLAYERS if name == "Brenna")
ROLL = re.compile(r"d100 = \d+ / \d+")


def cast(page, spell, *, target_label=None):
    """Pick ``target_label`` (or keep the first option) in the spell's form and cast it; return
    the form data posted. The board polls every 5 s and a poll swap resets the select, so the
    caller acts right after a page load or a swap (a fresh 5 s window), and the posted cell is
    returned for the caller to check."""
    form = cast_form(page, spell)
    with page.expect_response(lambda r: r.url.endswith("/cast/")
                              and r.request.method == "POST") as response:
        if target_label is not None:
            form.locator("select[name=target]").select_option(label=target_label)
        form.get_by_test_id(f"cast-{spell}").click()
    assert response.value.ok
    return {k: v[0] for k, v in parse_qs(response.value.request.post_data).items()}


def cast_form(page, spell):
    return page.locator("#spell-panel").get_by_test_id(f"spell-{spell}")


def test_aldric_casts_fireball_and_heal_then_reads_his_spellbook(demo, live_server, page):
    from playwright.sync_api import expect

    from campaigns.models import ActionRecord
    from characters.models import Character

    aldric = Character.objects.get(name="Aldric")
    brenna = Character.objects.get(name="Brenna")
    cost = aldric.campaign.parameters.magic_cost_pa
    assert STARTING_SPELLS["Aldric"] == [FIREBALL, HEAL]

    # Alice logs in and goes to Aldric's board.
    log_in(page, live_server, "alice")
    page.locator("tr", has_text="Aldric").get_by_role("link", name="Board").click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/board/$"))
    expect(page.locator("#board td.cell.me")).to_have_count(1)

    # The spell panel lists his two spells with the pieces in range: the heal starts with
    # himself, the fireball is not offered on its own caster.
    panel = page.locator("#spell-panel")
    expect(panel.locator("form.spell")).to_have_count(2)
    for spell in (FIREBALL, HEAL):
        expect(cast_form(page, spell)).to_contain_text(spell)
    expect(cast_form(page, HEAL).locator("select[name=target] option").first).to_have_text(
        f"yourself ({aldric.x}, {aldric.y})")
    expect(cast_form(page, FIREBALL).locator("select[name=target] option",
                                             has_text="yourself")).to_have_count(0)
    brenna_label = f"Brenna ({BRENNA_AT[0]}, {BRENNA_AT[1]})"
    expect(cast_form(page, FIREBALL).locator("select[name=target] option",
                                             has_text="Brenna")).to_have_text(brenna_label)

    # A fireball on Brenna, right after the page load (no poll swap in the next 5 s).
    page.reload()
    expect(cast_form(page, FIREBALL)).to_be_visible()
    page.evaluate("window.__journey = 'same page'")
    pa_before = gauge(page, "pa")
    posted = cast(page, FIREBALL, target_label=brenna_label)
    assert (posted["x"], posted["y"]) == tuple(map(str, BRENNA_AT)), posted
    entry = page.locator("#combat-log li.log-cast").first
    expect(entry).to_contain_text(f"Aldric casts {FIREBALL}")
    expect(entry).to_contain_text(ROLL)
    expect(page.get_by_test_id("error")).to_have_count(0)
    expect_gauge(page, "pa", pa_before - cost)
    record = ActionRecord.objects.filter(kind="cast").latest("id")
    assert record.target_id == brenna.pk and record.summary["spell"] == FIREBALL
    if record.summary["success"]:
        expect(entry).to_contain_text("success")
        expect(entry).to_contain_text(re.compile(r"Brenna −\d+ PV"))
    else:
        expect(entry).to_contain_text("failure")

    # Soin on himself: the first option.
    pa_before = gauge(page, "pa")
    posted = cast(page, HEAL)
    assert (posted["x"], posted["y"]) == (str(aldric.x), str(aldric.y)), posted
    entry = page.locator("#combat-log li.log-cast").first
    expect(entry).to_contain_text(f"Aldric casts {HEAL}")
    expect(entry).to_contain_text(ROLL)
    expect(page.get_by_test_id("error")).to_have_count(0)
    expect_gauge(page, "pa", pa_before - cost)
    record = ActionRecord.objects.filter(kind="cast").latest("id")
    assert record.target_id == aldric.pk and record.summary["spell"] == HEAL
    if record.summary["success"]:
        expect(entry).to_contain_text("success")
        expect(entry).to_contain_text(re.compile(r"Aldric \+\d+ PV"))
    else:
        expect(entry).to_contain_text("failure")
    # Both casts are in the log, the newest first.
    expect(page.locator("#combat-log li.log-cast")).to_have_count(2)
    expect(page.locator("#combat-log li.log-cast").nth(1)).to_contain_text(FIREBALL)
    assert page.evaluate("window.__journey") == "same page", "a cast reloaded the page"

    # The spellbook, from the sheet.
    page.get_by_role("link", name="Character sheet").click()
    expect(page).to_have_url(re.compile(rf"/characters/{aldric.pk}/$"))
    page.get_by_test_id("spellbook").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spellbook of Aldric")
    for spell in (FIREBALL, HEAL):
        expect(page.get_by_test_id(f"known-{spell}")).to_contain_text(spell)
    expect(page.locator("tr[data-testid^=known-]")).to_have_count(2)
