"""The game master sets the daily PA cap and the game day's time zone in the campaign admin
(issue 8, item 22): the zone is a validated text field, checked against zoneinfo."""

import pytest

from campaigns.models import Campaign
from tests import factories
from tests.admin.campaign_pages import add_campaign, change_url, post_change


@pytest.fixture
def gm_client(client, db):
    client.force_login(factories.user("gm", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def campaign(gm_client):
    return add_campaign(gm_client, rule_system="ew1")


def test_the_form_shows_both_parameters_with_their_defaults(gm_client, campaign):
    form = gm_client.get(change_url(campaign)).context["adminform"].form
    assert form.fields["param_daily_pa_cap"].initial == 24
    assert form.fields["param_game_day_time_zone"].initial == "UTC"


def test_gm_sets_a_cap_and_a_time_zone(gm_client, campaign):
    response = post_change(gm_client, campaign, param_daily_pa_cap="30",
                           param_game_day_time_zone="Europe/Paris")
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Nouvelle campagne")
    assert campaign.rule_parameters == {"daily_pa_cap": 30, "game_day_time_zone": "Europe/Paris"}
    assert campaign.parameters.game_day_time_zone == "Europe/Paris"


def test_an_empty_or_default_zone_stores_nothing(gm_client, campaign):
    for value in ("", "UTC"):
        response = post_change(gm_client, campaign, param_game_day_time_zone=value)
        assert response.status_code == 302
        assert Campaign.objects.get().rule_parameters == {}


@pytest.mark.parametrize(("field", "value"), [
    ("param_game_day_time_zone", "Mars/Olympus"), ("param_game_day_time_zone", "../../etc/passwd"),
    ("param_game_day_time_zone", "Paris"), ("param_daily_pa_cap", "1001"),
    ("param_daily_pa_cap", "-1"),
])
def test_a_bad_zone_or_cap_is_refused(gm_client, campaign, field, value):
    response = post_change(gm_client, campaign, **{field: value})
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert Campaign.objects.get().rule_parameters == {}
