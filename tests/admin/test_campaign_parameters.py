"""The rule parameters per system in the campaign admin (issue 19, item 1): the add page asks
for the rule system and stores no parameter; the change page shows that system's parameters
only, a yes/no as a checkbox, each labelled in words (English and French); every bound is
checked, and parameters that read each other are checked together. Every parameter of every
system goes through the admin and back."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django import forms
from django.utils import translation

from campaigns import rule_systems
from campaigns.models import Campaign
from gamerules.homebrew.characteristics import MAINS
from gamerules.homebrew.params import MAIN_COUNT
from tests import factories
from tests.admin.campaign_pages import (ADD, add_campaign, add_response, change_data, change_url,
                                        post_change)

SYSTEMS = ["ew1", "homebrew", "eclipse_phase"]


@pytest.fixture
def gm_client(client, db):
    client.force_login(factories.user("gm", is_staff=True, is_superuser=True))
    return client


def rows(system: str) -> list[dict]:
    return rule_systems.require(system).parameters.describe()


def other_value(row: dict):
    """A value the parameter takes that is not its default (one step away, within bounds)."""
    default = row["default"]
    if row["kind"] == "bool":
        return not default
    if row["kind"] == "zone":
        return "Europe/Paris" if default != "Europe/Paris" else "UTC"
    step = Decimal("0.25") if isinstance(default, Decimal) else 1
    return default + step if default + step <= row["high"] else default - step


def typed(row: dict, value) -> object:
    """``value`` as the form posts it (a box ticked or not, a number as typed)."""
    return value if row["kind"] == "bool" else str(value)


def stored(value):
    return str(value) if isinstance(value, Decimal) else value


def param_fields(response) -> list[str]:
    return [n for n in response.context["adminform"].form.fields if n.startswith("param_")]


# --- the add page: the rule system first, no parameter -----------------------------------------

def test_the_add_page_asks_for_the_rule_system_and_shows_no_parameter(gm_client):
    page = gm_client.get(ADD)
    form = page.context["adminform"].form
    assert param_fields(page) == []
    assert form["rule_system"].value() in (None, "")  # no system chosen for the GM
    assert form.fields["rule_system"].choices[0] == ("", "---------")
    response = add_response(gm_client, rule_system="")
    assert response.status_code == 200
    assert "rule_system" in response.context["adminform"].form.errors
    assert not Campaign.objects.exists()


def test_the_add_page_takes_the_system_from_its_address(gm_client):
    form = gm_client.get(ADD + "?rule_system=homebrew").context["adminform"].form
    assert form["rule_system"].value() == "homebrew"


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_campaign_added_without_touching_a_parameter_stores_none(gm_client, system):
    # Values another system's form would carry are not read: the add page has no parameter.
    campaign = add_campaign(gm_client, rule_system=system, param_characteristic_max="40",
                            param_view_radius="3")
    assert campaign.rule_system == system
    assert campaign.rule_parameters == {}
    change = gm_client.get(change_url(campaign))
    assert param_fields(change) == ["param_" + r["name"] for r in rows(system)]
    assert b"Its parameters are below" in change.content  # the admin says where they are


# --- the change page: that system's parameters, in words ---------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_each_parameter_is_labelled_in_words_and_a_yes_no_is_a_checkbox(gm_client, system):
    campaign = factories.campaign(name=f"C {system}")
    campaign.rule_system = system
    campaign.save()
    form = gm_client.get(change_url(campaign)).context["adminform"].form
    labels = set()
    for row in rows(system):
        field = form.fields["param_" + row["name"]]
        assert field.label and field.label != row["name"] and "_" not in field.label, row
        labels.add(field.label)
        assert isinstance(field, forms.BooleanField) == (row["kind"] == "bool"), row["name"]
        if row["kind"] == "bool":
            assert isinstance(field.widget, forms.CheckboxInput)
            assert field.initial is row["default"]
        assert row["name"] in field.help_text  # the name docs/rules/ uses
    assert len(labels) == len(rows(system))  # no two parameters read alike


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_label_has_its_french(system):
    for row in rows(system):
        with translation.override("fr"):
            french = translation.gettext(row["label"])
        assert french != row["label"], f"add French for {row['label']!r} to django.po"


def test_the_change_page_speaks_french(gm_client):
    campaign = add_campaign(gm_client, rule_system="homebrew")
    page = gm_client.get(change_url(campaign), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Points de caractéristiques à la création" in page
    assert "Dépenser tous les points à la création" in page


def test_homebrew_labels_count_its_three_mains():
    assert len(MAINS) == MAIN_COUNT


# --- every parameter of every system, through the admin and back -------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_every_parameter_set_to_another_value_is_stored_and_read_back(gm_client, system):
    campaign = add_campaign(gm_client, rule_system=system)
    wanted = {row["name"]: other_value(row) for row in rows(system)}
    response = post_change(gm_client, campaign, **{
        "param_" + row["name"]: typed(row, wanted[row["name"]]) for row in rows(system)})
    assert response.status_code == 302, response.context["adminform"].form.errors
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert campaign.rule_parameters == {name: stored(v) for name, v in wanted.items()}
    params = campaign.parameters
    for name, value in wanted.items():
        assert getattr(params, name) == value, name

    # The page shows them back (a ticked box for a yes), and saving it as shown changes nothing.
    form = gm_client.get(change_url(campaign)).context["adminform"].form
    for row in rows(system):
        bound = form["param_" + row["name"]]
        assert bound.value() == wanted[row["name"]] or str(bound.value()) == str(
            wanted[row["name"]]), row["name"]
    assert post_change(gm_client, campaign).status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == campaign.rule_parameters

    # Back to every default, each yes/no the other way again: nothing stored.
    response = post_change(gm_client, campaign, **{
        "param_" + row["name"]: typed(row, row["default"]) for row in rows(system)})
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_yes_no_both_ways(gm_client, system):
    """A box ticked where the default is no, unticked where it is yes: stored; then back."""
    campaign = add_campaign(gm_client, rule_system=system)
    switches = [r for r in rows(system) if r["kind"] == "bool"]
    assert switches
    flipped = {"param_" + r["name"]: not r["default"] for r in switches}
    assert post_change(gm_client, campaign, **flipped).status_code == 302
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert campaign.rule_parameters == {r["name"]: not r["default"] for r in switches}
    assert all(getattr(campaign.parameters, r["name"]) is (not r["default"]) for r in switches)
    back = {"param_" + r["name"]: r["default"] for r in switches}
    assert post_change(gm_client, campaign, **back).status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}


@pytest.mark.parametrize("raw", ["0", "1", "true", "false", "", "yes"])
def test_a_yes_no_posted_as_anything_never_answers_500(gm_client, raw):
    campaign = add_campaign(gm_client, rule_system="homebrew")
    data = change_data(gm_client, campaign)
    data["param_spend_all_points"] = raw
    response = gm_client.post(change_url(campaign), data)
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).parameters.spend_all_points in (True, False)


# --- bounds, and parameters read together ------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("side", ["below", "above"])
def test_every_bound_is_checked_on_the_server(gm_client, system, side):
    campaign = add_campaign(gm_client, rule_system=system)
    numbers = [r for r in rows(system) if r["kind"] == "number"]
    step = {True: Decimal("0.01"), False: 1}
    out = {"param_" + r["name"]: str(r["low"] - step[isinstance(r["default"], Decimal)]
                                      if side == "below" else
                                      r["high"] + step[isinstance(r["default"], Decimal)])
           for r in numbers}
    response = post_change(gm_client, campaign, **out)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(out) <= set(errors)
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}


def test_homebrew_creation_points_are_checked_against_the_characteristics_caps(gm_client):
    campaign = add_campaign(gm_client, rule_system="homebrew")
    response = post_change(gm_client, campaign, param_characteristic_points="200",
                           param_characteristic_max="40")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["param_characteristic_points"]
    assert "capped at 40 hold 120 at most" in errors["param_characteristic_points"][0]
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}
    # Not every point need be spent: then 200 is only a most.
    response = post_change(gm_client, campaign, param_characteristic_points="200",
                           param_characteristic_max="40", param_spend_all_points=False)
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {
        "characteristic_points": 200, "characteristic_max": 40, "spend_all_points": False}


@pytest.mark.parametrize(("system", "values", "field", "words"), [
    ("homebrew", {"characteristic_min": "60", "characteristic_max": "50"},
     "characteristic_min", "above the highest"),
    ("homebrew", {"characteristic_min": "60", "spend_all_points": False},
     "characteristic_points", "need 180"),
    ("ew1", {"pa_base": "1", "max_level": "5"}, "brawl_cost_pa", "PA cap of 1 at level 5"),
    ("ew1", {"daily_pa_cap": "1"}, "brawl_cost_pa", "daily PA cap (1)"),
    ("eclipse_phase", {"creation_aptitude_points": "300"}, "creation_aptitude_points",
     "35 to 210 points, not 300"),
    ("eclipse_phase", {"creation_aptitude_min": "40"}, "creation_aptitude_min",
     "above the highest"),
    ("eclipse_phase", {"superb_margin": "20"}, "superb_margin", "must be above the first"),
    ("eclipse_phase", {"walk_m": "30"}, "run_m", "at least as far as a walk"),
    ("eclipse_phase", {"low_gravity_g": "1.5"}, "low_gravity_g", "below high gravity"),
])
def test_parameters_that_read_each_other_are_checked_together(gm_client, system, values, field,
                                                              words):
    campaign = add_campaign(gm_client, rule_system=system)
    response = post_change(gm_client, campaign, **{"param_" + k: v for k, v in values.items()})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert words in " ".join(errors["param_" + field])
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}


def test_a_conflict_reads_in_french(gm_client):
    campaign = add_campaign(gm_client, rule_system="homebrew")
    data = change_data(gm_client, campaign, param_characteristic_points="200",
                       param_characteristic_max="40")
    response = gm_client.post(change_url(campaign), data, HTTP_ACCEPT_LANGUAGE="fr")
    message = response.context["adminform"].form.errors["param_characteristic_points"][0]
    assert "Aucun personnage ne pourrait être créé" in message and "120" in message


def test_the_model_refuses_a_conflict_too(db):
    from django.core.exceptions import ValidationError
    campaign = Campaign(name="X", rule_system="homebrew",
                        rule_parameters={"characteristic_points": 200, "characteristic_max": 40})
    with pytest.raises(ValidationError) as error:
        campaign.full_clean()
    assert "rule_parameters" in error.value.message_dict


def test_a_stored_conflict_still_plays_and_the_change_page_says_it(gm_client):
    """A value stored before the check (the old add page's characteristic_max 40): pages keep
    reading it; the change page shows it and refuses to save until it is fixed."""
    campaign = factories.campaign(name="Old")
    Campaign.objects.filter(pk=campaign.pk).update(
        rule_system="homebrew", rule_parameters={"characteristic_max": 40})
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert campaign.parameters.characteristic_max == 40
    response = post_change(gm_client, campaign)
    assert response.status_code == 200
    assert "param_characteristic_points" in response.context["adminform"].form.errors
    assert post_change(gm_client, campaign, param_characteristic_max="").status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}


# --- a change of system -------------------------------------------------------------------------

def test_a_change_of_system_saves_the_new_systems_defaults_and_shows_them(gm_client):
    campaign = add_campaign(gm_client, rule_system="ew1")
    assert post_change(gm_client, campaign, param_characteristic_max="30",
                       param_view_radius="3").status_code == 302
    response = post_change(gm_client, campaign, rule_system="homebrew",
                           param_characteristic_max="30")
    assert response.status_code == 302
    assert response["Location"] == change_url(campaign)  # on to the new parameters
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert (campaign.rule_system, campaign.rule_parameters) == ("homebrew", {})
    page = gm_client.get(change_url(campaign))
    assert param_fields(page) == ["param_" + r["name"] for r in rows("homebrew")]
    assert page.context["adminform"].form.fields["param_characteristic_max"].initial == 100


def test_a_stored_value_the_model_refuses_shows_above_the_form_never_500(gm_client):
    """A stored value no field shows (another system's name) is named above the form."""
    campaign = factories.campaign(name="Stale")
    Campaign.objects.filter(pk=campaign.pk).update(rule_parameters={"no_such_rule": 1})
    campaign = Campaign.objects.get(pk=campaign.pk)
    response = post_change(gm_client, campaign, rule_system="homebrew")
    assert response.status_code == 302  # a change of system stores the new defaults
    assert Campaign.objects.get(pk=campaign.pk).rule_parameters == {}
