"""The game master's back office (issue 22, item 1; campaigns.catalogue, campaigns.manage_pages;
docs/campaigns.md): for each kind of catalogue row of the three systems, its game master and a
co-GM add, change and delete rows; a player, a stranger and another campaign's GM get 404 and
change nothing; a value the rules refuse is refused with the admin's own message (the same
form: the admin, bound to the same data, refuses it alike) and nothing is saved; a row in use
is not deleted. The rule parameters: shown with their defaults, checked by the admin's code.
Query counts pinned at 1 and 20 rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns import catalogue
from campaigns.forms import CampaignAdminForm
from campaigns.models import Campaign, RuleSystem
from campaigns.services import campaign_master_add
from eclipse.models import ArmourTemplate, MorphTemplate
from eclipse.models import WeaponTemplate as EclipseWeapon
from ew1.models import ItemModifier, ItemTemplate
from homebrew.models import WeaponTemplate as HomebrewWeapon
from magic.models import KnownSpell, Spell
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@dataclass
class Kind:
    """One kind of row under test: its system and slug, its model, a valid new row's data, a
    change (field, value) and the field's value read back, refused data with the field the
    refusal names, and how to put a row in use (None: deleting says what it does instead)."""

    system: str
    slug: str
    model: type
    valid: dict[str, Any]
    change: tuple[str, str, Any]
    invalid: dict[str, Any]
    refused_field: str
    use: Callable[[Any, Any], None] | None = None
    extra: dict[str, str] | None = None  # the formset's management data


def _modifiers(rows: list[tuple[str, str]] = (), initial: int = 0) -> dict[str, str]:
    data = {"modifiers-TOTAL_FORMS": str(len(rows) or 1), "modifiers-INITIAL_FORMS": str(initial),
            "modifiers-MIN_NUM_FORMS": "0", "modifiers-MAX_NUM_FORMS": "1000"}
    for i, (stat, dice) in enumerate(rows):
        data[f"modifiers-{i}-stat"], data[f"modifiers-{i}-dice"] = stat, dice
    return data


def _use_item(item, world):
    factories.ItemFactory(template=item, owner=world.character)


def _use_spell(spell, world):
    KnownSpell.objects.create(character=world.character, spell=spell, source="granted",
                              learned_at=timezone.now())


def _use_homebrew_weapon(weapon, world):
    factories.HomebrewSheetFactory(character=world.character, weapons=[weapon])


def _use_eclipse_weapon(weapon, world):
    factories.CarriedWeaponFactory(sheet=factories.EclipseSheetFactory(character=world.character),
                                   template=weapon)


def _use_armour(armour, world):
    sheet = factories.EclipseSheetFactory(character=world.character)
    factories.SleeveFactory(owner=sheet, template__campaign=world.campaign, armour=[armour])


MORPH = {"name": "Splicer", "kind": "biomorph", "durability": "30", "wound_threshold": "",
         "death_rating": "", "armour_energy": "0", "armour_kinetic": "0", "speed": "1",
         "aptitude_bonus": "{}", "limbs": "4", "initiative_bonus": "0", "traits": "[]",
         "mesh_implants": "[]", "aptitude_max": "", "description": ""}
EP_WEAPON = {"name": "Pistol", "skill": "kinetic_weapons", "dv": "2d10", "ap": "0", "damage_type": "kinetic",
             "mode_sa": "on", "magazine": "10", "range_short": "10", "range_medium": "30",
             "range_long": "60", "range_extreme": "100", "blast": "", "blast_radius_m": "0",
             "trigger": "", "description": ""}

KINDS = {
    "ew1-items": Kind(
        RuleSystem.ETERNAL_WAR, "items", ItemTemplate,
        {"name": "Sword", "kind": "melee", "category": "standard", "description": "",
         "damage_dice": "1d6+1", "weapon_skill": "0", "range_cells": "1", "armour": "0",
         "heal_dice": ""},
        ("damage_dice", "2d6", "2d6"),
        {"name": "Stick", "kind": "melee", "category": "standard", "damage_dice": "",
         "weapon_skill": "0", "range_cells": "1", "armour": "0"},
        "damage_dice", _use_item, _modifiers([("FOR", "+1d3")])),
    "ew1-spells": Kind(
        RuleSystem.ETERNAL_WAR, "spells", Spell,
        {"name": "Spark", "tier": "base", "effect": "damage", "dice": "1d6", "range_cells": "5",
         "zone_radius": "0", "reach": "everyone", "duration_hours": "0", "learnable": "on"},
        ("dice", "2d4", "2d4"),
        {"name": "Fizzle", "tier": "base", "effect": "damage", "dice": "banana",
         "range_cells": "5", "zone_radius": "0", "reach": "everyone", "duration_hours": "0"},
        "dice", _use_spell),
    "homebrew-weapons": Kind(
        RuleSystem.HOMEBREW, "weapons", HomebrewWeapon,
        {"name": "Club", "die": "1d6", "kind": "physical", "mp_cost": "0", "description": ""},
        ("die", "1D8", "1d8"),
        {"name": "Twin", "die": "2d6", "kind": "physical", "mp_cost": "0"},
        "die", _use_homebrew_weapon),
    "eclipse-morphs": Kind(
        RuleSystem.ECLIPSE_PHASE, "morphs", MorphTemplate, MORPH,
        ("speed", "2", 2), {**MORPH, "name": "Ghost", "durability": "0"}, "__all__"),
    "eclipse-weapons": Kind(
        RuleSystem.ECLIPSE_PHASE, "weapons", EclipseWeapon, EP_WEAPON,
        ("magazine", "12", 12), {**EP_WEAPON, "name": "Broken", "dv": "banana"}, "dv",
        _use_eclipse_weapon),
    "eclipse-armours": Kind(
        RuleSystem.ECLIPSE_PHASE, "armours", ArmourTemplate,
        {"name": "Vest", "energy": "2", "kinetic": "4", "description": ""},
        ("kinetic", "6", 6), {"name": "Paper", "energy": "-1", "kinetic": "0"}, "energy",
        _use_armour),
}


@dataclass
class World:
    campaign: Campaign
    other: Campaign
    gm: Any
    co_gm: Any
    player: Any
    stranger: Any
    other_gm: Any
    character: Any


def _world(system: str) -> World:
    gm, co_gm = factories.user("gm"), factories.user("co_gm")
    player, stranger, other_gm = (factories.user("player"), factories.user("stranger"),
                                  factories.user("other_gm"))
    campaign = factories.campaign(name="Ours", rule_system=system)
    other = factories.campaign(name="Theirs", rule_system=system)
    Campaign.objects.filter(pk=campaign.pk).update(game_master=gm)
    Campaign.objects.filter(pk=other.pk).update(game_master=other_gm)
    campaign_master_add(user=gm, campaign_id=campaign.pk, username="co_gm")
    campaign.refresh_from_db()
    if system == RuleSystem.ETERNAL_WAR:
        character = factories.character(owner=player, campaign=campaign, name="Aria")
    else:
        character = factories.CharacterFactory(owner=player, campaign=campaign, name="Aria")
    return World(campaign, other, gm, co_gm, player, stranger, other_gm, character)


@pytest.fixture(params=list(KINDS))
def case(request, db):
    kind = KINDS[request.param]
    return kind, _world(kind.system)


def _url(name, world, kind, *args):
    return reverse(f"campaigns:{name}", args=[world.campaign.pk, kind.slug, *args])


def _post(kind, data, **extra):
    return {**data, **(kind.extra or {}), **extra}


def _count(kind, world):
    return kind.model.objects.filter(campaign=world.campaign).count()


# --- each kind, each role --------------------------------------------------------------------

@pytest.mark.parametrize("role", ["gm", "co_gm"])
def test_a_game_master_adds_changes_and_deletes_a_row(case, role):
    kind, world = case
    client = client_of(getattr(world, role))
    assert client.get(_url("manage_list", world, kind)).status_code == 200
    assert client.get(_url("manage_new", world, kind)).status_code == 200
    added = client.post(_url("manage_new", world, kind),
                        _post(kind, kind.valid, campaign=str(world.other.pk)))
    assert added.status_code == 302, added.context["form"].errors
    assert added["Location"] == _url("manage_list", world, kind)
    entry = kind.model.objects.get(name=kind.valid["name"])
    assert entry.campaign_id == world.campaign.pk  # a posted campaign is not taken
    if kind.model is ItemTemplate:
        assert list(ItemModifier.objects.filter(item=entry).values_list("stat", "dice")) == [
            ("FOR", "+1d3")]
    listed = client.get(_url("manage_list", world, kind)).content.decode()
    assert f'data-testid="row-{entry.pk}"' in listed and kind.valid["name"] in listed

    field, value, stored = kind.change
    edit = _url("manage_edit", world, kind, entry.pk)
    assert kind.valid["name"] in client.get(edit).content.decode()
    extra = _modifiers() if kind.extra else {}
    changed = client.post(edit, {**kind.valid, field: value, **extra}, **HTMX)
    assert changed.status_code == 200 and changed["HX-Redirect"] == _url("manage_list", world, kind)
    entry.refresh_from_db()
    assert getattr(entry, field) == stored

    confirm = client.get(_url("manage_delete", world, kind, entry.pk))
    assert confirm.status_code == 200 and 'data-testid="confirm-delete"' in confirm.content.decode()
    deleted = client.post(_url("manage_delete", world, kind, entry.pk))
    assert deleted.status_code == 302
    assert not kind.model.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("role", ["player", "stranger", "other_gm"])
def test_a_player_a_stranger_and_another_gm_get_404_and_change_nothing(case, role):
    kind, world = case
    entry = _make(kind, world.campaign)
    client = client_of(getattr(world, role))
    before = _count(kind, world)
    for name, args in (("manage_list", ()), ("manage_new", ()), ("manage_edit", (entry.pk,)),
                       ("manage_delete", (entry.pk,))):
        assert client.get(_url(name, world, kind, *args)).status_code == 404
    assert client.post(_url("manage_new", world, kind), _post(kind, kind.valid)).status_code == 404
    field, value, _stored = kind.change
    assert client.post(_url("manage_edit", world, kind, entry.pk),
                       _post(kind, {**kind.valid, field: value})).status_code == 404
    assert client.post(_url("manage_delete", world, kind, entry.pk)).status_code == 404
    for name in ("manage", "manage_parameters"):
        assert client.get(reverse(f"campaigns:{name}", args=[world.campaign.pk])).status_code == 404
    assert _count(kind, world) == before
    assert kind.model.objects.filter(pk=entry.pk).exists()


def _make(kind, campaign, name: str | None = None):
    """A valid row of ``campaign`` made through the page's form (the admin's)."""
    data = {**kind.valid, **({"name": name} if name else {})}
    form = catalogue.catalogue_form(kind=_registered(kind), campaign=campaign, data=data)
    assert form.is_valid(), form.errors
    return form.save()


def _registered(kind):
    return catalogue.kind_get(kind.system, kind.slug)


def test_a_row_of_another_campaign_is_404_for_our_gm(case):
    kind, world = case
    theirs = _make(kind, world.other)
    client = client_of(world.gm)
    for name in ("manage_edit", "manage_delete"):
        assert client.get(_url(name, world, kind, theirs.pk)).status_code == 404
        assert client.post(_url(name, world, kind, theirs.pk),
                           _post(kind, kind.valid)).status_code == 404
    assert kind.model.objects.filter(pk=theirs.pk, campaign=world.other,
                                     name=theirs.name).exists()


def test_a_value_the_rules_refuse_is_refused_as_the_admin_refuses_it(case):
    kind, world = case
    client = client_of(world.gm)
    before = _count(kind, world)
    refused = client.post(_url("manage_new", world, kind), _post(kind, kind.invalid), **HTMX)
    assert refused.status_code == 422
    page_errors = refused.context["form"].errors
    assert kind.refused_field in page_errors
    # The admin's form, bound to the same data with the campaign chosen, refuses it alike.
    admin_form = _registered(kind).form_class()(
        data={**kind.invalid, "campaign": str(world.campaign.pk)})
    assert not admin_form.is_valid()
    assert admin_form.errors == page_errors
    html = refused.content.decode()
    for message in page_errors[kind.refused_field]:
        assert str(message).replace("'", "&#x27;") in html
    assert 'data-testid="form-refused"' in html
    assert _count(kind, world) == before
    plain = client.post(_url("manage_new", world, kind), _post(kind, kind.invalid))
    assert plain.status_code == 422 and b"<html" in plain.content
    assert _count(kind, world) == before


def test_a_row_in_use_is_not_deleted(case):
    kind, world = case
    entry = _make(kind, world.campaign)
    client = client_of(world.gm)
    if kind.use is None:  # nothing protects it: the confirmation says what deleting does
        confirm = client.get(_url("manage_delete", world, kind, entry.pk)).content.decode()
        assert str(_registered(kind).deletes) in confirm
        return
    kind.use(entry, world)
    confirm = client.get(_url("manage_delete", world, kind, entry.pk)).content.decode()
    assert 'data-testid="in-use"' in confirm and 'data-testid="confirm-delete"' not in confirm
    refused = client.post(_url("manage_delete", world, kind, entry.pk))
    assert refused.status_code == 409
    assert "it was not deleted" in refused.content.decode()
    htmx = client.post(_url("manage_delete", world, kind, entry.pk), **HTMX)
    assert htmx.status_code == 422 and 'data-testid="delete-refused"' in htmx.content.decode()
    assert kind.model.objects.filter(pk=entry.pk).exists()


def test_the_list_is_paged_and_its_queries_do_not_grow(case, django_assert_num_queries):
    kind, world = case
    client = client_of(world.gm)
    url = _url("manage_list", world, kind)
    _make(kind, world.campaign, "Row 0")
    client.get(url)
    with django_assert_num_queries(5) as one:
        assert client.get(url).status_code == 200
    for n in range(1, 30):
        _make(kind, world.campaign, f"Row {n}")
    with django_assert_num_queries(len(one.captured_queries)):
        page = client.get(url)
    html = page.content.decode()
    assert html.count('data-testid="row-') == catalogue.PAGE_SIZE
    assert 'data-testid="pages"' in html
    second = client.get(url + "?page=2").content.decode()
    assert second.count('data-testid="row-') == 30 - catalogue.PAGE_SIZE
    assert client.get(url + "?page=banana").status_code == 200


def test_the_forms_pages_queries_do_not_grow(case, django_assert_num_queries):
    kind, world = case
    client = client_of(world.gm)
    entry = _make(kind, world.campaign)
    url = _url("manage_edit", world, kind, entry.pk)
    client.get(url)
    with django_assert_num_queries(5 if kind.extra else 4) as one:  # the session, the user,
        # the campaign, the row (and its modifiers)
        assert client.get(url).status_code == 200
    for n in range(20):
        _make(kind, world.campaign, f"Row {n}")
    with django_assert_num_queries(len(one.captured_queries)):
        client.get(url)


# --- the landing page and the rule parameters ------------------------------------------------

@pytest.mark.parametrize("system", [RuleSystem.ETERNAL_WAR, RuleSystem.HOMEBREW,
                                    RuleSystem.ECLIPSE_PHASE])
def test_the_landing_links_every_kind_of_its_system(db, system, django_assert_num_queries):
    world = _world(system)
    client = client_of(world.co_gm)
    gm_screen = client.get(reverse("campaigns:gm", args=[world.campaign.pk])).content.decode()
    assert reverse("campaigns:manage", args=[world.campaign.pk]) in gm_screen
    kinds = [k for k in KINDS.values() if k.system == system]
    url = reverse("campaigns:manage", args=[world.campaign.pk])
    client.get(url)
    with django_assert_num_queries(3 + len(kinds)):
        html = client.get(url).content.decode()
    assert reverse("campaigns:manage_parameters", args=[world.campaign.pk]) in html
    for kind in kinds:
        assert _url("manage_list", world, kind) in html
    others = [k for k in KINDS.values() if k.system != system and k.slug not in
              {m.slug for m in kinds}]
    for kind in others:  # another system's kinds are no page of this campaign
        assert client.get(_url("manage_list", world, kind)).status_code == 404


def _parameter_rows(system):
    from campaigns import rule_systems

    return rule_systems.get(system).parameters.describe()


@pytest.mark.parametrize("system", [RuleSystem.ETERNAL_WAR, RuleSystem.HOMEBREW,
                                    RuleSystem.ECLIPSE_PHASE])
def test_the_rule_parameters_show_their_defaults_and_are_checked_as_the_admin_checks_them(
        db, system, django_assert_num_queries):
    world = _world(system)
    client = client_of(world.co_gm)
    url = reverse("campaigns:manage_parameters", args=[world.campaign.pk])
    client.get(url)
    with django_assert_num_queries(3):
        page = client.get(url)
    html = page.content.decode()
    row = next(r for r in _parameter_rows(system) if r["kind"] == "int" or (
        r["kind"] not in ("bool", "zone") and r["high"] is not None))
    assert f'name="param_{row["name"]}"' in html and "Default:" in html
    # Out of its bounds: refused by the page and by the admin alike, nothing stored.
    shown = {name: bound.value() for name, bound in
             ((f.name, f) for f in page.context["form"]) if name.startswith("param_")}
    current = {k: ("on" if v is True else str(v)) for k, v in shown.items() if v is not False}
    bad = {**current, f"param_{row['name']}": str(row["high"] + 1)}
    refused = client.post(url, bad, **HTMX)
    assert refused.status_code == 422
    admin = CampaignAdminForm(data={**_main_fields(world.campaign), **bad},
                              instance=world.campaign)
    assert not admin.is_valid()
    assert refused.context["form"].errors[f"param_{row['name']}"] == admin.errors[
        f"param_{row['name']}"]
    assert Campaign.objects.get(pk=world.campaign.pk).rule_parameters == {}
    # Within them: stored, only what differs from the default.
    value = row["low"] if row["low"] != row["default"] else row["high"]
    saved = client.post(url, {**current, f"param_{row['name']}": str(value)})
    assert saved.status_code == 302
    assert Campaign.objects.get(pk=world.campaign.pk).rule_parameters == {
        row["name"]: str(value) if not isinstance(value, int) else value}
    for who in (world.player, world.stranger, world.other_gm):
        assert client_of(who).post(url, {f"param_{row['name']}": "1"}).status_code == 404
    assert Campaign.objects.get(pk=world.campaign.pk).rule_parameters == {
        row["name"]: str(value) if not isinstance(value, int) else value}


def _main_fields(campaign) -> dict:
    return {"name": campaign.name, "description": campaign.description,
            "rule_system": campaign.rule_system, "game_master": str(campaign.game_master_id),
            "enemy_state": campaign.enemy_state, **({"is_open": "on"} if campaign.is_open else {})}


def test_the_admin_refuses_the_same_data_with_the_same_words(case):
    """The admin's own add page, posted the refused data by a superuser, and the back office
    page refuse it with the same errors; neither saves anything."""
    kind, world = case
    admin = factories.user("root", is_staff=True, is_superuser=True)
    meta = kind.model._meta
    before = kind.model.objects.count()
    answer = client_of(admin).post(
        reverse(f"admin:{meta.app_label}_{meta.model_name}_add"),
        {**kind.invalid, **_modifiers(), "campaign": str(world.campaign.pk)})
    assert answer.status_code == 200  # the admin shows its form again
    admin_errors = answer.context["adminform"].form.errors
    page = client_of(world.gm).post(_url("manage_new", world, kind), _post(kind, kind.invalid))
    assert page.status_code == 422
    assert admin_errors and admin_errors == page.context["form"].errors
    assert kind.model.objects.count() == before


def test_a_name_taken_in_the_campaign_is_refused_with_the_constraints_words(case):
    kind, world = case
    _make(kind, world.campaign)
    _make(kind, world.other)  # another campaign's row of that name is no bar
    client = client_of(world.co_gm)
    refused = client.post(_url("manage_new", world, kind), _post(kind, kind.valid), **HTMX)
    assert refused.status_code == 422
    words = str(next(c for c in kind.model._meta.constraints
                     if "name" in getattr(c, "fields", ())).violation_error_message)
    assert words.replace("'", "&#x27;") in refused.content.decode()
    assert kind.model.objects.filter(campaign=world.campaign).count() == 1


def test_french_readers_get_the_back_office_in_french(case):
    kind, world = case
    client = client_of(world.gm)
    html = client.get(reverse("campaigns:manage", args=[world.campaign.pk]),
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Arrière-boutique" in html and "Paramètres de règles" in html
    listed = client.get(_url("manage_list", world, kind), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Ajouter" in listed.content.decode()


# What each kind's in_use reads (campaigns.catalogue.CatalogueKind.in_use).
USE_QUERIES = {"items": 1, "spells": 3, "weapons": 1, "morphs": 0, "armours": 1}


def test_the_delete_confirmation_reads_a_fixed_number_of_queries(case,
                                                                 django_assert_num_queries):
    kind, world = case
    entry = _make(kind, world.campaign)
    client = client_of(world.gm)
    url = _url("manage_delete", world, kind, entry.pk)
    client.get(url)
    with django_assert_num_queries(4 + USE_QUERIES[kind.slug]):  # session, user, campaign, row
        assert client.get(url).status_code == 200
    if kind.use is not None:  # in use: the same reads, the refusal shown
        kind.use(entry, world)
        with django_assert_num_queries(4 + USE_QUERIES[kind.slug]):
            assert 'data-testid="in-use"' in client.get(url).content.decode()
