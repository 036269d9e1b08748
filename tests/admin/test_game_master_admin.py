"""Game masters edit campaigns, items and spells in the admin; bad values are refused."""

import pytest

from campaigns.models import Campaign
from characters.models import ItemTemplate
from magic.models import Spell
from tests import factories


@pytest.fixture
def gm_client(client, db):
    gm = factories.user("gm", is_staff=True, is_superuser=True)
    client.force_login(gm)
    return client


def _item_form(**overrides):
    data = {
        "name": "Masse à deux mains", "kind": "melee", "category": "legendary",
        "description": "", "damage_dice": "2d6+1", "weapon_skill": "10", "range_cells": "1",
        "armour": "0", "campaign": "",
        "modifiers-TOTAL_FORMS": "1", "modifiers-INITIAL_FORMS": "0",
        "modifiers-MIN_NUM_FORMS": "0", "modifiers-MAX_NUM_FORMS": "1000",
        "modifiers-0-stat": "FOR", "modifiers-0-dice": "+1d3",
    }
    data.update(overrides)
    return data


def test_gm_creates_an_item_with_its_modifier(gm_client):
    response = gm_client.post("/admin/characters/itemtemplate/add/", _item_form())
    assert response.status_code == 302
    item = ItemTemplate.objects.get(name="Masse à deux mains")
    assert item.damage_dice == "2d6+1"
    assert [(m.stat, m.dice) for m in item.modifiers.all()] == [("FOR", "+1d3")]


@pytest.mark.parametrize("field,value", [("damage_dice", "2d6++"), ("damage_dice", "4d6kh3"),
                                         ("modifiers-0-dice", "1d3 DEF"),
                                         ("damage_dice", "")])
def test_bad_dice_notation_is_refused(gm_client, field, value):
    response = gm_client.post("/admin/characters/itemtemplate/add/", _item_form(**{field: value}))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors or any(
        f.errors for f in response.context["inline_admin_formsets"][0].formset.forms)
    assert not ItemTemplate.objects.exists()


def _campaign_form(**overrides):
    data = {"name": "Nouvelle campagne", "description": "", "rule_system": "ew1",
            "game_master": "", "is_open": "on", "rule_parameters": "{}",
            "board-TOTAL_FORMS": "1", "board-INITIAL_FORMS": "0", "board-MIN_NUM_FORMS": "0",
            "board-MAX_NUM_FORMS": "1", "board-0-width": "15", "board-0-height": "9"}
    data.update(overrides)
    return data


def test_gm_creates_a_campaign_with_a_board_and_parameters(gm_client):
    response = gm_client.post("/admin/campaigns/campaign/add/", _campaign_form(
        rule_parameters='{"view_radius": 3, "move_cost_pa": "1"}'))
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Nouvelle campagne")
    assert (campaign.board.width, campaign.board.height) == (15, 9)
    assert campaign.parameters.view_radius == 3
    assert str(campaign.parameters.move_cost_pa) == "1"


@pytest.mark.parametrize("parameters", ['{"view_radius": 0}', '{"no_such_rule": 1}',
                                        '{"pa_base": "many"}'])
def test_invalid_rule_parameters_are_refused(gm_client, parameters):
    response = gm_client.post("/admin/campaigns/campaign/add/",
                              _campaign_form(rule_parameters=parameters))
    assert response.status_code == 200
    assert "rule_parameters" in response.context["adminform"].form.errors
    assert not Campaign.objects.exists()


def test_changelists_filter_and_search(gm_client):
    campaign = factories.campaign()
    Spell.objects.create(campaign=campaign, name="Boule de feu", effect="damage", dice="1d6+1")
    Spell.objects.create(campaign=campaign, name="Soin", effect="heal", dice="1d6+1")
    response = gm_client.get("/admin/magic/spell/", {"q": "boule"})
    assert [s.name for s in response.context["cl"].result_list] == ["Boule de feu"]
    response = gm_client.get("/admin/magic/spell/", {"effect__exact": "heal"})
    assert [s.name for s in response.context["cl"].result_list] == ["Soin"]


def test_players_cannot_reach_the_admin(client, alice):
    client.force_login(alice)
    response = client.get("/admin/characters/itemtemplate/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
