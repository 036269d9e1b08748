import pytest

from campaigns.models import Campaign
from tests import factories


@pytest.mark.django_db
def test_lists_open_campaigns_only(api_as, alice):
    open_one = factories.campaign(name="Open", width=12, height=8)
    closed = factories.campaign(name="Closed")
    Campaign.objects.filter(pk=closed.pk).update(is_open=False)

    response = api_as(alice).get("/api/campaigns/")

    assert response.status_code == 200
    assert response.json() == [{
        "id": open_one.pk, "name": "Open", "description": "", "rule_system": "ew1",
        "rule_system_name": "Eternal War One II", "board": {"width": 12, "height": 8},
    }]


@pytest.mark.django_db
def test_campaign_without_board(api_as, alice):
    Campaign.objects.create(name="Boardless")

    [campaign] = api_as(alice).get("/api/campaigns/").json()

    assert campaign["board"] is None


@pytest.mark.django_db
def test_anonymous_refused(api):
    response = api.get("/api/campaigns/")

    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
