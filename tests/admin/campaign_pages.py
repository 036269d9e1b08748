"""Driving the campaign admin as a game master does: the add page (the rule system first, no
parameter), then the change page with that system's parameters, each form posted as the
browser sends it (tests.admin.test_admin_add_forms.form_data: every field's shown value)."""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import Campaign
from tests.admin.test_admin_add_forms import form_data

ADD = "/admin/campaigns/campaign/add/"
BOARD_FORMS = {"board-TOTAL_FORMS": "1", "board-INITIAL_FORMS": "0", "board-MIN_NUM_FORMS": "0",
               "board-MAX_NUM_FORMS": "1", "board-0-width": "15", "board-0-height": "9"}


def change_url(campaign: Campaign) -> str:
    return reverse("admin:campaigns_campaign_change", args=[campaign.pk])


def add_response(client, *, rule_system: str = "ew1", name: str = "Nouvelle campagne",
                 board: bool = True, **fields):
    """The answer to the add page posted with ``rule_system``, ``name`` and ``fields`` (a
    board of 15 x 9 unless ``board`` is False), everything else left as shown."""
    page = client.get(ADD)
    data = form_data(page, name=name, rule_system=rule_system, **fields)
    if board:
        data.update(BOARD_FORMS)
    return client.post(ADD, data)


def add_campaign(client, *, rule_system: str = "ew1", name: str = "Nouvelle campagne",
                 **fields) -> Campaign:
    """A campaign added through the add page, which goes on to its change page."""
    response = add_response(client, rule_system=rule_system, name=name, **fields)
    assert response.status_code == 302, response.context and response.context["errors"]
    campaign = Campaign.objects.get(name=name)
    assert response["Location"] == change_url(campaign)
    return campaign


def change_data(client, campaign: Campaign, **overrides) -> dict:
    """The change page's form as shown, with ``overrides``: a value as typed, True to tick a
    box, False to untick it."""
    page = client.get(change_url(campaign))
    assert page.status_code == 200
    ticked = {k: "on" for k, v in overrides.items() if v is True}
    typed = {k: v for k, v in overrides.items() if not isinstance(v, bool)}
    data = form_data(page, **ticked, **typed)
    for name, value in overrides.items():
        if value is False:
            data.pop(name, None)
    return data


def post_change(client, campaign: Campaign, **overrides):
    """The change page posted with ``overrides`` (as ``change_data``)."""
    return client.post(change_url(campaign), change_data(client, campaign, **overrides))
