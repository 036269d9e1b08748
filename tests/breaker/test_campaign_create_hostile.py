"""Making a campaign and naming co-game masters, as a hostile or careless user would
(campaigns.services.campaign_create, campaign_master_add and campaign_master_remove): bad
parameters, NUL characters, odd names, ids out of range. Each: a clear refusal, nothing made."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from campaigns.models import Campaign
from campaigns.services import campaign_create
from tests.factories import UserFactory
from tests.pages.test_campaign_new import form_data


@pytest.fixture
def dana(db):
    return UserFactory(username="dana")


@pytest.mark.parametrize(("system", "parameters"), [
    ("homebrew", {"characteristic_points": 10**30}),
    ("homebrew", {"characteristic_points": "abc"}),
    ("homebrew", {"characteristic_points": None}),
    ("homebrew", {"no_such_parameter": 1}),
    ("homebrew", {"bad\x00key": 1}),
    ("homebrew", {"characteristic_points": "1\x00"}),
    ("ew1", {"view_radius": -1}),
    ("ew1", {"view_radius": [1]}),
    ("ew1", {"view_radius": True}),
    ("ew1", ["view_radius"]),
    ("ew1", "view_radius"),
    ("ew1", 5),
    ("homebrew", {"characteristic_points": float("nan")}),
    ("homebrew", {"characteristic_points": 170.5}),
])
def test_bad_parameters_are_refused_and_nothing_is_made(dana, system, parameters):
    with pytest.raises(ValidationError):
        campaign_create(user=dana, name="Les Ombres", rule_system=system,
                        rule_parameters=parameters)
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("changes", [
    {"name": "Les\x00Ombres"},
    {"description": "a\x00b"},
    {"name": ""},
    {"name": "x" * 500},
    {"rule_system": "chess"},
    {"rule_system": "ew1\x00"},
    {"enemy_state": "everything"},
    {"enemy_state": None},
    {"is_open": "maybe"},
    {"name": None},
])
def test_bad_fields_are_refused_and_nothing_is_made(dana, changes):
    data = {"name": "Les Ombres", "rule_system": "ew1", **changes}
    with pytest.raises(ValidationError):
        campaign_create(user=dana, **data)
    assert not Campaign.objects.exists()


# --- the page ----------------------------------------------------------------------------

URL = "/campaigns/new/"
HTMX = {"HTTP_HX_REQUEST": "true"}


_posted = form_data  # what the page's form posts (tests/pages/test_campaign_new.py)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("changes", [
    {"param_game_day_time_zone": "Europe/Paris\x00"},
    {"param_game_day_time_zone": "../../etc/passwd"},
    {"param_game_day_time_zone": "/usr/share/zoneinfo/UTC"},
    {"param_game_day_time_zone": "localtime"},
    {"param_view_radius": "1e3"},
    {"param_view_radius": "-0"},
    {"param_view_radius": "9" * 400},
    {"param_view_radius": "\x00"},
])
def test_bad_ew1_parameters_on_the_page_are_refused_and_nothing_is_made(dana, changes):
    client = _client(dana)
    response = client.post(URL, _posted(client, "ew1", **changes))
    assert response.status_code == 400
    assert set(response.context["form"].errors) <= {f"param_{k[6:]}" for k in changes}
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("system", ["chess", "ew1\x00", "", "x" * 5000, "../homebrew"])
def test_the_parameters_part_of_an_unknown_system_shows_none(dana, system):
    part = _client(dana).get(URL, {"rule_system": system}, **HTMX)
    assert part.status_code == 200 and 'name="param_' not in part.content.decode()


def test_extra_and_missing_keys_keep_the_defaults(dana):
    client = _client(dana)
    data = _posted(client, "homebrew", param_no_such="5", param_characteristic_points="",
                   rule_parameters='{"characteristic_points": 1}', game_master="1")
    response = client.post(URL, data)
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert campaign.rule_parameters == {} and campaign.game_master == dana


def test_no_one_signed_in_makes_nothing(db):
    gone = UserFactory(username="gone", is_active=False)
    inactive = Client()
    inactive.force_login(gone)
    for client in (Client(), inactive):
        response = client.post(URL, {"name": "X", "rule_system": "homebrew",
                                     "parameters_of": "homebrew", "enemy_state": "described"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Campaign.objects.exists()
