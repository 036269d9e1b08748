"""Making a campaign from a page (campaigns.pages.campaign_new, /campaigns/new/): anyone signed
up, who becomes its game master; the chosen system's parameters shown at their defaults and
checked by the admin's code (campaigns.forms); bad input answered in words, nothing made."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.errors import CampaignNameTaken, Forbidden
from campaigns.models import Campaign
from campaigns.services import campaign_create
from tests.factories import UserFactory

HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/campaigns/new/"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def dana(db):
    return UserFactory(username="dana")


def form_data(client, system: str, **changes) -> dict:
    """What the page's form posts for ``system`` left at its defaults, with ``changes``."""
    form = client.get(URL, {"rule_system": system}).context["form"]
    data = {"name": "Les Ombres", "description": "", "rule_system": system,
            "is_open": "on", "enemy_state": "described", "parameters_of": system}
    for title, fields in form.groups():
        for field in fields:
            value = field.value()
            if value not in (None, False):
                data[field.html_name] = "on" if value is True else value
    data.update(changes)
    return data


def test_anonymous_goes_to_the_login(db):
    response = Client().get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_navigation_links_to_it(dana):
    page = client_of(dana).get(reverse("characters:list"))
    assert f'href="{URL}"' in page.content.decode()


def test_the_page_asks_the_system_first_then_shows_its_parameters_at_their_defaults(dana):
    client = client_of(dana)
    blank = client.get(URL).content.decode()
    assert 'name="param_' not in blank and 'value="homebrew"' in blank
    page = client.get(URL, {"rule_system": "homebrew"}).content.decode()
    assert 'name="param_characteristic_points"' in page and 'value="170"' in page
    assert 'name="param_view_radius"' not in page  # EW1's, not the homebrew's
    part = client.get(URL, {"rule_system": "ew1"}, **HTMX).content.decode()
    assert part.startswith('<div id="parameters"') and 'name="param_view_radius"' in part
    assert "<html" not in part


def test_a_new_campaign_has_its_maker_as_game_master_and_only_changed_values(dana):
    client = client_of(dana)
    response = client.post(URL, form_data(client, "homebrew",
                                          param_characteristic_points="160"))
    campaign = Campaign.objects.get(name="Les Ombres")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:gm", args=[campaign.pk])
    assert campaign.game_master == dana and campaign.rule_system == "homebrew"
    assert campaign.rule_parameters == {"characteristic_points": 160}
    screen = client.get(response["Location"])
    assert screen.status_code == 200 and "Les Ombres" in screen.content.decode()
    assert "/admin/" not in screen.content.decode().split("<main>")[1]  # dana is not staff
    assert 'data-testid="nav-gm"' in screen.content.decode()


def test_a_conflict_is_refused_in_the_readers_language_and_nothing_is_made(dana):
    client = client_of(dana)
    data = form_data(client, "homebrew", param_characteristic_points="200",
                     param_characteristic_max="40")
    response = client.post(URL, data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    message = response.context["form"].errors["param_characteristic_points"][0]
    assert "Aucun personnage ne pourrait être créé" in message
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(("changes", "field"), [
    ({"param_characteristic_points": "9999"}, "param_characteristic_points"),
    ({"param_characteristic_points": "abc"}, "param_characteristic_points"),
    ({"name": "Les\x00Ombres"}, "name"),
    ({"name": ""}, "name"),
    ({"description": "\x00"}, "description"),
    ({"enemy_state": "everything"}, "enemy_state"),
])
def test_bad_input_is_refused_with_words_and_nothing_is_made(dana, changes, field):
    client = client_of(dana)
    response = client.post(URL, form_data(client, "homebrew", **changes))
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not Campaign.objects.exists()


def test_an_unknown_system_or_a_taken_name_is_refused(dana):
    client = client_of(dana)
    unknown = client.post(URL, {"name": "X", "rule_system": "chess", "enemy_state": "exact",
                                "parameters_of": ""})
    assert unknown.status_code == 400 and unknown.context["form"].errors["rule_system"]
    Campaign.objects.create(name="Les Ombres", rule_system="ew1")
    taken = client.post(URL, form_data(client, "ew1"))
    assert taken.status_code == 400 and taken.context["form"].errors["name"]
    assert Campaign.objects.count() == 1


def test_a_system_changed_without_its_parameters_seen_shows_them_and_makes_nothing(dana):
    client = client_of(dana)
    data = form_data(client, "ew1", rule_system="homebrew")  # EW1's fields, homebrew chosen
    response = client.post(URL, data)
    page = response.content.decode()
    assert response.status_code == 200 and 'data-testid="parameters-unseen"' in page
    assert 'name="param_characteristic_points"' in page and 'value="170"' in page
    assert 'value="Les Ombres"' in page  # what was typed is kept
    assert not Campaign.objects.exists()


def test_query_counts_are_pinned(dana, django_assert_num_queries):
    client = client_of(dana)
    data = form_data(client, "homebrew")
    with django_assert_num_queries(2):  # the session, its user
        client.get(URL, {"rule_system": "homebrew"})
    # The session and its user, the name's uniqueness (the form's), the insert in its
    # savepoint, the session's save in its own.
    with django_assert_num_queries(9):
        client.post(URL, data)
    assert Campaign.objects.filter(game_master=dana).count() == 1


def test_the_service_refuses_a_stranger_to_the_site_and_a_name_taken_meanwhile(dana):
    inactive = UserFactory(username="gone", is_active=False)
    with pytest.raises(Forbidden):
        campaign_create(user=inactive, name="A", rule_system="ew1")
    campaign_create(user=dana, name="A", rule_system="ew1")
    with pytest.raises(CampaignNameTaken) as error:  # the check passed, the insert did not
        campaign_create(user=dana, name="A", rule_system="ew1")
    assert error.value.code == "campaign_name_taken"
    assert Campaign.objects.filter(name="A").count() == 1
