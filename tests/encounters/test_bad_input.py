"""Bad input on the encounter's steps, found by a breaker: each is refused with a clear, keyed
error and nothing changes (no 500, no silent clamp, no step on an ended encounter)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from characters.models import Character
from encounters import services
from encounters.errors import EncounterConflict, EncounterForbidden, EncounterInvalid
from encounters.models import Combatant, Encounter, EncounterEffect
from gamerules.encounter.errors import InvalidDuration, OrderError
from gamerules.errors import RuleError
from homebrew.models import HomebrewSheet
from tests.encounters.conftest import Table
from tests.factories import PASSWORD
from tests.homebrew.conftest import build_world

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def rows(encounter):
    e = Encounter.objects.get(pk=encounter.pk)
    return (e.state, e.version, e.round, e.turn_serial, e.current_id,
            list(Combatant.objects.filter(encounter=e).order_by("pk").values()),
            list(EncounterEffect.objects.filter(encounter=e).order_by("pk").values()),
            Character.objects.count())


# --- the start's order mode -------------------------------------------------------------------

def test_a_start_with_an_unknown_mode_is_refused_not_a_500(client, table):
    before = rows(table.encounter)
    with pytest.raises(RuleError) as refused:
        services.encounter_start(user=table.gm, encounter_id=table.encounter.pk, mode="bogus")
    assert refused.value.key == "unknown_order_mode"
    response = login(client, table.gm).post(f"/encounters/{table.encounter.pk}/start/",
                                            {"page": "control", "mode": "bogus"}, **HTMX)
    assert response.status_code == 200 and 'data-testid="error"' in response.content.decode()
    assert rows(table.encounter) == before


# --- effects: bounded rounds, an anchor in play ---------------------------------------------

@pytest.mark.parametrize("rounds", [1001, 40000, 2**31 - 1])
def test_an_effect_past_1000_rounds_is_refused_on_every_surface(client, table, rounds):
    table.start()
    before = rows(table.encounter)
    hero = table.c["Hero"].pk
    with pytest.raises(InvalidDuration) as refused:
        services.effect_add(user=table.gm, encounter_id=table.encounter.pk, name="Curse",
                            anchor_id=hero, edge="start", rounds=rounds)
    assert refused.value.key == "duration_too_long" and refused.value.params["most"] == 1000
    response = login(client, table.gm).post(
        f"/encounters/{table.encounter.pk}/effects/",
        {"page": "control", "name": "Curse", "anchor": hero, "edge": "start",
         "rounds": rounds}, **HTMX)
    assert response.status_code == 200 and "at most 1000 rounds" in response.content.decode()
    assert rows(table.encounter) == before


def test_1000_rounds_is_the_longest_effect(table):
    table.start()
    effect = services.effect_add(user=table.gm, encounter_id=table.encounter.pk, name="Long",
                                 anchor_id=table.c["Hero"].pk, edge="start", rounds=1000)
    assert (effect.rounds, effect.expires_round) == (1000, 1001)


@pytest.mark.parametrize("role", ["anchor", "bearer"])
def test_an_effect_on_a_removed_combatant_is_refused(table, role):
    """A removed combatant takes no turn: an effect anchored there would never end."""
    table.start()
    orc = table.c["Orc"].pk
    services.combatant_remove(user=table.gm, encounter_id=table.encounter.pk, combatant_id=orc)
    before = rows(table.encounter)
    ids = {"anchor_id": orc} if role == "anchor" else {"anchor_id": table.c["Hero"].pk,
                                                        "bearer_id": orc}
    with pytest.raises(OrderError) as refused:
        services.effect_add(user=table.gm, encounter_id=table.encounter.pk, name="Stuck",
                            edge="end", rounds=2, **ids)
    assert refused.value.key == "not_in_order"
    assert rows(table.encounter) == before


# --- an ended encounter takes no more steps ---------------------------------------------------

def _ended(table):
    table.start()
    services.encounter_end(user=table.gm, encounter_id=table.encounter.pk)
    return table.reload()


@pytest.mark.parametrize("step", ["order", "remove", "readd", "switch", "effect"])
def test_an_ended_encounter_refuses_the_gm_steps(table, step):
    e = _ended(table)
    hero, brenna, orc = (table.c[n].pk for n in ("Hero", "Brenna", "Orc"))
    if step == "readd":
        Combatant.objects.filter(pk=orc).update(removed=True, rank=None)
    before = rows(e)
    calls = {
        "order": lambda: services.encounter_set_order(user=table.gm, encounter_id=e.pk,
                                                      combatant_ids=[orc, brenna, hero]),
        "remove": lambda: services.combatant_remove(user=table.gm, encounter_id=e.pk,
                                                    combatant_id=orc),
        "readd": lambda: services.combatant_readd(user=table.gm, encounter_id=e.pk,
                                                  combatant_id=orc),
        "switch": lambda: services.combatant_update(user=table.gm, encounter_id=e.pk,
                                                    combatant_id=orc, defeated=True),
        "effect": lambda: services.effect_add(user=table.gm, encounter_id=e.pk, name="Late",
                                              anchor_id=hero, edge="start", rounds=1),
    }
    with pytest.raises(EncounterConflict) as refused:
        calls[step]()
    assert refused.value.code == "encounter_ended" and refused.value.status == 409
    assert rows(e) == before


def test_the_api_refuses_an_order_on_an_ended_encounter(table):
    e = _ended(table)
    api = APIClient()
    api.force_authenticate(table.gm)
    ids = [table.c[n].pk for n in ("Orc", "Brenna", "Hero")]
    before = rows(e)
    response = api.post(f"/api/encounters/{e.pk}/order/", {"combatants": ids}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "encounter_ended"
    assert rows(e) == before


# --- a player posting the GM's steps: 403, as for the others ----------------------------------

@pytest.mark.parametrize("path, data", [("end/", {}), ("combatants/", {"combatants": [
    {"name": "Spy"}]})])
def test_a_player_of_the_encounter_gets_403_on_end_and_add(table, path, data):
    api = APIClient()
    api.force_authenticate(table.alice)
    before = rows(table.encounter)
    response = api.post(f"/api/encounters/{table.encounter.pk}/{path}", data, format="json")
    assert response.status_code == 403 and response.json()["code"] == "not_game_master"
    assert rows(table.encounter) == before
    with pytest.raises(EncounterForbidden):
        services.encounter_end(user=table.alice, encounter_id=table.encounter.pk)


# --- how many, turns a round: refused out of range, as the API does ---------------------------

@pytest.mark.parametrize("field, value, key", [
    ("count", "-5", "count_at_least_one"), ("count", "0", "count_at_least_one"),
    ("count", "51", "too_many_combatants"), ("turns", "0", "turns_per_round_range"),
    ("turns", "-3", "turns_per_round_range"), ("turns", "11", "turns_per_round_range"),
    ("count", "x", "invalid_input"), ("turns", "1.5", "invalid_input")])
def test_the_page_refuses_counts_and_turns_out_of_range(client, table, field, value, key):
    before = rows(table.encounter)
    response = login(client, table.gm).post(
        f"/encounters/{table.encounter.pk}/add/",
        {"page": "control", "name": "Extra", field: value}, **HTMX)
    assert response.status_code == 200 and 'data-testid="error"' in response.content.decode()
    assert rows(table.encounter) == before
    if key != "invalid_input":
        entry = {"count": int(value)} if field == "count" else {"turns_per_round": int(value)}
        with pytest.raises(EncounterInvalid) as refused:
            services.combatants_add(user=table.gm, encounter_id=table.encounter.pk,
                                    entries=[services.CombatantEntry(name="Extra", **entry)])
        assert refused.value.code == key


def test_ten_turns_a_round_and_fifty_at_once_are_the_bounds(table):
    made = services.combatants_add(user=table.gm, encounter_id=table.encounter.pk, entries=[
        services.CombatantEntry(name="Swarm", count=49),
        services.CombatantEntry(name="Quick", turns_per_round=10)])
    assert len(made) == 50 and made[-1].turns_per_round == 10


# --- copies of a creature with a long name ----------------------------------------------------

def test_copies_with_a_long_name_fit_the_name_column(alice, bob):
    hb = build_world(alice, bob)
    e = services.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    long = "G" * 70
    made = services.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        services.CombatantEntry(template_id=hb.goblin.pk, name=long, count=12)])
    names = [m.name for m in made]
    assert names[0] == "G" * 58 + " 1" and names[-1] == "G" * 57 + " 12"
    assert all(len(n) <= 60 for n in names)
    assert sorted(Character.objects.filter(campaign=hb.campaign, name__startswith="GGG")
                  .values_list("name", flat=True)) == sorted(names)
    # The next ones take the next free numbers, however their names were cut.
    more = services.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        services.CombatantEntry(template_id=hb.goblin.pk, name=long, count=1)])
    assert more[0].name == "G" * 57 + " 13"
    assert HomebrewSheet.objects.filter(character__name__startswith="GGG").count() == 13


def test_a_template_named_with_60_characters_is_copied(alice, bob):
    hb = build_world(alice, bob)
    Character.objects.filter(pk=hb.goblin.pk).update(name="W" * 60)
    e = services.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    made = services.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        services.CombatantEntry(template_id=hb.goblin.pk, count=2)])
    assert [m.name for m in made] == ["W" * 58 + " 1", "W" * 58 + " 2"]


@pytest.fixture
def table(db):
    return Table()


def test_a_player_cannot_delay_behind_a_hidden_combatant(table, unchanged):
    """A hidden combatant does not exist for the players: delaying behind it is refused as a
    wrong id would be (nothing tells its id exists); the GM may."""
    Combatant.objects.filter(pk=table.c["Orc"].pk).update(hidden=True)
    e = table.start()
    hero, orc = table.c["Hero"].pk, table.c["Orc"].pk
    with unchanged(), pytest.raises(EncounterInvalid) as refused:
        services.encounter_delay(user=table.alice, encounter_id=e.pk, combatant_id=hero,
                                 after_id=orc, turn=e.turn_serial)
    assert refused.value.code == "no_such_combatant"
    services.encounter_delay(user=table.gm, encounter_id=e.pk, combatant_id=hero, after_id=orc,
                             turn=e.turn_serial)
    assert table.current_name() == "Brenna"


def test_the_page_adds_a_chosen_character_with_the_turns_a_round_asked(client, table):
    ogre = Character.objects.create(campaign=table.campaign, name="Ogre",
                                    kind=Character.Kind.CREATURE)
    response = login(client, table.gm).post(
        f"/encounters/{table.encounter.pk}/add/",
        {"page": "control", "character": [ogre.pk], "turns": "2"}, **HTMX)
    assert response.status_code == 200 and 'data-testid="error"' not in response.content.decode()
    assert Combatant.objects.get(character=ogre).turns_per_round == 2


def test_the_page_says_what_to_choose_when_nothing_is_chosen(client, table):
    before = rows(table.encounter)
    response = login(client, table.gm).post(
        f"/encounters/{table.encounter.pk}/add/", {"page": "control", "name": " "}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "A combatant needs a character or a name." in html
    assert "Invalid input." not in html
    assert rows(table.encounter) == before
