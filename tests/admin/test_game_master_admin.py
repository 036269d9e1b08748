"""Game masters edit campaigns, items and spells in the admin; bad values are refused."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import ActionRecord, Campaign
from ew1.models import ItemTemplate
from gamerules.ew1.params import EW1Parameters
from magic.models import Spell
from tests import factories
from tests.admin.campaign_pages import add_campaign, change_url, post_change


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
    response = gm_client.post("/admin/ew1/itemtemplate/add/", _item_form())
    assert response.status_code == 302
    item = ItemTemplate.objects.get(name="Masse à deux mains")
    assert item.damage_dice == "2d6+1"
    assert [(m.stat, m.dice) for m in item.modifiers.all()] == [("FOR", "+1d3")]


@pytest.mark.parametrize("field,value", [("damage_dice", "2d6++"), ("damage_dice", "4d6kh3"),
                                         ("modifiers-0-dice", "1d3 DEF"),
                                         ("damage_dice", "")])
def test_bad_dice_notation_is_refused(gm_client, field, value):
    response = gm_client.post("/admin/ew1/itemtemplate/add/", _item_form(**{field: value}))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors or any(
        f.errors for f in response.context["inline_admin_formsets"][0].formset.forms)
    assert not ItemTemplate.objects.exists()


def _campaign_form(**overrides):
    data = {"name": "Nouvelle campagne", "description": "", "rule_system": "ew1",
            "game_master": "", "is_open": "on",
            "board-TOTAL_FORMS": "1", "board-INITIAL_FORMS": "0", "board-MIN_NUM_FORMS": "0",
            "board-MAX_NUM_FORMS": "1", "board-0-width": "15", "board-0-height": "9"}
    data.update(overrides)
    return data


def test_the_campaign_form_shows_every_rule_parameter_with_its_default(gm_client):
    add = gm_client.get("/admin/campaigns/campaign/add/").context["adminform"].form
    assert not [f for f in add.fields if f.startswith("param_")]  # the rule system comes first
    campaign = add_campaign(gm_client, rule_system="ew1")
    form = gm_client.get(change_url(campaign)).context["adminform"].form
    names = [f for f in form.fields if f.startswith("param_")]
    assert len(names) == len(EW1Parameters.describe())
    assert form.fields["param_view_radius"].initial == 5
    assert str(form.fields["param_move_cost_pa"].initial) == "0.5"


def test_gm_creates_a_campaign_with_a_board_and_parameters(gm_client):
    campaign = add_campaign(gm_client, rule_system="ew1")
    assert (campaign.board.width, campaign.board.height) == (15, 9)
    assert campaign.rule_parameters == {}
    response = post_change(gm_client, campaign, param_view_radius="3", param_move_cost_pa="1",
                           param_pa_base="12")
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Nouvelle campagne")
    # Only the values that differ from the defaults are stored.
    assert campaign.rule_parameters == {"view_radius": 3, "move_cost_pa": "1"}
    assert campaign.parameters.view_radius == 3
    assert campaign.parameters.move_cost_pa == 1


@pytest.mark.parametrize("field,value", [("param_view_radius", "0"),
                                         ("param_view_radius", "51"),
                                         ("param_pa_base", "many"),
                                         ("param_move_cost_pa", "-1")])
def test_invalid_rule_parameters_are_refused(gm_client, field, value):
    campaign = add_campaign(gm_client, rule_system="ew1")
    response = post_change(gm_client, campaign, **{field: value})
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert Campaign.objects.get().rule_parameters == {}


def test_unknown_stored_parameters_fail_validation(db):
    campaign = Campaign(name="X", rule_system="ew1", rule_parameters={"no_such_rule": 1})
    with pytest.raises(ValidationError) as error:
        campaign.full_clean()
    assert "rule_parameters" in error.value.message_dict


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
    response = client.get("/admin/ew1/itemtemplate/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_gm_grants_an_item_and_its_modifiers_are_rolled_once(gm_client, alice):
    campaign = factories.campaign()
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    sword = ItemTemplate.objects.create(campaign=campaign, name="Épée à deux mains", kind="melee",
                                        damage_dice="1d8+2")
    sword.modifiers.create(stat="DEF", dice="-1d3")
    sword.modifiers.create(stat="FOR", dice="+1d3")
    response = gm_client.post("/admin/ew1/iteminstance/add/",
                              {"owner": hero.pk, "template": sword.pk, "equipped": "on"})
    assert response.status_code == 302
    item = hero.items.get()
    assert item.equipped
    assert -3 <= item.modifier_values["DEF"] <= -1
    assert 1 <= item.modifier_values["FOR"] <= 3
    grant = ActionRecord.objects.get(kind="item_grant", actor=hero)
    assert sorted(r.label for r in grant.rolls.all()) == ["item DEF", "item FOR"]


def test_an_item_of_another_campaign_cannot_be_granted(gm_client, alice):
    campaign, other = factories.campaign(), factories.campaign(name="Other")
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    foreign = ItemTemplate.objects.create(campaign=other, name="Arc", kind="ranged",
                                          damage_dice="1d6")
    response = gm_client.post("/admin/ew1/iteminstance/add/",
                              {"owner": hero.pk, "template": foreign.pk})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["template"] == [
        "Arc belongs to another campaign (Other)."]
    assert not hero.items.exists()


# Issue 8: the new parameters are admin fields like every other, with bounds and defaults;
# issue 19: friendly fire is a yes/no, a checkbox.
def test_gm_sets_friendly_fire_off_and_a_shield_duration(gm_client):
    campaign = add_campaign(gm_client, rule_system="ew1")
    page = gm_client.get(change_url(campaign)).content.decode()
    assert 'name="param_friendly_fire"' in page and 'name="param_shield_duration_hours"' in page
    response = post_change(gm_client, campaign, param_friendly_fire=False,
                           param_shield_duration_hours="12")
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Nouvelle campagne")
    assert campaign.rule_parameters == {"friendly_fire": False, "shield_duration_hours": 12}
    assert (campaign.parameters.friendly_fire, campaign.parameters.shield_duration_hours) == (
        False, 12)


@pytest.mark.parametrize("field,value", [("param_shield_duration_hours", "0"),
                                         ("param_shield_duration_hours", "721")])
def test_new_parameters_out_of_bounds_are_refused(gm_client, field, value):
    campaign = add_campaign(gm_client, rule_system="ew1")
    response = post_change(gm_client, campaign, **{field: value})
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert Campaign.objects.get().rule_parameters == {}


def test_the_item_admin_explains_a_space_inside_a_dice_term(gm_client):
    response = gm_client.post("/admin/ew1/itemtemplate/add/",
                              _item_form(damage_dice="1d6 2"))
    assert response.status_code == 200
    assert "splits a term" in str(response.context["adminform"].form.errors["damage_dice"])
    assert not ItemTemplate.objects.exists()
