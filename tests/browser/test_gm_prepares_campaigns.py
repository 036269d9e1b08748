"""A game master follows the README: logs in as the demo's ``gm``, and in the admin and on the
encounter pages prepares a new campaign of each rule system (Eternal War One II, the homebrew
d100, Eclipse Phase). The campaign is added without touching a parameter (none stored), some
parameters are set (exactly those stored; a value out of bounds refused, nothing changed), the
system's templates and characters for Alice and Bob are added (a bad value refused in words),
and for the turn-based systems an encounter is opened from the encounters page, combatants
added and the encounter started. No page answers 500, and nothing is stored that the GM did
not choose: what they left as it is takes the campaign's own values."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in, post

pytestmark = [pytest.mark.browser]


def watch_5xx(page) -> list[str]:
    """Every answer of 500 or more the page gets, as a growing list."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.url}") if r.status >= 500
            else None)
    return seen


def save(page, button="_continue"):
    """Submit the admin form with ``button`` and wait for the page it lands on."""
    with page.expect_navigation():
        page.locator(f"input[name={button}]").click()


def saved(page) -> str:
    """The admin's success message (the test fails with the form's errors otherwise)."""
    errors = page.locator(".errornote, .errorlist").all_inner_texts()
    assert errors == [], errors
    return page.locator(".messagelist .success").last.inner_text()


def refused(page) -> list[str]:
    """The form's refusals, in words: no form field name, constraint or developer text among
    them (the rules' own codes, which the GM types in a JSON box, may be named)."""
    from playwright.sync_api import expect

    expect(page.locator(".errornote")).to_be_visible()
    words = page.locator(".errorlist").all_inner_texts()
    assert words, "refused without saying why"
    for text in words:
        assert not re.search(r"param_|-0-|__|Constraint|Traceback|violated|Error\b", text), text
    return words


def add_campaign(page, live_server, name, system_label):
    """The add page asks for the rule system, then the change page shows its parameters."""
    from campaigns.models import Campaign

    page.goto(live_server.url + "/admin/campaigns/campaign/add/")
    save(page)  # nothing filled in: refused in words, nothing made
    refused(page)
    page.locator("input[name=name]").fill(name)
    page.locator("select[name=rule_system]").select_option(label=system_label)
    page.locator("select[name=game_master]").select_option(label="gm")
    save(page)
    assert "was added successfully" in saved(page)
    campaign = Campaign.objects.get(name=name)
    assert campaign.rule_parameters == {}  # nothing typed, nothing stored
    return campaign


def set_parameters(page, campaign, *, numbers: dict, off: tuple = (), bad: tuple):
    """Refuse ``bad`` (field, value out of bounds), then set ``numbers`` and uncheck ``off``:
    exactly those are stored."""
    field, value = bad
    page.locator(f"input[name=param_{field}]").fill(value)
    save(page)
    refused(page)
    campaign.refresh_from_db()
    assert campaign.rule_parameters == {}
    page.locator(f"input[name=param_{field}]").fill("")  # empty: the default
    for name, value in numbers.items():
        page.locator(f"input[name=param_{name}]").fill(str(value))
    for name in off:
        page.locator(f"input[name=param_{name}]").uncheck()
    save(page)
    saved(page)
    campaign.refresh_from_db()
    assert campaign.rule_parameters == {**numbers, **{name: False for name in off}}
    return campaign


def add_character(page, live_server, campaign, name, *, owner=None, kind=None, fill=None):
    """The character's add page through its campaign step; its sheet as ``fill`` says (the
    rest left as the page shows it)."""
    page.goto(live_server.url + "/admin/characters/character/add/")
    page.locator("select[name=campaign]").select_option(
        label=f"{campaign.name} ({campaign.get_rule_system_display()})")
    with page.expect_navigation():
        page.get_by_role("button", name="Next").click()
    page.locator("input[name=name]").fill(name)
    if kind:
        page.locator("select[name=kind]").select_option(label=kind)
    if owner:
        page.locator("select[name=owner]").select_option(label=owner)
    for field, value in (fill or {}).items():
        page.locator(f"[name={field}]").fill(str(value))
    save(page)


def run_encounter(page, live_server, campaign, *, players, creature):
    """From the navigation's Encounters: open one, add the players and two copies of the
    creature (nothing chosen first: told what to choose), start it."""
    from playwright.sync_api import expect

    page.goto(live_server.url + "/characters/")
    page.get_by_role("link", name="Encounters").first.click()
    page.get_by_role("link", name=campaign.name, exact=True).click()
    page.locator("main input[name=name]").fill("First blood")
    with page.expect_navigation():
        page.get_by_role("button", name="Open an encounter").click()
    expect(page).to_have_url(re.compile(r"/encounters/\d+/control/$"))
    setup = page.get_by_test_id("setup")
    with post(page, "/add/") as answer:  # nothing chosen: told what to choose
        setup.get_by_test_id("add").click()
    assert answer.value.status == 200
    expect(page.get_by_test_id("error")).to_contain_text("needs a character or a name")
    # The players and two copies of the creature, in one go (the encounter's refresh replaces
    # the form: filled in one step, nothing is lost to it).
    setup = page.get_by_test_id("setup")
    setup.locator("select[name=character]").select_option(label=players)
    setup.get_by_test_id("template").select_option(label=creature)
    setup.locator("input[name=count]").fill("2")
    with post(page, "/add/"):
        setup.get_by_test_id("add").click()
    for name in [*players, f"{creature} 1", f"{creature} 2"]:  # the htmx swap has landed
        expect(page.locator("#encounter table").first).to_contain_text(name)
    expect(page.get_by_test_id("error")).to_have_count(0)
    with post(page, "/start/") as answer:
        page.get_by_test_id("start").click()
    assert answer.value.status == 200
    expect(page.get_by_test_id("next")).to_be_visible()
    from encounters.models import Encounter

    encounter = Encounter.objects.get(campaign=campaign)
    assert encounter.state == Encounter.State.RUNNING
    names = sorted(encounter.combatants.values_list("name", flat=True))
    assert names == sorted([*players, f"{creature} 1", f"{creature} 2"])
    return encounter


def test_a_gm_prepares_a_campaign_of_each_system(demo, live_server, page):
    from campaigns.models import Board
    from characters.models import Character
    from eclipse.models import EclipseSheet
    from eclipse.models import MorphTemplate
    from eclipse.models import WeaponTemplate as EpWeapon
    from ew1.models import ItemTemplate
    from gamerules.homebrew.characteristics import CODES, validate_characteristics
    from homebrew.models import HomebrewSheet, WeaponTemplate

    errors = watch_5xx(page)
    log_in(page, live_server, "gm")

    # --- the homebrew d100: 200 points, crits up to 10, leftover points allowed ---------------
    hb = add_campaign(page, live_server, "Les Marches", "Homebrew d100")
    hb = set_parameters(page, hb, numbers={"characteristic_points": 200, "critical_success_max": 10,
                                           "reaction_timeout_seconds": 45, "hp_max_default": 24},
                        bad=("critical_success_max", "99"))
    page.goto(live_server.url + "/admin/homebrew/weapontemplate/add/")
    page.locator("select[name=campaign]").select_option(label="Les Marches")
    page.locator("input[name=name]").fill("Hache")
    page.locator("input[name=die]").fill("2d6+1")
    save(page)
    assert any("one die" in text for text in refused(page))
    page.locator("input[name=die]").fill("1d8")
    save(page)
    saved(page)
    axe = WeaponTemplate.objects.get(campaign=hb, name="Hache")
    assert (axe.die, axe.mp_cost) == ("1d8", 0)
    # Alice's sheet left as the page shows it; Bob's with Physique past its cap, then fixed.
    add_character(page, live_server, hb, "Aube", owner="alice")
    saved(page)
    add_character(page, live_server, hb, "Bastien", owner="bob",
                  fill={"homebrew-0-physique": 150})
    assert any("between 0 and 100" in text for text in refused(page))
    for field, value in {"homebrew-0-physique": 70, "homebrew-0-perception": 70,
                         "homebrew-0-mental": 60, "homebrew-0-mp": -2}.items():
        page.locator(f"[name={field}]").fill(str(value))
    save(page)
    refused(page)  # MP below 0
    page.locator("[name=homebrew-0-mp]").fill("10")
    save(page)
    saved(page)
    add_character(page, live_server, hb, "Loup", kind="Creature")
    saved(page)
    hb.refresh_from_db()
    for sheet in HomebrewSheet.objects.filter(character__campaign=hb).select_related("character"):
        # what the GM left as it is: the campaign's budget, caps and maxima
        validate_characteristics({c: getattr(sheet, c) for c in CODES}, hb.parameters,
                                 budgets=sheet.character.is_player)
        assert sheet.hp == sheet.hp_max == 24 and sheet.mp >= 0
    encounter = run_encounter(page, live_server, hb, players=["Aube", "Bastien"],
                              creature="Loup")
    assert encounter.reaction_timeout_seconds == 45

    # --- Eclipse Phase: a weapon, a morph, two egos ------------------------------------------
    ep = add_campaign(page, live_server, "Locus Deep", "Eclipse Phase")
    ep = set_parameters(page, ep, numbers={"moxie_max_default": 5},
                        off=("critical_ignores_armour",), bad=("moxie_max_default", "-1"))
    page.goto(live_server.url + "/admin/eclipse/weapontemplate/add/")
    page.locator("select[name=campaign]").select_option(label="Locus Deep")
    page.locator("input[name=name]").fill("Vibroblade")
    page.locator("input[name=skill]").fill("blades")
    page.locator("input[name=melee]").check()
    page.locator("input[name=mode_fa]").check()
    save(page)
    assert any("melee weapon" in text for text in refused(page))
    page.locator("input[name=mode_fa]").uncheck()
    save(page)
    saved(page)
    blade = EpWeapon.objects.get(campaign=ep, name="Vibroblade")
    assert blade.melee and not (blade.mode_fa or blade.mode_ss or blade.mode_sa or blade.mode_bf)
    page.goto(live_server.url + "/admin/eclipse/morphtemplate/add/")
    page.locator("select[name=campaign]").select_option(label="Locus Deep")
    page.locator("input[name=name]").fill("Ruster")
    page.locator("textarea[name=traits]").fill('["made_up"]')
    save(page)
    refused(page)
    page.locator("textarea[name=traits]").fill("[]")
    save(page)
    saved(page)
    assert MorphTemplate.objects.get(campaign=ep, name="Ruster").traits == []
    add_character(page, live_server, ep, "Kalinda", owner="alice")
    saved(page)
    add_character(page, live_server, ep, "Osei", owner="bob",
                  fill={"eclipse-0-skills": '{"kinetic_weapon": 40}'})
    refused(page)  # not a skill of the catalogue
    page.locator("[name=eclipse-0-skills]").fill('{"kinetic_weapons": 40}')
    save(page)
    saved(page)
    add_character(page, live_server, ep, "Drone", kind="Creature")
    saved(page)
    egos = EclipseSheet.objects.filter(character__campaign=ep)
    assert sorted((s.moxie, s.moxie_max) for s in egos) == [(5, 5)] * 3  # the campaign's
    assert egos.get(character__name="Osei").skills == {"kinetic_weapons": 40}
    run_encounter(page, live_server, ep, players=["Kalinda", "Osei"], creature="Drone")

    # --- Eternal War One II: a board, an item, a creature on the board ----------------------
    ew = add_campaign(page, live_server, "Front de l'Est", "Eternal War One II")
    ew = set_parameters(page, ew, numbers={"view_radius": 4, "pv_base": 120},
                        bad=("view_radius", "0"))
    page.locator(".add-row a").click()  # the board inline's "Add another Board"
    page.locator("input[name=board-0-width]").fill("5000")
    page.locator("input[name=board-0-height]").fill("10")
    save(page)
    refused(page)
    page.locator("input[name=board-0-width]").fill("12")
    save(page)
    saved(page)
    board = Board.objects.get(campaign=ew)
    assert (board.width, board.height) == (12, 10)
    page.goto(live_server.url + "/admin/ew1/itemtemplate/add/")
    page.locator("select[name=campaign]").select_option(label="Front de l'Est")
    page.locator("input[name=name]").fill("Hachette")
    page.locator("select[name=kind]").select_option(label="Melee weapon")
    page.locator("input[name=damage_dice]").fill("1d")
    save(page)
    assert any("sides" in text for text in refused(page))
    page.locator("input[name=damage_dice]").fill("1d8")
    save(page)
    saved(page)
    assert ItemTemplate.objects.get(campaign=ew, name="Hachette").damage_dice == "1d8"
    add_character(page, live_server, ew, "Loup gris", kind="Creature",
                  fill={"x": 20, "y": 3})
    refused(page)  # x without its board, and off any 12x10 board
    page.locator("select[name=board]").select_option(index=1)
    page.locator("[name=x]").fill("3")
    page.locator("[name=ew1-0-pv_now]").fill("130")
    save(page)
    assert any("above the max PV" in text for text in refused(page))
    page.locator("[name=ew1-0-pv_now]").fill("")
    save(page)
    saved(page)
    wolf = Character.objects.select_related("ew1").get(campaign=ew, name="Loup gris")
    assert (wolf.board_id, wolf.x, wolf.y) == (board.pk, 3, 3)

    assert errors == []
