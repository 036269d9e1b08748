"""Bad input on the encounter and homebrew surfaces (issue 11): digits that are not ASCII
("²".isdigit() is true, int("²") fails) and numbers beyond the columns' range were 500s; they are
refused (400 keyed JSON, or the page's error) and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from encounters.models import Combatant, EncounterEffect
from homebrew.models import HomebrewSheet
from tests.encounters.conftest import Table, register_test_system, unregister_test_system
from tests.homebrew.conftest import build_world

HUGE = "99999999999999999999"


@pytest.fixture
def table(db):
    register_test_system()
    yield Table()
    unregister_test_system()


def _gm_page(table):
    client = Client(raise_request_exception=False)
    client.force_login(table.gm)
    return client


@pytest.mark.parametrize(("step", "form"), [
    ("next/", {"turn": "²"}),
    ("delay/", {"turn": "1", "combatant": "²", "after": "1"}),
    ("add/", {"character": "²"}),
    ("order/", {"pos-1": "²"}),
    ("effects/", {"name": "Bless", "anchor": "1", "edge": "start", "rounds": HUGE}),
    ("effects/", {"name": "Bless", "anchor": HUGE, "edge": "start", "rounds": "1"}),
])
def test_encounter_pages_refuse_odd_numbers(table, step, form):
    table.start()
    before = (table.reload().version, Combatant.objects.count(), EncounterEffect.objects.count())
    response = _gm_page(table).post(f"/encounters/{table.encounter.pk}/{step}", form,
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"Invalid input." in response.content
    assert (table.reload().version, Combatant.objects.count(),
            EncounterEffect.objects.count()) == before


@pytest.mark.parametrize("entry", [{"name": "Rat", "tiebreak": 10**30},
                                   {"name": "Rat", "initiative": 10**30},
                                   {"name": "Rat", "position": -10**30},
                                   {"character": 10**30}])
def test_encounter_api_add_refuses_huge_numbers(table, entry):
    api = APIClient(raise_request_exception=False)
    api.force_login(table.gm)
    before = Combatant.objects.count()
    response = api.post(f"/api/encounters/{table.encounter.pk}/combatants/",
                        {"combatants": [entry]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert Combatant.objects.count() == before


@pytest.fixture
def hb(db, alice, bob):
    return build_world(alice, bob)


@pytest.mark.parametrize("query", ["weapon={huge}&target={goblin}",
                                   "weapon={sword}&target={huge}",
                                   "weapon={sword}&target={goblin}&difficulty={huge}"])
def test_homebrew_odds_refuse_huge_numbers(hb, query):
    api = APIClient(raise_request_exception=False)
    api.force_login(hb.alice)
    q = query.format(huge=HUGE, goblin=hb.goblin.pk, sword=hb.sword.pk)
    response = api.get(f"/api/homebrew/characters/{hb.aria.pk}/odds/?{q}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_homebrew_rest_refuses_huge_ids(hb):
    api = APIClient(raise_request_exception=False)
    api.force_login(hb.gm)
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=1)
    response = api.post(f"/api/homebrew/campaigns/{hb.campaign.pk}/rest/",
                        {"kind": "long", "characters": [hb.aria.pk, 10**30]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).hp == 1


def test_homebrew_test_page_refuses_a_huge_difficulty(hb):
    client = Client(raise_request_exception=False)
    client.force_login(hb.gm)
    before = hb.campaign.actions.count()
    response = client.post(f"/homebrew/characters/{hb.aria.pk}/test/",
                           {"code": "force", "difficulty": HUGE}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"Invalid input." in response.content
    assert hb.campaign.actions.count() == before


def test_homebrew_gauges_show_in_the_encounter_page(hb):
    """The registry's gauges template read ``view.character``, which an encounter's view does
    not have: the player page showed "HP /" with no numbers."""
    from encounters import services

    encounter = services.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    services.combatants_add(user=hb.gm, encounter_id=encounter.pk, entries=[
        services.CombatantEntry(character_id=hb.aria.pk)])
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=13)
    client = Client()
    client.force_login(hb.alice)
    page = client.get(f"/encounters/{encounter.pk}/").content.decode()
    assert 'data-key="hp" title="HP 13/20"' in page  # the state at a glance (encounters.glance)


def test_a_player_ending_a_turn_the_gm_just_ended_is_told_it_moved_on(table):
    """Pressed at the same moment as the GM: the player's "end my turn" came second and was
    answered 403 not_game_master (the turn was no longer theirs) instead of 409."""
    e = table.start(mode="gm")
    while table.reload().current.character is None or table.reload().current.character.owner \
            is None:
        e = table.next()
    player, seen = e.current.character.owner, e.turn_serial
    table.next()
    api = APIClient()
    api.force_login(player)
    response = api.post(f"/api/encounters/{e.pk}/next/", {"turn": seen}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "turn_already_advanced"
    assert table.reload().turn_serial == seen + 1
