"""The homebrew API: creation with keyed refusals, the sheet, tests, posture, odds, rests."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from homebrew.models import HomebrewSheet
from tests.homebrew.conftest import SPREAD, in_view

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_create_answers_201_with_the_sheet(hb):
    response = api(hb.alice).post(f"/api/homebrew/campaigns/{hb.campaign.pk}/characters/",
                                  {"name": "Nova", "mp_label": "Cartridges",
                                   "characteristics": SPREAD}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["characteristics"] == SPREAD and body["mp_label"] == "Cartridges"
    assert (body["hp"], body["hp_max"], body["health"]) == (20, 20, "standing")


def test_create_refuses_the_budgets_with_codes_and_each_field(hb):
    bad = {**SPREAD, "perception": 51, "force": 4}
    response = api(hb.alice).post(f"/api/homebrew/campaigns/{hb.campaign.pk}/characters/",
                                  {"name": "Nova", "characteristics": bad}, format="json",
                                  HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_characteristics"
    assert [p["code"] for p in body["problems"]] == ["points_total", "sub_points"]
    assert set(body["errors"]) == {"*", "physique"}
    assert "1 de trop" in body["errors"]["*"][0]
    assert not HomebrewSheet.objects.filter(character__name="Nova").exists()


def test_create_refuses_unknown_fields_and_another_system(hb, campaign):
    client = api(hb.alice)
    response = client.post(f"/api/homebrew/campaigns/{hb.campaign.pk}/characters/",
                           {"name": "Nova", "characteristics": SPREAD, "hp_max": 99},
                           format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"
    response = client.post(f"/api/homebrew/campaigns/{campaign.pk}/characters/",
                           {"name": "Nova", "characteristics": SPREAD}, format="json")
    assert response.status_code == 404


def test_sheet_test_posture_and_odds(hb):
    client = api(hb.alice)
    assert client.get(f"/api/homebrew/characters/{hb.aria.pk}/").json()["name"] == "Aria"
    assert api(hb.bob).get(f"/api/homebrew/characters/{hb.aria.pk}/").status_code == 404
    test = client.post(f"/api/homebrew/characters/{hb.aria.pk}/test/", {"code": "mental"},
                       format="json").json()
    assert test["code"] == "mental" and test["target"] == 60
    refused = client.post(f"/api/homebrew/characters/{hb.aria.pk}/test/",
                          {"code": "mental", "difficulty": 30}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"
    posture = client.post(f"/api/homebrew/characters/{hb.aria.pk}/posture/",
                          {"posture": "defensive"}, format="json")
    assert posture.json()["posture"] == "defensive"
    HomebrewSheet.objects.filter(pk=hb.goblin.pk).update(posture="defensive")
    in_view(hb)  # the goblin fights Aria: her player may weigh her odds against it
    odds = client.get(f"/api/homebrew/characters/{hb.aria.pk}/odds/",
                      {"weapon": hb.fireball.pk, "target": hb.goblin.pk}).json()
    assert [line["reaction"] for line in odds["lines"]] == ["none", "dodge"]
    none = odds["lines"][0]
    assert none["hit"] == 60.0 and none["critical"] == 5.0
    # Aria is defensive: the fireball's 1d8 is rolled as 1d4, a critical 4 x 1.5 = 6.
    assert (none["damage_low"], none["damage_high"]) == (0, 6)


def test_the_gm_grants_a_rest_through_the_api(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=1, mp=0)
    response = api(hb.gm).post(f"/api/homebrew/campaigns/{hb.campaign.pk}/rest/",
                               {"kind": "short", "characters": [hb.aria.pk]}, format="json")
    assert response.status_code == 200
    assert response.json()["rested"] == [{"id": hb.aria.pk, "name": "Aria", "hp": 3, "mp": 1,
                                          "hp_gained": 2, "mp_gained": 1}]
    refused = api(hb.alice).post(f"/api/homebrew/campaigns/{hb.campaign.pk}/rest/",
                                 {"kind": "long"}, format="json")
    assert refused.status_code == 403
