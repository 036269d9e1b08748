"""One test per bug the breaker found (each failed before its fix). The broader sweeps live in
the other modules of this folder."""

from __future__ import annotations

import pytest

from ew1.models import CharacterDraft
from tests.breaker.conftest import HTMX, api_logged_in, logged_in

HUGE = 10 ** 20  # past SQLite's (and PostgreSQL's bigint) range


# 1. ew1.actors.lock_sheets filtered with ``character_id__in``: Django maps an out-of-range id
#    to "no row" for exact lookups only, so a huge id in the URL or as the attack target reached
#    SQLite and raised OverflowError (500) on move, attack, game, suicide and reincarnate.
@pytest.mark.parametrize("action,body", [("move", {"dx": 1, "dy": 0}), ("game", {}),
                                         ("suicide", {}), ("reincarnate", {}),
                                         ("attack", {"target": 1})])
def test_board_actions_of_a_huge_character_id_are_404(world, unchanged, action, body):
    with unchanged():
        page = logged_in(world.alice).post(f"/characters/{HUGE}/{action}/", body)
        api = api_logged_in(world.alice).post(f"/api/characters/{HUGE}/{action}/", body,
                                              format="json")
    assert page.status_code == 404
    assert api.status_code == 404 and api.json()["code"] == "not_found"


@pytest.mark.parametrize("kind", ["brawl", "throw"])
def test_an_attack_on_a_huge_target_id_is_refused(world, unchanged, kind):
    with unchanged():
        page = logged_in(world.alice).post(f"/characters/{world.a.pk}/attack/",
                                           {"target": HUGE, "kind": kind}, **HTMX)
        api = api_logged_in(world.alice).post(f"/api/characters/{world.a.pk}/attack/",
                                              {"target": HUGE, "kind": kind}, format="json")
    assert page.status_code == 200 and b'data-testid="error"' in page.content
    assert api.status_code == 400 and api.json()["code"] == "invalid_target"


# 2. ew1.equipment._owned_item filtered ``owner_id=character_id`` (a foreign key's lookup,
#    no overflow guard): the equip, unequip and use pages of a huge character id with a real item
#    id answered 500.
@pytest.mark.parametrize("action", ["equip", "unequip", "use"])
def test_item_pages_of_a_huge_character_id_are_404(world, unchanged, action):
    item = world.a_potion if action == "use" else world.a_sword
    with unchanged():
        response = logged_in(world.alice).post(f"/characters/{HUGE}/items/{item.pk}/{action}/")
    assert response.status_code == 404


# 3. magic.casting.spell_cast filtered ``spell_id=spell_id``: casting a huge spell id answered
#    500 on the page and in the API.
def test_casting_a_huge_spell_id_is_spell_unknown(world, unchanged):
    body = {"spell": HUGE, "x": 3, "y": 2}
    with unchanged():
        page = logged_in(world.alice).post(f"/characters/{world.a.pk}/cast/", body, **HTMX)
        api = api_logged_in(world.alice).post(f"/api/characters/{world.a.pk}/cast/", body,
                                              format="json")
    assert page.status_code == 200 and b'data-testid="error"' in page.content
    assert api.status_code == 400 and api.json()["code"] == "spell_unknown"


# 4. magic.views.spells_page read the offer id with ``int(request.POST["offer"])``: anything but
#    digits (a float, a word, a NUL) answered 500.
@pytest.mark.parametrize("offer", ["abc", "1.5", "1e3", "\x00", "-3"])
def test_the_spell_offer_form_refuses_a_malformed_offer_id(world, unchanged, offer):
    spell = world.a_offer.spells.first().pk
    with unchanged():
        response = logged_in(world.alice).post(f"/characters/{world.a.pk}/spells/",
                                               {"offer": offer, "spell": spell})
    assert response.status_code == 200
    assert b'data-testid="error"' in response.content


def test_the_spell_offer_form_still_answers_a_real_offer(world):
    spell = world.a_offer.spells.first()
    response = logged_in(world.alice).post(f"/characters/{world.a.pk}/spells/",
                                           {"offer": world.a_offer.pk, "spell": spell.pk})
    assert response.status_code == 302
    assert world.a.known_spells.filter(spell=spell).exists()


# 5. characters.services.new_character_name only ``strip()``ped: a name of zero-width spaces, word
#    joiners or a lone right-to-left override was accepted and showed as an invisible character
#    on boards and leaderboards.
@pytest.mark.parametrize("name", ["\u200b\u200b", "\u2060", "\ufeff\u200b", "\u202e",
                                  " \u200b\u3000 ", "\u00ad"], ids=repr)
def test_invisible_names_are_refused(world, unchanged, name):
    body = {"campaign": world.campaign.pk, "name": name}
    with unchanged():
        for url in ("/api/characters/", "/api/drafts/"):
            response = api_logged_in(world.alice).post(url, body, format="json")
            assert response.status_code == 400, response.content
            assert response.json()["code"] == "invalid_input"


@pytest.mark.parametrize("name", ["👨\u200d👩\u200d👧 Family", "Zoë", "李小龍", "O'Brien-Smith"])
def test_visible_names_with_joiners_and_scripts_are_kept(world, name):
    response = api_logged_in(world.alice).post(
        "/api/drafts/", {"campaign": world.campaign.pk, "name": name}, format="json")
    assert response.status_code == 201, response.content
    assert CharacterDraft.objects.get(pk=response.json()["id"]).name == name


# 6. The admin let a game master switch a campaign with characters to a rule system not built
#    yet, after which every page of those characters answered 500: see test_states.py, "Regression".


# 7. factions.services.member_remove and leadership_transfer filtered ``character_id=`` (a
#    foreign key's lookup): a huge member id raised OverflowError on SQLite (500).
@pytest.mark.parametrize("operation", ["remove", "transfer"])
def test_faction_operations_on_a_huge_member_id_are_refused(world, operation):
    from factions.errors import NotAMember
    from factions.services import faction_create, leadership_transfer, member_remove

    faction = faction_create(user=world.alice, character_id=world.a.pk, name="Lions")
    run = {"remove": member_remove, "transfer": leadership_transfer}[operation]
    with pytest.raises(NotAMember):
        run(user=world.alice, faction_id=faction.pk, character_id=HUGE)


# 8. PA now / PV now in the admin sheet form: "changed" was judged against the values recomputed
#    when the form was POSTed, not those the game master saw. A player's spend (or a PA
#    regained) between opening and saving the page made the untouched field look changed, and
#    saving any other field wrote the stale PA back: spent PA refunded, anchors reset.
def test_saving_the_admin_sheet_keeps_pa_spent_since_the_page_opened(world, client):
    from decimal import Decimal

    from django.urls import reverse

    from combat.services import action_move
    from ew1.models import EternalWarSheet
    from tests import factories
    from tests.admin.test_admin_add_forms import form_data

    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    url = reverse("admin:characters_character_change", args=[world.a.pk])
    page = client.get(url)
    # The browser sends back the value it was shown next to the field (what form_data copies).
    assert b'name="initial-ew1-0-pa_now"' in page.content
    assert b'name="initial-ew1-0-pv_now"' in page.content
    action_move(user=world.alice, character_id=world.a.pk, dx=0, dy=-1)  # 0.5 PA, after the GET
    spent = EternalWarSheet.objects.get(pk=world.a.pk)

    saved = client.post(url, form_data(page, **{"ew1-0-skill_brawl": 60}))

    assert saved.status_code == 302
    after = EternalWarSheet.objects.get(pk=world.a.pk)
    assert after.skills["brawl"] == 60
    assert (after.pa, after.pa_anchor, after.pv, after.pv_anchor) == (
        spent.pa, spent.pa_anchor, spent.pv, spent.pv_anchor)
    assert after.pa < Decimal(page.context["inline_admin_formsets"][0].formset.forms[0]
                              ["pa_now"].value())
