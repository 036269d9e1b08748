"""Creation through a draft: POST /api/drafts/, GET /api/drafts/{id}/, reroll, redistribute,
confirm."""

import random
import time
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from ew1.models import CharacterDraft
from gamerules.ew1.creation import steered_roll
from tests import factories
from tests.api.conftest import assert_refused, forced, snapshot

STATS = ["FOR", "DEF", "TAI", "INT", "DEX", "LUK"]


@pytest.fixture(autouse=True)
def frozen_limits(db, monkeypatch):
    """An empty rate-limit cache and django-ratelimit's clock stopped in the middle of a minute,
    so that a series of rerolls never straddles the window's edge."""
    cache.clear()
    now = (int(time.time()) // 60) * 60 + 30
    from django_ratelimit import core
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: now))
    yield
    cache.clear()


def expected_roll(reroll: int, seed: int = 1234) -> dict[str, int]:
    """What the services roll with ``seeded_dice`` (one fresh seeded generator per action)."""
    return steered_roll(random.Random(seed), reroll=reroll, band_sd=Decimal("1"),
                        band_step=Decimal("0.5")).values


def start(client, campaign, name="Nova"):
    return client.post("/api/drafts/", {"campaign": campaign.pk, "name": name}, format="json")


@pytest.fixture
def draft(campaign, alice, seeded_dice):
    response = start(forced(alice), campaign)
    assert response.status_code == 201, response.content
    return CharacterDraft.objects.get(pk=response.json()["id"])


def url(draft, step: str = "") -> str:
    return f"/api/drafts/{draft.pk}/" + (f"{step}/" if step else "")


# --- POST /api/drafts/ ------------------------------------------------------------------------

@pytest.mark.django_db
def test_start_a_draft(api_as, campaign, alice, seeded_dice):
    response = start(api_as(alice), campaign, name=" Nova ")

    assert response.status_code == 201
    body = response.json()
    draft = CharacterDraft.objects.get(pk=body["id"])
    rolled = expected_roll(0)
    assert (draft.user_id, draft.campaign_id, draft.name) == (alice.pk, campaign.pk, "Nova")
    assert body["name"] == "Nova"
    assert body["campaign"] == {"id": campaign.pk, "name": "Test campaign"}
    assert body["rolled"] == body["values"] == draft.rolled == rolled
    assert body["deltas"] == {} and body["total"] == sum(rolled.values())
    assert body["band"]["k"] == 1.0 and body["band"]["low"] <= body["total"] <= body["band"]["high"]
    assert body["band"]["attempts"] >= 1
    assert (body["rerolls"], body["rerolls_left"], body["rerolls_per_minute"]) == (0, 3, 3)
    assert 0 < body["window_seconds_left"] <= 60
    assert body["redistribution"] == {"total": 5, "each": 2}
    assert not Character.objects.exists()  # nothing incarnated yet


@pytest.mark.django_db
def test_starting_again_restarts_the_draft(campaign, alice, draft):
    client = forced(alice)
    client.post(url(draft, "reroll"))

    body = start(client, campaign, name="Other").json()

    # Starting over is a reroll: counted, and the band widens as for one.
    assert body["id"] == draft.pk and body["name"] == "Other" and body["rerolls"] == 2
    assert CharacterDraft.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("payload, field", [
    ({"name": "Zed"}, "campaign"), ({"campaign": 9999, "name": "Zed"}, "campaign"),
    ({"campaign": "{campaign}"}, "name"), ({"campaign": "{campaign}", "name": ""}, "name"),
    ({"campaign": "{campaign}", "name": "Zed", "rerolls": 0}, "rerolls"),
])
def test_start_refuses_malformed_payloads(campaign, alice, payload, field):
    payload = {k: campaign.pk if v == "{campaign}" else v for k, v in payload.items()}

    response = forced(alice).post("/api/drafts/", payload, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input" and field in response.json()["errors"]
    assert not CharacterDraft.objects.exists()


@pytest.mark.django_db
def test_start_in_a_closed_campaign(campaign, alice):
    Campaign.objects.filter(pk=campaign.pk).update(is_open=False)
    before = snapshot()

    assert_refused(start(forced(alice), campaign), 400, "campaign_closed", before)


@pytest.mark.django_db
def test_start_with_a_taken_name(campaign, alice, bob):
    factories.character(owner=bob, campaign=campaign, name="Nova")
    before = snapshot()

    assert_refused(start(forced(alice), campaign, name="NOVA"), 400, "invalid_input", before)


# --- GET /api/drafts/{id}/ --------------------------------------------------------------------

@pytest.mark.django_db
def test_read_a_draft(alice, draft):
    CharacterDraft.objects.filter(pk=draft.pk).update(deltas={"FOR": 2, "LUK": -2})

    body = forced(alice).get(url(draft)).json()

    assert body["rolled"] == draft.rolled
    assert body["deltas"] == {"FOR": 2, "LUK": -2}
    assert body["values"] == {**draft.rolled, "FOR": draft.rolled["FOR"] + 2,
                              "LUK": draft.rolled["LUK"] - 2}
    assert body["total"] == sum(draft.rolled.values())
    assert body["rerolls_left"] == 3


@pytest.mark.django_db
def test_read_a_draft_whose_limits_shrank_shows_the_rolled_values(campaign, alice, draft):
    CharacterDraft.objects.filter(pk=draft.pk).update(deltas={"FOR": 2, "LUK": -2})
    Campaign.objects.filter(pk=campaign.pk).update(
        rule_parameters={"redistribute_per_characteristic": 1})

    body = forced(alice).get(url(draft)).json()

    assert body["values"] == draft.rolled and body["redistribution"]["each"] == 1


@pytest.mark.django_db
def test_read_query_count(django_assert_num_queries, alice, draft):
    client = forced(alice)

    with django_assert_num_queries(1):  # the draft with its campaign and user (allowance key)
        assert client.get(url(draft)).status_code == 200


# --- POST /api/drafts/{id}/reroll/ ------------------------------------------------------------

@pytest.mark.django_db
def test_reroll(alice, draft, seeded_dice):
    seeded_dice(99)

    response = forced(alice).post(url(draft, "reroll"))

    assert response.status_code == 200
    body = response.json()
    assert body["rerolls"] == 1 and body["rerolls_left"] == 2
    assert body["band"]["k"] == 1.5
    assert body["rolled"] == body["values"] == expected_roll(1, seed=99)
    draft.refresh_from_db()
    assert (draft.rerolls, draft.rolled, draft.deltas) == (1, body["rolled"], {})


@pytest.mark.django_db
def test_reroll_clears_the_redistribution(alice, draft):
    CharacterDraft.objects.filter(pk=draft.pk).update(deltas={"FOR": 1, "DEX": -1})

    body = forced(alice).post(url(draft, "reroll")).json()

    assert body["deltas"] == {} and body["values"] == body["rolled"]


@pytest.mark.django_db
def test_rerolls_beyond_the_limit_answer_429(alice, draft):
    client = forced(alice)
    for left in (2, 1, 0):
        assert client.post(url(draft, "reroll")).json()["rerolls_left"] == left
    before = snapshot()

    response = client.post(url(draft, "reroll"))

    assert_refused(response, 429, "reroll_limited", before)
    assert 1 <= int(response["Retry-After"]) <= 60
    assert CharacterDraft.objects.get(pk=draft.pk).rerolls == 3
    assert client.get(url(draft)).json()["rerolls_left"] == 0


@pytest.mark.django_db
def test_the_limit_follows_the_campaign(alice, seeded_dice):
    campaign = factories.campaign(name="Strict", rerolls_per_minute=1)
    client = forced(alice)
    draft_id = start(client, campaign).json()["id"]

    first = client.post(f"/api/drafts/{draft_id}/reroll/")
    second = client.post(f"/api/drafts/{draft_id}/reroll/")

    assert first.status_code == 200 and first.json()["rerolls_left"] == 0
    assert second.status_code == 429 and second.json()["code"] == "reroll_limited"


@pytest.mark.django_db
def test_reroll_query_count(django_assert_num_queries, alice, draft):
    client = forced(alice)

    # savepoint, draft locked with its campaign and user, update, release
    with django_assert_num_queries(4):
        assert client.post(url(draft, "reroll")).status_code == 200


# --- POST /api/drafts/{id}/redistribute/ ------------------------------------------------------

@pytest.mark.django_db
def test_redistribute(alice, draft):
    response = forced(alice).post(url(draft, "redistribute"),
                                  {"deltas": {"FOR": 1, "DEX": -1, "INT": 0}}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["deltas"] == {"FOR": 1, "DEX": -1}
    assert body["values"]["FOR"] == draft.rolled["FOR"] + 1
    assert body["values"]["DEX"] == draft.rolled["DEX"] - 1
    assert body["total"] == sum(draft.rolled.values())
    assert CharacterDraft.objects.get(pk=draft.pk).deltas == {"FOR": 1, "DEX": -1}


@pytest.mark.django_db
def test_redistribute_replaces_the_earlier_points(alice, draft):
    client = forced(alice)
    client.post(url(draft, "redistribute"), {"deltas": {"FOR": 2, "DEX": -2}}, format="json")

    body = client.post(url(draft, "redistribute"), {"deltas": {}}, format="json").json()

    assert body["deltas"] == {} and body["values"] == draft.rolled


@pytest.mark.django_db
@pytest.mark.parametrize("deltas", [
    {"FOR": 3, "DEX": -3},  # 3 points on one characteristic
    {"FOR": 2, "DEX": 2, "INT": 2, "TAI": -2, "DEF": -2, "LUK": -2},  # 6 points moved
    {"FOR": 1},  # points created
    {"POU": 1, "FOR": -1},  # not a characteristic
], ids=["three-on-one", "six-moved", "not-zero-sum", "unknown"])
def test_redistribution_beyond_the_rules(alice, draft, deltas):
    CharacterDraft.objects.filter(pk=draft.pk).update(deltas={"FOR": 1, "DEX": -1})
    before = snapshot()

    response = forced(alice).post(url(draft, "redistribute"), {"deltas": deltas}, format="json")

    assert_refused(response, 400, "invalid_redistribution", before)


@pytest.mark.django_db
@pytest.mark.parametrize("payload", [
    {}, {"deltas": [1, -1]}, {"deltas": {"FOR": "one", "DEX": -1}}, {"deltas": {"FOR": 1.5}},
    {"deltas": {"FOR": None}}, {"deltas": {}, "confirm": True}, {"FOR": 1, "DEX": -1},
], ids=repr)
def test_redistribute_refuses_malformed_payloads(alice, draft, payload):
    before = snapshot()

    response = forced(alice).post(url(draft, "redistribute"), payload, format="json")

    assert_refused(response, 400, "invalid_input", before)


# --- POST /api/drafts/{id}/confirm/ -----------------------------------------------------------

@pytest.mark.django_db
def test_confirm_creates_the_character(api_as, campaign, alice, draft):
    client = api_as(alice)
    client.post(url(draft, "redistribute"), {"deltas": {"FOR": 2, "LUK": -1, "DEF": -1}},
                format="json")

    response = client.post(url(draft, "confirm"))

    assert response.status_code == 201
    body = response.json()
    character = Character.objects.select_related("ew1").get(pk=body["id"])
    values = {**draft.rolled, "FOR": draft.rolled["FOR"] + 2, "LUK": draft.rolled["LUK"] - 1,
              "DEF": draft.rolled["DEF"] - 1}
    assert (character.owner_id, character.campaign_id, character.name) == (
        alice.pk, campaign.pk, "Nova")
    assert character.ew1.characteristics == body["characteristics"] == values
    assert character.on_board and body["position"] == {"x": character.x, "y": character.y}
    assert (body["level"], body["pa"], body["pv"], body["protected"]) == (0, 12.0, 100, True)
    assert body["items"] == [] and body["skill_points"] == 0
    [created] = body["log"]
    assert created["kind"] == "create"
    assert created["summary"]["moved"] == {"FOR": 2, "LUK": -1, "DEF": -1}
    assert [r["label"] for r in created["rolls"]] == STATS
    assert not CharacterDraft.objects.exists()


@pytest.mark.django_db
def test_confirm_with_a_name_taken_since(campaign, alice, bob, draft):
    factories.character(owner=bob, campaign=campaign, name="nova")
    before = snapshot()

    assert_refused(forced(alice).post(url(draft, "confirm")), 400, "invalid_input", before)
    assert CharacterDraft.objects.filter(pk=draft.pk).exists()


@pytest.mark.django_db
def test_confirm_on_a_full_board(alice, bob, seeded_dice):
    tiny = factories.campaign(name="Tiny", width=1, height=1)
    factories.character(owner=bob, campaign=tiny, name="Squatter")
    draft_id = start(forced(alice), tiny).json()["id"]
    before = snapshot()

    response = forced(alice).post(f"/api/drafts/{draft_id}/confirm/")

    assert_refused(response, 400, "board_full", before)


# --- permissions ------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("method, step, payload", [
    ("get", "", None), ("post", "reroll", None),
    ("post", "redistribute", {"deltas": {"FOR": 1, "DEX": -1}}), ("post", "confirm", None),
])
def test_another_players_draft_looks_missing(alice, bob, draft, method, step, payload):
    client = forced(bob)
    before = snapshot()

    theirs = getattr(client, method)(url(draft, step), payload, format="json")
    missing = getattr(client, method)(url(CharacterDraft(pk=draft.pk + 100), step), payload,
                                      format="json")

    assert_refused(theirs, 404, "not_found", before)
    assert theirs.json() == missing.json() == {"code": "not_found", "detail": "No such draft."}
    assert not Character.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method, step", [
    ("post", None), ("get", ""), ("post", "reroll"), ("post", "redistribute"),
    ("post", "confirm"),
])
def test_anonymous_is_refused(api, draft, method, step):
    before = snapshot()
    path = "/api/drafts/" if step is None else url(draft, step)

    response = getattr(api, method)(path, {"deltas": {}}, format="json")

    assert_refused(response, 401, "not_authenticated", before)


@pytest.mark.django_db
@pytest.mark.parametrize("step", [None, "reroll", "redistribute", "confirm"])
def test_session_post_without_csrf_token_is_refused(api_as, alice, draft, step):
    client = api_as(alice, csrf=True)
    before = snapshot()
    path = "/api/drafts/" if step is None else url(draft, step)

    response = client.post(path, {"deltas": {}, "campaign": draft.campaign_id, "name": "X"},
                           format="json")

    assert_refused(response, 403, "permission_denied", before)
    assert response.json()["detail"].startswith("CSRF Failed")
    assert ActionRecord.objects.count() == 0
