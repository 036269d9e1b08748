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

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


# --- GET /api/campaigns/{id}/leaderboard/ -----------------------------------------------------

@pytest.fixture
def ranked(campaign, alice, bob):
    """Three player characters with distinct records, and a creature (never ranked)."""
    from characters.models import Character
    from ew1.models import EternalWarSheet
    from ew1.services import piece_create

    rows = {"Ann": (3, 1, 10, 2, 4, 450), "Bea": (5, 2, 7, 9, 2, 150), "Cid": (3, 0, 2, 1, 6, 700)}
    made = {}
    for i, (name, (kills, deaths, attacks, dodges, level, xp)) in enumerate(rows.items()):
        c = factories.character(owner=alice if i != 1 else bob, campaign=campaign, name=name,
                                at=(i, 0), level=level, xp=xp)
        Character.objects.filter(pk=c.pk).update(kills=kills, deaths=deaths, attacks=attacks,
                                                 dodges=dodges)
        made[name] = c
    wolf = piece_create(campaign=campaign, kind="creature", name="Wolf", x=9, y=9, pv=30,
                        fixed_reduction=2)
    Character.objects.filter(pk=wolf.pk).update(kills=99)
    EternalWarSheet.objects.filter(pk=wolf.pk).update(level=50)
    return made


def board_url(campaign, order=None):
    return f"/api/campaigns/{campaign.pk}/leaderboard/" + (f"?order={order}" if order else "")


@pytest.mark.django_db
def test_leaderboard(api_as, campaign, alice, ranked):
    response = api_as(alice).get(board_url(campaign))

    assert response.status_code == 200
    body = response.json()
    assert body["campaign"] == {"id": campaign.pk, "name": "Test campaign"}
    assert body["order"] == "kills"
    ann = ranked["Ann"]
    assert body["rows"][2] == {"rank": 3, "id": ann.pk, "name": "Ann", "player": "alice",
                               "level": 4, "xp": 450, "kills": 3, "deaths": 1, "attacks": 10,
                               "dodges": 2}
    # kills first, then fewer deaths
    assert [(r["rank"], r["name"]) for r in body["rows"]] == [(1, "Bea"), (2, "Cid"), (3, "Ann")]


@pytest.mark.django_db
@pytest.mark.parametrize("order, names", [
    ("kills", ["Bea", "Cid", "Ann"]), ("level", ["Cid", "Ann", "Bea"]),
    ("attacks", ["Ann", "Bea", "Cid"]), ("dodges", ["Bea", "Ann", "Cid"]),
    ("deaths", ["Bea", "Ann", "Cid"]),
])
def test_leaderboard_orders(api_as, campaign, alice, ranked, order, names):
    body = api_as(alice).get(board_url(campaign, order)).json()

    assert body["order"] == order
    assert [r["name"] for r in body["rows"]] == names


@pytest.mark.django_db
def test_leaderboard_with_an_empty_order_ranks_by_kills(api_as, campaign, alice, ranked):
    assert api_as(alice).get(board_url(campaign) + "?order=").json()["order"] == "kills"


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["wins", "KILLS", "-kills"])
def test_leaderboard_refuses_an_unknown_order(api_as, campaign, alice, order):
    response = api_as(alice).get(board_url(campaign) + f"?order={order}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input" and "order" in response.json()["errors"]


@pytest.mark.django_db
def test_leaderboard_of_a_missing_campaign(api_as, alice):
    response = api_as(alice).get("/api/campaigns/9999/leaderboard/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No such campaign."}


@pytest.mark.django_db
def test_leaderboard_anonymous_refused(api, campaign):
    response = api.get(board_url(campaign))

    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


@pytest.mark.django_db
@pytest.mark.parametrize("count", [2, 25])
def test_leaderboard_query_count(django_assert_num_queries, campaign, alice, count):
    from rest_framework.test import APIClient

    for i in range(count):
        factories.character(owner=alice, campaign=campaign, name=f"C{i}")
    client = APIClient()
    client.force_authenticate(alice)

    with django_assert_num_queries(2):  # the campaign; the ranked characters with owner, sheet
        response = client.get(board_url(campaign, "level"))

    assert len(response.json()["rows"]) == count
