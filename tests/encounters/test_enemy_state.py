"""The campaign's ``enemy_state`` (issue 21, item 2): what its players read of their enemies'
state, set by the GM from the game master's screen (encounters.services.enemy_state_set), and
the state hook every system plugs in (encounters.glance, hooks.register_combatant_state):
called once for the whole view, shown by one decision for every surface."""

from __future__ import annotations

import pytest

from campaigns.errors import NotFound
from campaigns.models import Campaign
from encounters import glance, hooks, services
from encounters.errors import EncounterInvalid
from tests import factories
from tests.encounters.conftest import SYSTEM
from tests.encounters.glance_reading import SURFACES, read

pytestmark = pytest.mark.django_db


def test_the_gm_sets_it_and_every_open_encounter_refreshes(table, django_assert_num_queries):
    other = services.encounter_create(user=table.gm, campaign_id=table.campaign.pk, name="Two")
    versions = {e.pk: e.version for e in (table.reload(), other)}
    # savepoint, the campaign locked, the encounters locked, their UPDATE, the campaign's, release
    with django_assert_num_queries(6):
        services.enemy_state_set(user=table.gm, campaign_id=table.campaign.pk, value="hidden")
    table.campaign.refresh_from_db()
    assert table.campaign.enemy_state == "hidden"
    other.refresh_from_db()
    assert other.version == versions[other.pk] + 1
    assert table.reload().version == versions[table.encounter.pk] + 1
    with django_assert_num_queries(3):  # unchanged: nothing bumped (savepoint, lock, release)
        services.enemy_state_set(user=table.gm, campaign_id=table.campaign.pk, value="hidden")


def test_only_the_gm_and_only_the_three_values(table):
    for who in (table.alice, factories.user("mallory")):
        with pytest.raises(NotFound):
            services.enemy_state_set(user=who, campaign_id=table.campaign.pk, value="exact")
    with pytest.raises(NotFound):
        services.enemy_state_set(user=table.gm, campaign_id=10**9, value="exact")
    with pytest.raises(EncounterInvalid) as refused:
        services.enemy_state_set(user=table.gm, campaign_id=table.campaign.pk, value="all")
    assert refused.value.code == "unknown_enemy_state"
    assert Campaign.objects.get(pk=table.campaign.pk).enemy_state == "described"  # the default


def test_the_gm_screen_offers_it_and_saves_it(client, table):
    client.force_login(table.gm)
    html = client.get(f"/campaigns/{table.campaign.pk}/gm/").content.decode()
    assert 'data-testid="enemy-state-form"' in html
    assert '<option value="described" selected>described in words</option>' in html
    response = client.post(f"/encounters/campaign/{table.campaign.pk}/enemy-state/",
                           {"value": "exact"}, follow=True)
    assert response.redirect_chain[-1][0] == f"/campaigns/{table.campaign.pk}/gm/"
    assert "The players&#x27; view of their enemies is saved." in response.content.decode()
    assert Campaign.objects.get(pk=table.campaign.pk).enemy_state == "exact"
    response = client.post(f"/encounters/campaign/{table.campaign.pk}/enemy-state/",
                           {"value": "bogus"}, follow=True)
    assert "is not a way to show enemies" in response.content.decode()
    client.cookies["django_language"] = "fr"
    html = client.get(f"/campaigns/{table.campaign.pk}/gm/").content.decode()
    assert "Ce que les joueurs lisent de l" in html and "état de leurs ennemis" in html
    assert "les chiffres exacts" in html


def test_a_player_cannot_post_it(client, table):
    client.force_login(table.alice)
    response = client.post(f"/encounters/campaign/{table.campaign.pk}/enemy-state/",
                           {"value": "exact"})
    assert response.status_code == 404
    assert Campaign.objects.get(pk=table.campaign.pk).enemy_state == "described"


def test_the_admin_form_has_it():
    from campaigns.forms import MAIN_FIELDS

    assert "enemy_state" in MAIN_FIELDS


@pytest.fixture
def test_states():
    """A state for the test system's combatants: HP 3 of 10 and a mark, counting its calls."""
    calls = []

    def states(combatants, *, encounter):
        calls.append([c.pk for c in combatants])
        return {c.pk: glance.State(
            (glance.Meter("hp", "HP", 3, 10, icon="health"),),
            (glance.Mark("stunned", "stunned"),), level="badly_wounded", bar="hp")
            for c in combatants}

    hooks.register_combatant_state(SYSTEM, states)
    yield calls
    hooks.unregister_combatant_state(SYSTEM)


@pytest.mark.parametrize("surface", SURFACES)
def test_a_system_without_a_state_hook_shows_none(client, table, surface):
    client.force_login(table.alice)
    assert read(client, surface, table.encounter.pk, table.c["Orc"].pk) is None
    assert read(client, surface, table.encounter.pk, table.c["Hero"].pk) is None


@pytest.mark.parametrize("setting", ["exact", "described", "hidden"])
@pytest.mark.parametrize("surface", SURFACES)
def test_the_hook_is_called_once_and_shown_by_side(client, table, test_states, surface,
                                                  setting):
    services.enemy_state_set(user=table.gm, campaign_id=table.campaign.pk, value=setting)
    client.force_login(table.bob)  # Brenna's player, Hero's ally, the Orc's enemy
    e = table.encounter.pk
    hero = read(client, surface, e, table.c["Hero"].pk)
    assert hero == {"detail": "exact", "level": "badly_wounded", "meters": {"hp"},
                    "marks": {"stunned"}}
    orc = read(client, surface, e, table.c["Orc"].pk)
    expected = {"exact": hero, "described": {"detail": "described", "level": "badly_wounded",
                                             "meters": set(), "marks": set()}, "hidden": None}
    assert orc == expected[setting]
    assert all(len(ids) == 3 for ids in test_states)  # one call, every combatant


def test_shown_decides_once(table):
    """encounters.glance.shown, the decision every surface reads."""
    state = glance.State((glance.Meter("hp", "HP", 3, 10),
                          glance.Meter("ammo", "Pistol", 2, 12, own_only=True)),
                         (), "wounded", bar="hp")
    orc, hero = table.c["Orc"], table.c["Hero"]
    gm = glance.Sides(gm=True)
    player = glance.Sides(gm=False, own=frozenset({"party"}), mine=frozenset({hero.pk}))
    ally = glance.Sides(gm=False, own=frozenset({"party"}), mine=frozenset({-1}))
    assert glance.shown(state, combatant=orc, sides=gm, setting="hidden").meters == state.meters
    assert glance.shown(state, combatant=hero, sides=player, setting="hidden").meters == \
        state.meters
    assert [m.key for m in glance.shown(state, combatant=hero, sides=ally,
                                        setting="hidden").meters] == ["hp"]
    assert glance.shown(state, combatant=orc, sides=player, setting="hidden") is None
    described = glance.shown(state, combatant=orc, sides=player, setting="described")
    assert described.as_json() == {"detail": "described", "level": "wounded",
                                   "label": "wounded", "meters": [], "marks": []}
    assert glance.shown(None, combatant=orc, sides=gm, setting="exact") is None
