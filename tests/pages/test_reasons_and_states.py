"""The Eternal War One II pages' details: the damage breakdown, what the board refuses before a
click, the level-up page, the sheet of a dead character, faction notices, and the small things
(plurals, the creation list, the draft URL, the leaderboard, password reset, favicon)."""

import random
from decimal import Decimal
import re

import pytest
from django.urls import reverse

from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_brawl
from ew1.equipment import item_equip, item_grant
from ew1.models import EternalWarSheet, ItemTemplate
from tests import factories
from tests.pages.conftest import HTMX
from tests.services.conftest import FakeRandom

Kind = ItemTemplate.Kind


def url(name, *args):
    return reverse(name, args=args)


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.fixture
def foe(bob, campaign):
    return factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5))


# Item 11: the damage breakdown -----------------------------------------------------------------

def test_the_log_shows_every_term_of_the_damage_reduction(alice, alice_client, hero, foe):
    plate = factories.ItemTemplateFactory(name="Plates", kind=Kind.ARMOUR, damage_dice="",
                                          armour=2)
    item = item_grant(character=foe, template=plate, rng=FakeRandom())
    item_equip(user=foe.owner, character_id=foe.pk, item_id=item.pk)
    for seed in range(200):  # the first seeded brawl that hits and is not dodged
        action_brawl(user=alice, character_id=hero.pk, target_id=foe.pk,
                     rng=random.Random(seed))
        summary = ActionRecord.objects.latest("id").summary
        if summary["hit"] and not summary["dodged"]:
            break
    assert [source for source, _ in summary["reduction_terms"]] == [
        "base", "rolls_won", "armour", "shield"]
    terms = dict(summary["reduction_terms"])
    assert terms["armour"] == 2 and terms["base"] == 1
    assert sum(terms.values()) == summary["reduction"]
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    shown = re.search(r'data-testid="reduction">([^<]*)<', html).group(1)
    assert shown == (f"{summary['reduction']} (base 1 + DEF rolls won {terms['rolls_won']}"
                     f" + armour 2 + shield 0)")
    assert f"damage {summary['damage']} − reduction" in html


# Item 12: what the board refuses before the click ----------------------------------------------

def button(html, testid) -> str:
    """The opening tag of the button with ``testid``."""
    return re.search(rf'<button[^>]*data-testid="{re.escape(testid)}"[^>]*>', html).group(0)


def title(tag) -> str | None:
    found = re.search(r'title="([^"]*)"', tag)
    return found.group(1) if found else None


def still(sheet_fields) -> dict:
    """Sheet values frozen at the present (no PA or PV regained while the test runs)."""
    import time
    return {**sheet_fields, "pa_anchor": int(time.time()), "pv_anchor": int(time.time())}


def test_actions_beyond_the_pa_left_are_disabled_with_the_reason(alice, alice_client, campaign,
                                                                 foe):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5),
                               **still({"pa": Decimal("0.5")}))
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    assert "disabled" not in button(html, "move-n")  # a step costs 0.5 PA
    for testid in ("game", "attack-Foe", "attack-throw-Foe"):
        tag = button(html, testid)
        assert " disabled" in tag, testid
    assert title(button(html, "game")) == "This needs 1 PA; you have 0.5."
    assert title(button(html, "attack-Foe")) == "This needs 2 PA; you have 0.5."
    # Foe stands east: that step is refused too, for its own reason.
    assert " disabled" in button(html, "move-e")
    assert title(button(html, "move-e")) == "east: That cell is occupied."


def test_the_pad_disables_the_steps_off_the_board(alice, alice_client, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(0, 0))
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    for d in ("n", "nw", "w", "ne", "sw"):
        assert title(button(html, f"move-{d}")).endswith(": That cell is off the board.")
        assert " disabled" in button(html, f"move-{d}")
    for d in ("e", "s", "se"):
        assert " disabled" not in button(html, f"move-{d}")


def test_at_0_pv_every_action_is_disabled_with_the_state(alice, alice_client, campaign, foe):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5),
                               **still({"pv": 0}))
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    reason = "At 0 PV a character cannot act until healed."
    assert title(button(html, "game")) == reason
    assert title(button(html, "attack-Foe")) == reason
    assert title(button(html, "move-n")) == f"north: {reason}"


def test_the_reasons_are_in_french_on_a_french_page(alice, alice_client, campaign, foe):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5),
                               **still({"pa": Decimal("0.5")}))
    alice_client.cookies["django_language"] = "fr"
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    assert title(button(html, "game")) == "Cette action coûte 1 PA ; vous en avez 0.5."


@pytest.fixture
def mage(alice, campaign):
    from magic.models import Spell
    from magic.spellbook import spell_grant

    mage = factories.character(owner=alice, campaign=campaign, name="Mage", at=(5, 5),
                               skills={"brawl": 90, "melee": 35, "ranged": 25, "magic": 55,
                                       "dodge": 10, "throw": 25, "game": 30})
    for name, rng in (("Boule de feu", 5), ("Touche", 1)):
        spell = Spell.objects.create(name=name, effect="damage", dice="1d6+1", range_cells=rng)
        spell_grant(character=mage, spell=spell, source="granted")
    return mage


def test_spells_show_their_chance_and_a_spell_without_target_is_disabled(alice_client, mage,
                                                                          bob, campaign):
    factories.character(owner=bob, campaign=campaign, name="Far", at=(8, 5))
    html = html_of(alice_client.get(url("combat:board", mage.pk)))
    fireball = button(html, "cast-Boule de feu")
    assert " disabled" not in fireball
    assert re.search(r'data-testid="cast-Boule de feu"[^>]*>Cast \(55 %\)</button>', html)
    touch = button(html, "cast-Touche")
    assert " disabled" in touch and title(touch) == "Nobody in range (1 cells)."


def test_the_spell_chance_counts_the_faction_bonus(alice, alice_client, mage, campaign):
    from factions.models import Faction, Membership
    from gamerules.ew1.presence import faction_bonus
    friends = [factories.character(owner=alice, campaign=campaign, name=f"Friend{i}",
                                   at=(7, 4 + i), seed=i) for i in range(2)]
    faction = Faction.objects.create(campaign=campaign, name="Magi", leader=mage)
    Membership.objects.bulk_create([Membership(faction=faction, character=c)
                                    for c in (mage, *friends)])
    bonus = faction_bonus(2, attack_factor=0, dodge_factor=0,
                          magic_factor=campaign.parameters.faction_magic_factor).magic
    html = html_of(alice_client.get(url("combat:board", mage.pk)))
    assert f"Cast ({55 + bonus} %)" in html and bonus > 0


def test_a_spell_beyond_the_pa_left_is_disabled(alice, alice_client, mage):
    EternalWarSheet.objects.filter(pk=mage.pk).update(**still({"pa": Decimal("1.5")}))
    html = html_of(alice_client.get(url("combat:board", mage.pk)))
    assert title(button(html, "cast-Boule de feu")) == "This needs 2 PA; you have 1.5."


# Item 14: the state in words beside the PV gauge -------------------------------------------------

def life(html) -> tuple[str, str | None]:
    pv = re.search(r'data-testid="pv">([^<]*)</span>/(\d+)', html)
    state = re.search(r'data-testid="life-state">([^<]*)<', html)
    return f"{pv.group(1)}/{pv.group(2)}", state.group(1) if state else None


def test_a_killed_character_reads_dead_not_minus_one_pv(alice, alice_client, hero):
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None, deaths=1)
    EternalWarSheet.objects.filter(pk=hero.pk).update(**still({"pv": -1}))
    pv_max = EternalWarSheet.objects.get(pk=hero.pk).pv_max
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert life(html) == (f"0/{pv_max}", "dead: disincarnated, off the board")
    assert "-1/" not in html


def test_a_suicided_character_reads_disincarnated(alice, alice_client, hero):
    from combat.services import character_suicide
    character_suicide(user=alice, character_id=hero.pk)
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert life(html)[1] == "disincarnated: off the board"


def test_at_0_pv_the_sheet_and_the_board_say_down(alice, alice_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(**still({"pv": 0}))
    for name in ("characters:detail", "combat:board"):
        html = html_of(alice_client.get(url(name, hero.pk), **HTMX))
        assert life(html)[1] == "down at 0 PV: cannot act until healed", name


def test_an_active_character_has_no_state_words(alice_client, hero):
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert life(html)[1] is None


def test_the_state_in_french(alice_client, hero):
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    EternalWarSheet.objects.filter(pk=hero.pk).update(**still({"pv": -3}))
    alice_client.cookies["django_language"] = "fr"
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert life(html)[1] == "mort : désincarné, hors du damier"


# Item 13: the level-up page --------------------------------------------------------------------

def room(html, code) -> list[str]:
    row = re.search(rf'<tr data-testid="room-{code}">(.*?)</tr>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)]


def test_the_level_up_page_shows_english_names_values_caps_and_room(alice_client, hero):
    skills = {**EternalWarSheet.objects.get(pk=hero.pk).skills, "brawl": 98, "melee": 35}
    EternalWarSheet.objects.filter(pk=hero.pk).update(
        level=1, xp=1, skill_points=15, characteristic_points=1, skills=skills,
        skills_raised={"melee": 3}, FOR=40)
    html = html_of(alice_client.get(url("ew1:level-up", hero.pk)))
    assert "Arme mêlée" not in html and "Bagarre" not in html
    # Name, now, max, the most this level-up, the input. Level 1: 5 points per skill.
    assert room(html, "melee")[:4] == ["Melee weapon", "35%", "95%", "up to 2"]  # 3 spent
    assert room(html, "brawl")[:4] == ["Brawl", "98%", "100%", "up to 2"]  # 2 below its max
    assert room(html, "throw")[1:4] == [f"{skills['throw']}%", "95%", "up to 5"]
    assert room(html, "FOR")[:4] == ["FOR", "40", "40", "up to 0"]  # characteristic_max 40
    assert room(html, "DEX")[3] == "up to 1"  # one characteristic point banked
    assert re.search(r'name="skill_melee"[^>]*max="2"|max="2"[^>]*name="skill_melee"', html)


def test_the_level_up_page_in_french_names_the_skills_in_french(alice_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, skill_points=1)
    alice_client.cookies["django_language"] = "fr"
    html = html_of(alice_client.get(url("ew1:level-up", hero.pk)))
    assert room(html, "melee")[0] == "Arme mêlée" and room(html, "melee")[3] == "jusqu’à 1"


def test_the_room_is_never_more_than_the_banked_points(alice_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=9, skill_points=1)
    html = html_of(alice_client.get(url("ew1:level-up", hero.pk)))
    assert {room(html, s)[3] for s in ("melee", "ranged", "magic", "throw")} == {"up to 1"}


def test_the_level_up_page_queries(alice_client, hero, django_assert_num_queries):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, skill_points=15)
    # Session, user, the character with its sheet, its items, the log and its rolls: as before.
    with django_assert_num_queries(6):
        html_of(alice_client.get(url("ew1:level-up", hero.pk)))


# Item 18: plurals ------------------------------------------------------------------------------

@pytest.mark.parametrize(("sp", "cp", "text"), [
    (1, 1, "Spend 1 skill point and 1 characteristic point"),
    (15, 3, "Spend 15 skill points and 3 characteristic points"),
    (2, 0, "Spend 2 skill points and 0 characteristic points"),
])
def test_the_sheet_button_says_point_or_points(alice_client, hero, sp, cp, text):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, skill_points=sp,
                                                      characteristic_points=cp)
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert re.search(r'data-testid="level-up">([^<]*)</a>', html).group(1) == text


def test_the_french_sheet_button_uses_the_plural_too(alice_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, skill_points=1,
                                                      characteristic_points=2)
    alice_client.cookies["django_language"] = "fr"
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert re.search(r'data-testid="level-up">([^<]*)</a>', html).group(1) == (
        "Dépenser 1 point de compétence et 2 points de caractéristique")


def test_the_level_up_page_says_point_for_one(alice_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, skill_points=1,
                                                      characteristic_points=1)
    html = html_of(alice_client.get(url("ew1:level-up", hero.pk)))
    assert "1 skill point and 1 characteristic point to spend" in html


# Item 18: the creation list, the confirmed draft, the leaderboard, password reset, favicon -----

def campaign_options(html) -> list[str]:
    select = re.search(r'<select name="campaign"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r"<option[^>]*>([^<]*)</option>", select)


def test_one_open_campaign_is_chosen_already(alice_client, campaign):
    html = html_of(alice_client.get(url("characters:list")))
    assert campaign_options(html) == [campaign.name]  # no "---------" to pass first


def test_several_campaigns_start_on_the_empty_choice(alice_client, campaign):
    factories.campaign(name="Another")
    html = html_of(alice_client.get(url("characters:list")))
    assert campaign_options(html) == ["---------", "Another", campaign.name]


def test_the_list_page_still_costs_the_same(alice_client, campaign, django_assert_num_queries):
    # Session, user, the characters, the open campaigns: as before.
    with django_assert_num_queries(4):
        html_of(alice_client.get(url("characters:list")))


def test_the_draft_url_after_confirming_leads_to_the_character(alice, alice_client, campaign):
    from ew1.creation import draft_roll
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    confirmed = alice_client.post(url("ew1:draft-confirm", draft.pk))
    nova = Character.objects.get(name="Nova")
    assert confirmed["Location"] == url("characters:detail", nova.pk)
    again = alice_client.get(url("ew1:draft", draft.pk))
    assert again.status_code == 302 and again["Location"] == url("characters:detail", nova.pk)


def test_another_players_confirmed_draft_stays_not_found(alice, bob_client, campaign):
    from ew1.creation import draft_confirm, draft_roll
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft_confirm(user=alice, draft_id=draft.pk, rng=random.Random(1))
    assert bob_client.get(url("ew1:draft", draft.pk)).status_code == 404
    assert bob_client.get(url("ew1:draft", draft.pk + 100)).status_code == 404


@pytest.mark.parametrize("order", ["kills", "level", "attacks", "dodges", "deaths"])
def test_the_leaderboard_shows_its_active_sort(alice_client, hero, campaign, order):
    html = html_of(alice_client.get(url("campaigns:leaderboard", campaign.pk), {"order": order}))
    current = re.findall(r'<a [^>]*aria-current="true"[^>]*data-testid="order-(\w+)"', html)
    assert current == [order]
    header = re.search(r'<th class="sorted" aria-sort="descending" data-testid="sorted">([^<]*)'
                       , html).group(1)
    assert header == {"kills": "Kills", "level": "Level", "attacks": "Attacks",
                      "dodges": "Dodges", "deaths": "Deaths"}[order] + " ▼"


def test_a_forgotten_password_is_reset_through_an_emailed_link(client, alice, mailoutbox):
    login = html_of(client.get(reverse("login")))
    assert reverse("password_reset") in login
    sent = client.post(reverse("password_reset"), {"email": alice.email})
    assert sent.status_code == 302 and sent["Location"] == reverse(
        "account_reset_password_done")
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [alice.email]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)",
                     mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert 'name="password1"' in html_of(form)
    done = client.post(form.redirect_chain[-1][0], {"password1": "a-fresh-password-77",
                                                   "password2": "a-fresh-password-77"})
    assert done["Location"] == reverse("account_reset_password_from_key_done")
    alice.refresh_from_db()
    assert alice.check_password("a-fresh-password-77")


def test_an_unknown_address_sends_nothing_and_says_the_same(client, mailoutbox, db):
    sent = client.post(reverse("password_reset"), {"email": "nobody@example.invalid"})
    assert sent["Location"] == reverse("account_reset_password_done") and mailoutbox == []


def test_the_default_email_backend_is_the_console():
    import importlib

    from config.settings import base
    importlib.reload(base)
    assert base.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_pages_name_a_favicon_and_favicon_ico_leads_to_it(client, db):
    from django.contrib.staticfiles import finders
    html = html_of(client.get(reverse("login")))
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html).group(1)
    assert icon.endswith("favicon.svg") and finders.find("favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == icon


# Pinned query counts of the pages changed here -------------------------------------------------

@pytest.mark.parametrize("size", [2, 40])
@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_the_board_with_spells_costs_the_same_whatever_the_crowd(alice_client, mage, bob,
                                                                 campaign, size, extra,
                                                                 django_assert_num_queries):
    from tests.pages.test_query_counts import BOARD_QUERIES
    for i in range(size):
        factories.character(owner=bob, campaign=campaign, name=f"P{i:02}", seed=i)
    with django_assert_num_queries(BOARD_QUERIES):
        html = html_of(alice_client.get(url("combat:board", mage.pk), **extra))
    assert html.count('data-testid="cast-') == 2 and "Cast (55 %)" in html


@pytest.mark.parametrize("size", [2, 40])
def test_the_leaderboard_queries(alice_client, campaign, bob, size, django_assert_num_queries):
    for i in range(size):
        factories.character(owner=bob, campaign=campaign, name=f"P{i:02}", seed=i)
    # Session, user, the campaign, the ranked characters with owner and sheet.
    with django_assert_num_queries(4):
        html = html_of(alice_client.get(url("campaigns:leaderboard", campaign.pk)))
    assert html.count('data-testid="rank-') == size


def test_a_confirmed_drafts_url_costs_four_queries(alice, alice_client, campaign,
                                                   django_assert_num_queries):
    from ew1.creation import draft_confirm, draft_roll
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft_confirm(user=alice, draft_id=draft.pk, rng=random.Random(1))
    # Session, user, the draft (gone), the creation's journal entry.
    with django_assert_num_queries(4):
        assert alice_client.get(url("ew1:draft", draft.pk)).status_code == 302


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_a_dead_characters_sheet_costs_the_same(alice_client, hero, extra,
                                                django_assert_num_queries):
    from tests.pages.test_query_counts import SHEET_QUERIES
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=-1)
    with django_assert_num_queries(SHEET_QUERIES):
        html_of(alice_client.get(url("characters:detail", hero.pk), **extra))
