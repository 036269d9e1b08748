"""The magic REST API: the spellbook, answering the offer, casting. The views call the services
the pages call; a refusal is a 4xx ``{code, detail}`` and changes nothing."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign
from ew1.models import EternalWarSheet
from magic.models import ActiveEffect, KnownSpell, SpellOffer
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.magic.conftest import DEF_FAIL, DEF_OK, TEN_NAMES, fetch, snapshot, teach

HIT = 55


def spells_url(c):
    return f"/api/characters/{c.pk}/spells/"


def offer_url(c):
    return f"/api/characters/{c.pk}/spells/offer/"


def cast_url(c):
    return f"/api/characters/{c.pk}/cast/"


def refused(response, status, code, before):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"]
    assert snapshot() == before
    return body


@pytest.fixture
def scripted(monkeypatch):
    """The next cast rolls these faces (``random.SystemRandom`` is replaced for the test)."""
    def script(*faces):
        monkeypatch.setattr("magic.casting.random.SystemRandom", lambda: FakeRandom(*faces))
    return script


@pytest.fixture
def leveled(mage, spells):
    """A level 2 mage who knows Soin and Boule de feu, with a Bouclier on."""
    EternalWarSheet.objects.filter(pk=mage.pk).update(level=2, xp=101)
    teach(mage, spells["Soin"], spells["Boule de feu"])
    return mage


# --- GET spells ----------------------------------------------------------------------------------

def test_the_spellbook(api_as, alice, leveled, spells):
    from datetime import timedelta

    from django.utils import timezone

    until = timezone.now() + timedelta(hours=3)
    ActiveEffect.objects.create(target=leveled, caster=leveled, spell=spells["Bouclier"],
                                amount=3, expires_at=until)

    response = api_as(alice).get(spells_url(leveled))

    assert response.status_code == 200
    body = response.json()
    assert body["character"] == {"id": leveled.pk, "name": "Mage"}
    assert body["size"] == 10
    assert [k["spell"]["name"] for k in body["spells"]] == ["Boule de feu", "Soin"]
    assert body["spells"][0] == {
        "spell": {"id": spells["Boule de feu"].pk, "name": "Boule de feu", "tier": "base",
                  "effect": "damage", "dice": "1d6+1", "range_cells": 5, "zone_radius": 0,
                  "reach": "everyone", "duration_hours": 0},
        "source": "granted", "learned_at": "2025-03-01T12:00:00Z"}
    [effect] = body["effects"]
    assert (effect["spell"], effect["amount"], effect["caster"]) == (
        {"id": spells["Bouclier"].pk, "name": "Bouclier"}, 3, leveled.pk)
    offer = body["offer"]
    assert (offer["level"], offer["chosen"], offer["resolved_at"]) == (1, None, None)
    assert len(offer["spells"]) == 5
    assert not {s["name"] for s in offer["spells"]} & {"Soin", "Boule de feu", "Secret",
                                                      "Foreign"}


def test_the_api_and_the_page_show_the_same_stored_offer(api_as, alice, leveled):
    from django.test import Client

    first = api_as(alice).get(spells_url(leveled)).json()["offer"]
    page = Client()
    page.force_login(alice)
    html = page.get(f"/characters/{leveled.pk}/spells/").content.decode()
    again = api_as(alice).get(spells_url(leveled)).json()["offer"]

    assert again == first
    assert all(f'data-testid="offer-{s["name"]}"' in html for s in first["spells"])
    assert SpellOffer.objects.count() == 1


def test_no_offer_at_level_0(api_as, alice, mage):
    assert api_as(alice).get(spells_url(mage)).json()["offer"] is None


# --- POST spells/offer ---------------------------------------------------------------------------

def test_learning_from_the_offer(api_as, alice, leveled):
    client = api_as(alice)
    offer = client.get(spells_url(leveled)).json()["offer"]
    pick = offer["spells"][0]

    response = client.post(offer_url(leveled), {"offer": offer["id"], "spell": pick["id"]},
                           format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["answered"]["id"] == offer["id"]
    assert body["answered"]["chosen"] == {"id": pick["id"], "name": pick["name"]}
    assert body["answered"]["resolved_at"] is not None
    assert pick["name"] in [k["spell"]["name"] for k in body["spellbook"]["spells"]]
    assert body["spellbook"]["offer"]["level"] == 2
    assert KnownSpell.objects.get(character=leveled, spell_id=pick["id"]).source == "level_up"


def test_declining_the_offer(api_as, alice, leveled):
    client = api_as(alice)
    offer = client.get(spells_url(leveled)).json()["offer"]

    response = client.post(offer_url(leveled), {"offer": offer["id"], "spell": None},
                           format="json")

    assert response.status_code == 200
    assert response.json()["answered"]["chosen"] is None
    assert KnownSpell.objects.filter(character=leveled).count() == 2


def test_replacing_a_spell_of_a_full_book(api_as, alice, leveled, spells):
    teach(leveled, *(spells[n] for n in TEN_NAMES if n not in ("Soin", "Boule de feu")))
    client = api_as(alice)
    offer = client.get(spells_url(leveled)).json()["offer"]
    pick = offer["spells"][0]["id"]
    before = snapshot()

    full = client.post(offer_url(leveled), {"offer": offer["id"], "spell": pick}, format="json")
    refused(full, 400, "spellbook_full", before)

    response = client.post(offer_url(leveled), {"offer": offer["id"], "spell": pick,
                                                "replace": spells["Soin"].pk}, format="json")
    assert response.status_code == 200
    names = {k["spell"]["name"] for k in response.json()["spellbook"]["spells"]}
    assert len(names) == 10 and "Soin" not in names


def test_answering_twice_is_refused(api_as, alice, leveled):
    client = api_as(alice)
    offer = client.get(spells_url(leveled)).json()["offer"]
    client.post(offer_url(leveled), {"offer": offer["id"], "spell": None}, format="json")
    client.get(spells_url(leveled))  # the next offer is drawn
    before = snapshot()

    response = client.post(offer_url(leveled), {"offer": offer["id"], "spell": None},
                           format="json")

    refused(response, 400, "invalid_offer", before)


def test_a_spell_outside_the_offer_is_refused(api_as, alice, leveled, spells):
    client = api_as(alice)
    offer = client.get(spells_url(leveled)).json()["offer"]
    outside = next(s for s in spells.values()
                   if s.pk not in {o["id"] for o in offer["spells"]})
    before = snapshot()

    response = client.post(offer_url(leveled), {"offer": offer["id"], "spell": outside.pk},
                           format="json")

    refused(response, 400, "invalid_offer", before)


@pytest.mark.parametrize("payload, field", [
    ({"spell": None}, "offer"),
    ({"offer": 1}, "spell"),
    ({"offer": "one", "spell": None}, "offer"),
    ({"offer": 1, "spell": None, "extra": 1}, "extra"),
])
def test_a_malformed_answer_is_refused(api_as, alice, leveled, payload, field):
    client = api_as(alice)
    client.get(spells_url(leveled))
    before = snapshot()

    response = client.post(offer_url(leveled), payload, format="json")

    body = refused(response, 400, "invalid_input", before)
    assert field in body["errors"]


def test_a_missing_offer_is_not_found(api_as, alice, leveled):
    before = snapshot()
    response = api_as(alice).post(offer_url(leveled), {"offer": 999, "spell": None},
                                  format="json")
    refused(response, 404, "not_found", before)


# --- POST cast -----------------------------------------------------------------------------------

def test_casting_returns_the_action_with_its_rolls_and_targets(api_as, alice, leveled, foe,
                                                               spells, scripted):
    scripted(HIT, 5, DEF_FAIL, DEF_OK, DEF_FAIL)

    response = api_as(alice).post(cast_url(leveled), {"spell": spells["Boule de feu"].pk,
                                                      "x": 6, "y": 5}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["action"]["kind"] == "cast" and body["action"]["cost"] == 2
    assert body["action"]["target"] == {"id": foe.pk, "name": "Foe"}
    assert [r["label"] for r in body["action"]["rolls"]] == [
        "cast", "spell_power", "damage_reduction", "damage_reduction", "damage_reduction"]
    assert body["outcome"] == {
        "spell": "Boule de feu", "effect": "damage", "cell": [6, 5], "roll": HIT, "score": 55,
        "success": True, "power": 6, "xp": 10,
        "targets": [{"id": foe.pk, "name": "Foe", "reduction": 2, "pv_lost": 4, "pv": 96}]}
    assert body["character"]["id"] == leveled.pk
    assert body["character"]["xp"] == 111
    assert fetch(foe).ew1.pv == 96


def test_a_heal_and_a_shield_report_their_own_fields(api_as, alice, leveled, spells, scripted):
    teach(leveled, spells["Bouclier"])
    EternalWarSheet.objects.filter(pk=leveled.pk).update(pv=50, pv_anchor=2**40)  # no regen
    client = api_as(alice)
    client.get(spells_url(leveled))  # draws the offer before the dice are scripted

    scripted(HIT, 3)
    heal = client.post(cast_url(leveled), {"spell": spells["Soin"].pk, "x": 5, "y": 5},
                       format="json").json()
    scripted(HIT, 3)
    shield = client.post(cast_url(leveled), {"spell": spells["Bouclier"].pk, "x": 5, "y": 5},
                         format="json").json()

    assert heal["outcome"]["targets"] == [{"id": leveled.pk, "name": "Mage", "healed": 4,
                                           "pv": 54}]
    [target] = shield["outcome"]["targets"]
    assert target["shield"] == 4 and target["until"]
    assert client.get(spells_url(leveled)).json()["effects"][0]["amount"] == 4


@pytest.mark.parametrize("payload, status, code", [
    ({"spell": "Météore", "x": 6, "y": 5}, 400, "spell_unknown"),
    ({"spell": "Boule de feu", "x": 11, "y": 5}, 400, "out_of_range"),
    ({"spell": "Boule de feu", "x": 7, "y": 7}, 400, "invalid_target"),
    ({"spell": "Boule de feu", "x": -1, "y": 5}, 400, "off_board"),
    ({"spell": "Boule de feu", "x": 6}, 400, "invalid_input"),
    ({"spell": "Boule de feu", "x": 6, "y": 5, "dx": 1}, 400, "invalid_input"),
    ({"spell": 0, "x": 6, "y": 5}, 400, "invalid_input"),
])
def test_a_refused_cast_changes_nothing(api_as, alice, leveled, foe, spells, payload, status,
                                        code):
    payload = {**payload}
    if isinstance(payload["spell"], str):
        payload["spell"] = spells[payload["spell"]].pk
    before = snapshot()

    response = api_as(alice).post(cast_url(leveled), payload, format="json")

    refused(response, status, code, before)


def test_a_cast_without_pa_is_refused(api_as, alice, leveled, foe, spells):
    EternalWarSheet.objects.filter(pk=leveled.pk).update(pa=1, pa_anchor=2**40)  # no regen
    before = snapshot()

    response = api_as(alice).post(cast_url(leveled), {"spell": spells["Boule de feu"].pk,
                                                      "x": 6, "y": 5}, format="json")

    refused(response, 400, "not_enough_pa", before)


# --- permissions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method, url, payload", [
    ("get", spells_url, None),
    ("post", offer_url, {"offer": 1, "spell": None}),
    ("post", cast_url, {"spell": 1, "x": 6, "y": 5}),
])
def test_another_players_character_is_not_found(api_as, bob, leveled, method, url, payload):
    before = snapshot()
    response = getattr(api_as(bob), method)(url(leveled), payload, format="json")
    refused(response, 404, "not_found", before)


@pytest.mark.parametrize("role", ["game_master", "staff"])
@pytest.mark.parametrize("method, url, payload", [
    ("get", spells_url, None),
    ("post", offer_url, {"offer": 1, "spell": None}),
    ("post", cast_url, {"spell": 1, "x": 6, "y": 5}),
])
def test_readers_who_do_not_own_the_character_may_not_play_it(campaign, leveled, role, method,
                                                               url, payload):
    reader = factories.user("reader", is_staff=(role == "staff"))
    if role == "game_master":
        Campaign.objects.filter(pk=campaign.pk).update(game_master=reader)
    client = APIClient()
    client.force_authenticate(reader)
    before = snapshot()
    response = getattr(client, method)(url(leveled), payload, format="json")
    refused(response, 403, "forbidden", before)


@pytest.mark.parametrize("method, url, payload", [
    ("get", spells_url, None),
    ("post", offer_url, {"offer": 1, "spell": None}),
    ("post", cast_url, {"spell": 1, "x": 6, "y": 5}),
])
def test_anonymous_is_refused(api, leveled, method, url, payload):
    before = snapshot()
    response = getattr(api, method)(url(leveled), payload, format="json")
    refused(response, 401, "not_authenticated", before)


@pytest.mark.parametrize("url, payload", [
    (offer_url, {"offer": 1, "spell": None}),
    (cast_url, {"spell": 1, "x": 6, "y": 5}),
])
def test_a_session_post_without_csrf_is_refused(api_as, alice, leveled, foe, url, payload):
    before = snapshot()
    response = api_as(alice, csrf=True).post(url(leveled), payload, format="json")
    refused(response, 403, "permission_denied", before)


# --- the schema ----------------------------------------------------------------------------------

MAGIC_PATHS = {
    "/api/characters/{character_id}/spells/": "get",
    "/api/characters/{character_id}/spells/offer/": "post",
    "/api/characters/{character_id}/cast/": "post",
}


def test_the_schema_documents_the_magic_endpoints(api):
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    for path, method in MAGIC_PATHS.items():
        assert set(schema["paths"][path]) == {method}
    cast = schema["paths"]["/api/characters/{character_id}/cast/"]["post"]
    assert cast["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/Cast")
    assert {"200", "400", "403", "404"} <= set(cast["responses"])
    offer = schema["components"]["schemas"]["OfferAnswer"]
    assert offer["properties"]["spell"]["nullable"] is True


@pytest.mark.django_db
def test_the_schema_endpoint_still_answers(api):
    response = api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert set(MAGIC_PATHS) <= set(response.json()["paths"])


# --- pinned query counts -------------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 10])
def test_spellbook_queries(leveled, spells, count, django_assert_num_queries):
    from tests.api.conftest import forced

    KnownSpell.objects.filter(character=leveled).delete()
    teach(leveled, *(spells[n] for n in TEN_NAMES[:count]))
    client = forced(leveled.owner)
    client.get(spells_url(leveled))  # the offer is drawn once

    # The character with campaign, board, sheet and owner; savepoint, the answered levels, the
    # stored offer, release; the spellbook; the active effects; the offer's spells.
    with django_assert_num_queries(8):
        response = client.get(spells_url(leveled))

    assert len(response.json()["spells"]) == count
