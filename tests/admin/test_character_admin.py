"""Issue 19, item 4: one character admin per rule system, behind the one Character admin; and
item 3: every database constraint refuses in words, in English and French."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.db.models import BaseConstraint
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters.models import Character
from eclipse.models import Sleeve
from homebrew.models import HomebrewSheet
from homebrew.models import WeaponTemplate as HBWeapon
from tests import factories
from tests.admin import walk_world
from tests.admin.test_admin_walk import page_post, with_overrides

ADD = "admin:characters_character_add"


@pytest.fixture
def world(db):
    return walk_world.build()


@pytest.fixture
def gm(world):
    client = Client()
    client.force_login(world.gm)
    return client


def add_page(gm, campaign):
    return gm.get(reverse(ADD), {"campaign": campaign.pk})


def change_page(gm, character):
    return gm.get(reverse("admin:characters_character_change", args=[character.pk]))


def inline_prefixes(page) -> list[str]:
    return [inline.formset.prefix for inline in page.context["inline_admin_formsets"]]


def test_adding_a_character_asks_for_its_campaign_first(gm, world):
    page = gm.get(reverse(ADD))
    assert page.status_code == 200
    assert "adminform" not in page.context  # no sheet before the system is known
    choices = dict(page.context["form"].fields["campaign"].choices)
    labels = {str(label) for label in choices.values()}
    assert {"Ardent (Eternal War One II)", "Gué (Homebrew d100)",
            "Locus (Eclipse Phase)"} <= labels
    html = page.content.decode()
    assert 'name="campaign"' in html and "Ardent (Eternal War One II)" in html


def test_an_unknown_campaign_is_asked_again(gm, world):
    page = gm.get(reverse(ADD), {"campaign": 999999})
    assert page.status_code == 200
    assert page.context["form"].errors["campaign"]


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 30, "1" * 5000, "-1", "1\x00"])
def test_a_campaign_that_is_no_number_is_asked_again(gm, world, raw):
    """"²".isdigit() is true and int("²") fails; 30 digits overflow the column: never a 500."""
    page = gm.get(reverse(ADD), {"campaign": raw})
    assert page.status_code == 200
    assert page.context["form"].errors["campaign"]


def test_each_system_shows_only_its_own_fields_and_sheet(gm, world):
    ew1 = add_page(gm, world.ew)
    fields = set(ew1.context["adminform"].form.fields)
    assert {"board", "x", "y", "suicided_at", "reincarnate_asap"} <= fields
    assert inline_prefixes(ew1) == ["ew1", "items"]
    for campaign, prefix in ((world.hb, "homebrew"), (world.ep, "eclipse")):
        page = add_page(gm, campaign)
        form = page.context["adminform"].form
        assert set(form.fields) == {"campaign", "kind", "owner", "name"}, campaign
        assert inline_prefixes(page) == [prefix]
        assert [c for c, _ in form.fields["kind"].choices] == ["player", "creature"]
        assert [c.pk for c in form.fields["campaign"].queryset] == [campaign.pk]
    for character, prefixes in ((world.hero, ["ew1", "items"]), (world.aria, ["homebrew"]),
                                (world.ash, ["eclipse"])):
        page = change_page(gm, character)
        assert page.status_code == 200
        assert inline_prefixes(page) == prefixes, character
    assert "board" not in change_page(gm, world.aria).context["adminform"].form.fields


def test_a_homebrew_character_gets_its_sheet_with_the_campaigns_maxima_and_links_it(
        gm, world):
    world.hb.rule_parameters = {"hp_max_default": 35}
    world.hb.save()
    page = add_page(gm, world.hb)
    assert page.context["inline_admin_formsets"][0].formset.forms[0]["hp_max"].value() == 35
    saved = gm.post(page.wsgi_request.get_full_path(),
                    with_overrides(page_post(page), {"name": "Newt", "kind": "creature"}))
    assert saved.status_code == 302
    newt = Character.objects.get(name="Newt")
    assert (newt.homebrew.hp, newt.homebrew.hp_max) == (35, 35)
    html = change_page(gm, newt).content.decode()
    assert reverse("admin:homebrew_homebrewsheet_change", args=[newt.pk]) in html


def test_an_eclipse_ego_is_linked_and_its_sleeves_named_with_their_owner(gm, world):
    page = change_page(gm, world.ash)
    form = page.context["inline_admin_formsets"][0].formset.forms[0]
    sleeves = form.fields["sleeve"]
    assert [s.pk for s in sleeves.queryset] == [world.ash_sleeve.pk]  # not Brick's
    assert [str(label) for _, label in sleeves.choices][1:] == ["Fury (Ash)"]
    assert reverse("admin:eclipse_eclipsesheet_change", args=[world.ash.pk]) in (
        page.content.decode())
    sheet = gm.get(reverse("admin:eclipse_eclipsesheet_change", args=[world.ash.pk]))
    weapons = sheet.context["inline_admin_formsets"][1].formset.forms[0].fields["template"]
    assert [str(label) for _, label in weapons.choices][1:] == ["Pistol (1d10+2) (Locus)"]
    sleeve = gm.get(reverse("admin:eclipse_sleeve_change", args=[world.ash_sleeve.pk]))
    owners = {str(label) for _, label in sleeve.context["adminform"].form.fields["owner"].choices}
    assert {"Ash (Locus)", "Brick (Locus)"} <= owners
    morphs = [str(label) for _, label in
              sleeve.context["adminform"].form.fields["template"].choices][1:]
    assert morphs == ["Fury (Locus)"]  # not Titan's Case


def test_related_choices_hold_the_campaigns_own_named_with_their_owner(gm, world):
    ew1 = change_page(gm, world.hero).context["adminform"].form
    assert [b.pk for b in ew1.fields["board"].queryset] == [world.ew.board.pk]
    assert [str(label) for _, label in ew1.fields["board"].choices][1:] == ["Ardent (15x15)"]
    homebrew = change_page(gm, world.aria).context["inline_admin_formsets"][0].formset.forms[0]
    assert [str(label) for _, label in homebrew.fields["weapons"].choices] == [
        "Sword (1d6) (Gué)"]
    assert world.hb_far not in homebrew.fields["weapons"].queryset
    sheet = gm.get(reverse("admin:homebrew_homebrewsheet_add")).context["adminform"].form
    characters = {str(label) for _, label in sheet.fields["character"].choices}
    assert "Aria (Gué)" in characters and not any("Hero" in c for c in characters)


@pytest.mark.parametrize("extra", [0, 3])
def test_a_homebrew_character_page_reads_the_same_whatever_its_weapons(
        gm, world, extra, django_assert_num_queries):
    sheet = HomebrewSheet.objects.get(pk=world.aria.pk)
    for i in range(extra):
        sheet.weapons.add(HBWeapon.objects.create(campaign=world.hb, name=f"Axe {i}",
                                                  die="1d8"))
    change_page(gm, world.aria)  # the content types cached
    with django_assert_num_queries(12):
        assert change_page(gm, world.aria).status_code == 200


@pytest.mark.parametrize("extra", [0, 3])
def test_an_eclipse_character_page_reads_the_same_whatever_its_sleeves(
        gm, world, extra, django_assert_num_queries):
    for i in range(extra):
        Sleeve.objects.create(owner=world.ash_sheet, template=world.fury, name=f"Spare {i}",
                              created_at=world.now)
    change_page(gm, world.ash)
    with django_assert_num_queries(11):
        assert change_page(gm, world.ash).status_code == 200


# --- item 3: every database constraint says what it refuses ------------------------------------

def _constraints():
    for config in apps.get_app_configs():
        # Our apps' constraints: Django's, django-axes' and django-allauth's are theirs.
        if config.name.startswith(("django.", "allauth.")) or config.label == "axes":
            continue
        for model in config.get_models():
            for constraint in model._meta.constraints:
                yield model, constraint


def test_every_database_constraint_has_its_message_in_english_and_french():
    found = list(_constraints())
    assert len(found) >= 40
    for model, constraint in found:
        where = f"{model._meta.label}.{constraint.name}"
        message = constraint.violation_error_message
        assert message != BaseConstraint.default_violation_error_message, where
        with translation.override("en"):
            english = str(message)
        assert not re.search(r"[a-z]+_[a-z_]+", english), where  # no code, no field name
        with translation.override("fr"):
            french = str(message)
        assert french and french != english, f"{where}: add French for {english!r}"


def test_a_constraint_refusal_reads_in_french(world):
    from django.core.exceptions import ValidationError
    from eclipse.models import WeaponTemplate

    weapon = WeaponTemplate(campaign=world.ep, name="Bent", mode_ss=True, range_short=50,
                            range_medium=10, range_long=60, range_extreme=70)
    with translation.override("fr"), pytest.raises(ValidationError) as refused:
        weapon.validate_constraints()
    assert refused.value.messages == [
        "Les portées doivent croître : courte ≤ moyenne ≤ longue ≤ extrême (mètres)."]


def test_a_refused_ew1_character_is_shown_again_with_its_campaigns_boards_only(gm, world):
    other = factories.campaign(name="Autre front", width=9, height=9)  # another EW1 board
    page = add_page(gm, world.ew)
    assert list(page.context["adminform"].form.fields["board"].queryset) == [world.ew.board]
    data = {**page_post(page), "name": "Loup", "kind": "creature", "x": "3", "y": "3"}
    refused = gm.post(page.request["PATH_INFO"] + f"?campaign={world.ew.pk}", data)
    assert refused.status_code == 200  # a cell without its board
    boards = list(refused.context["adminform"].form.fields["board"].queryset)
    assert boards == [world.ew.board] and other.board not in boards
    saved = gm.post(reverse(ADD) + f"?campaign={world.ew.pk}",
                    {**data, "board": world.ew.board.pk, "x": "4"})
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    assert Character.objects.get(name="Loup").board_id == world.ew.board.pk


def test_the_admin_names_campaigns_characters_and_encounters_in_french(gm, world):
    pages = {
        "character": gm.get(reverse(ADD), {"campaign": world.hb.pk}, HTTP_ACCEPT_LANGUAGE="fr"),
        "encounter": gm.get(reverse("admin:encounters_encounter_add"),
                            HTTP_ACCEPT_LANGUAGE="fr"),
        "campaign": gm.get(reverse("admin:campaigns_campaign_change", args=[world.hb.pk]),
                           HTTP_ACCEPT_LANGUAGE="fr")}
    html = {name: page.content.decode() for name, page in pages.items()}
    assert "Ajout de personnage" in html["character"] and "Campagne" in html["character"]
    assert "Joueur" in html["character"] and "Owner" not in html["character"]
    assert "Ajout de rencontre" in html["encounter"]
    assert "Actions par tour" in html["encounter"] and "Actions per turn" not in html["encounter"]
    assert "Meneur de jeu" in html["campaign"] and "Game master" not in html["campaign"]
    translation.activate("en")
