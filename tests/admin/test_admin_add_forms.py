"""Every admin add form, saved with its own defaults, makes data that every page can show
(issue 8, item 1): a character of any kind always gets its sheet, and the board, sheet, API
and leaderboard that show it answer 200."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character
from ew1.models import EternalWarSheet
from gamerules.ew1.skills import SKILLS
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


def form_data(response, **overrides) -> dict:
    """The POST body of an admin add/change page as the browser would send it untouched: every
    field's initial value, the inlines' management forms, then ``overrides``."""
    data = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms += [formset.management_form, *formset.forms]
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None or value is False:
                continue
            if value is True:
                value = "on"
            data[bound.html_name] = [str(v) for v in value] if isinstance(value, list) else (
                str(value))
            if bound.field.show_hidden_initial:  # the hidden copy of the value shown
                data[bound.html_initial_name] = data[bound.html_name]
    data.update({k: str(v) for k, v in overrides.items()})
    return data


def fill_required(response) -> dict:
    """Values for the required fields the defaults leave empty: the first choice of a list, a
    name for a text. Other empty required fields stay empty (the form must refuse them)."""
    form = response.context["adminform"].form
    filled = {}
    for name, field in form.fields.items():
        if not field.required or form[name].value() not in (None, ""):
            continue
        choices = [c for c, _ in getattr(field, "choices", []) if c not in ("", None)]
        if choices:
            filled[name] = getattr(choices[0], "value", choices[0])
        elif field.__class__.__name__ in ("CharField", "SlugField"):
            filled[name] = f"Walk {form._meta.model.__name__}"
    return filled


@pytest.fixture
def world(db, alice, bob):
    gm = factories.user("gm", is_staff=True, is_superuser=True)
    campaign = factories.campaign(width=12, height=12)
    campaign.game_master = gm
    campaign.save()
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))
    gm_client = Client()
    gm_client.force_login(gm)
    return campaign, hero, gm, gm_client


def test_every_registered_add_page_opens_and_saves_its_defaults_cleanly(world):
    campaign, _, _, gm_client = world
    for model, model_admin in admin.site._registry.items():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add")
        if model is Character:  # its campaign first: the page is its rule system's
            url += f"?campaign={campaign.pk}"
        page = gm_client.get(url)
        if not model_admin.has_add_permission(page.wsgi_request):
            assert page.status_code == 403, url
            continue
        assert page.status_code == 200, url
        saved = gm_client.post(url, form_data(page, **fill_required(page)))
        # Saved (302) or refused with the form's messages (200): never a crash.
        assert saved.status_code in (200, 302), (url, saved.status_code)
        if saved.status_code == 200:
            assert saved.context["adminform"].form.errors or saved.context["errors"], url
    assert not Character.objects.filter(ew1__isnull=True).exists()


@pytest.mark.parametrize("kind,cell", [("creature", (6, 5)), ("door", (4, 5)),
                                       ("object", (5, 6)), ("player", (5, 4))])
def test_a_character_of_each_kind_added_with_the_defaults_shows_on_every_page(
        world, alice, bob, kind, cell):
    campaign, hero, gm, gm_client = world
    url = reverse("admin:characters_character_add") + f"?campaign={campaign.pk}"
    page = gm_client.get(url)
    owner = {"owner": bob.pk} if kind == "player" else {}
    saved = gm_client.post(url, form_data(page, campaign=campaign.pk, kind=kind, name="Newcomer",
                                          board=campaign.board.pk, x=cell[0], y=cell[1],
                                          **owner))
    assert saved.status_code == 302, saved.context and saved.context["errors"]

    piece = Character.objects.select_related("ew1").get(name="Newcomer")
    assert piece.kind == kind and (piece.x, piece.y) == cell
    sheet = piece.ew1
    assert set(sheet.skills) == {s.code for s in SKILLS}
    assert (sheet.pv, sheet.pv_max) == (100, 100)
    if kind == "player":
        assert (sheet.FOR, sheet.TAI, sheet.LUK, sheet.fixed_reduction) == (10, 13, 10, None)
        assert sheet.skills["brawl"] == 90
    else:
        assert sheet.LUK is None and sheet.fixed_reduction == 0
    if kind in ("door", "object"):
        assert set(sheet.skills.values()) == {0}

    alice_client, alice_api, gm_api = Client(), APIClient(), APIClient()
    alice_client.force_login(alice)
    alice_api.force_authenticate(alice)
    gm_api.force_authenticate(gm)
    pages = [
        (alice_client, reverse("combat:board", args=[hero.pk]), {}),
        (alice_client, reverse("combat:board", args=[hero.pk]), HTMX),
        (alice_client, reverse("characters:detail", args=[hero.pk]), {}),
        (alice_client, reverse("characters:list"), {}),
        (alice_client, reverse("campaigns:leaderboard", args=[campaign.pk]), {}),
        (alice_client, reverse("factions:index"), {}),
        (alice_api, f"/api/characters/{hero.pk}/board/", {}),
        (alice_api, f"/api/campaigns/{campaign.pk}/leaderboard/", {}),
        (gm_client, reverse("characters:detail", args=[piece.pk]), {}),
        (gm_client, reverse("combat:board", args=[piece.pk]), {}),
        (gm_client, reverse("admin:characters_character_change", args=[piece.pk]), {}),
        (gm_client, reverse("admin:characters_character_changelist"), {}),
        (gm_api, f"/api/characters/{piece.pk}/", {}),
        (gm_api, f"/api/characters/{piece.pk}/board/", {}),
    ]
    if kind == "player":
        bob_client, bob_api = Client(), APIClient()
        bob_client.force_login(bob)
        bob_api.force_authenticate(bob)
        pages += [(bob_client, reverse("characters:detail", args=[piece.pk]), {}),
                  (bob_client, reverse("characters:list"), {}),
                  (bob_client, reverse("ew1:level-up", args=[piece.pk]), {}),
                  (bob_client, reverse("magic:spells", args=[piece.pk]), {}),
                  (bob_api, "/api/characters/", {}),
                  (bob_api, f"/api/characters/{piece.pk}/spells/", {})]
    for client, address, headers in pages:
        response = client.get(address, **headers)
        assert response.status_code == 200, (address, response.status_code)
    board = alice_api.get(f"/api/characters/{hero.pk}/board/").json()
    assert "Newcomer" in str(board)
    assert "Newcomer" in alice_client.get(reverse("combat:board", args=[hero.pk])).content.decode()


def test_a_partly_filled_sheet_takes_the_kind_defaults_for_the_rest(world):
    campaign, _, _, gm_client = world
    url = reverse("admin:characters_character_add") + f"?campaign={campaign.pk}"
    page = gm_client.get(url)
    saved = gm_client.post(url, form_data(page, campaign=campaign.pk, kind="creature",
                                          name="Ogre", **{"ew1-0-FOR": 18, "ew1-0-skill_brawl": 60,
                                                          "ew1-0-pv_now": 40, "ew1-0-pv_max": 40}))
    assert saved.status_code == 302, saved.context and saved.context["errors"]
    sheet = EternalWarSheet.objects.get(character__name="Ogre")
    assert (sheet.FOR, sheet.DEF, sheet.LUK, sheet.pv, sheet.pv_max) == (18, 10, None, 40, 40)
    assert sheet.skills["brawl"] == 60 and sheet.skills["melee"] == 35
