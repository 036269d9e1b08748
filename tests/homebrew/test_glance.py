"""The homebrew's state at a glance on the encounter (issue 21, item 2; homebrew.glance,
encounters.glance): HP, MP (or the sheet's own gauge), the posture, unconscious, dead, no more
dodges this round, on the page, its fragment and the API, for each viewer (the GM, the owner,
an ally, a player reading an enemy) and each of the campaign's ``enemy_state`` values; the
campaign's ``badly_wounded_percent``. Queries pinned at 2 and 20 combatants."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from campaigns.models import Campaign
from encounters import services as enc
from homebrew import play
from homebrew.models import HomebrewSheet
from homebrew.play import round_key
from tests import factories
from tests.encounters.glance_reading import SURFACES, ids_in, read
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db

EXACT = {"hp", "mp"}


def _fight(hb):
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ford")
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=x.pk) for x in (hb.aria, hb.bran, hb.goblin)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    for i, x in enumerate(made):
        enc.combatant_place(user=hb.gm, encounter_id=e.pk, combatant_id=x.pk, x=i * 2, y=0)
    e.refresh_from_db()
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=12, posture="defensive",
                                                       dodge_lost_round=round_key(e))
    goblin = HomebrewSheet.objects.get(pk=hb.goblin.pk)
    goblin.hp = goblin.hp_max // 2  # half lost: badly wounded at 50 %
    goblin.save()
    cache.clear()
    return e, {x.character_id: x.pk for x in made}


def _as(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("surface", SURFACES)
def test_the_gm_reads_everyone_exactly(client, hb, surface):
    e, c = _fight(hb)
    enc.enemy_state_set(user=hb.gm, campaign_id=hb.campaign.pk, value="hidden")
    _as(client, hb.gm)
    page = "control" if surface != "api" else "play"
    assert read(client, surface, e.pk, c[hb.aria.pk], page=page) == {
        "detail": "exact", "level": "wounded", "meters": EXACT, "marks": {"posture", "no_dodge"}}
    assert read(client, surface, e.pk, c[hb.goblin.pk], page=page) == {
        "detail": "exact", "level": "badly_wounded", "meters": EXACT, "marks": {"posture"}}


@pytest.mark.parametrize("setting", ["exact", "described", "hidden"])
@pytest.mark.parametrize("surface", SURFACES)
def test_own_and_ally_exact_an_enemy_as_the_setting_says(client, hb, surface, setting):
    e, c = _fight(hb)
    if setting != "described":
        enc.enemy_state_set(user=hb.gm, campaign_id=hb.campaign.pk, value=setting)
    _as(client, hb.alice)
    assert read(client, surface, e.pk, c[hb.aria.pk]) == {
        "detail": "exact", "level": "wounded", "meters": EXACT, "marks": {"posture", "no_dodge"}}
    assert read(client, surface, e.pk, c[hb.bran.pk]) == {
        "detail": "exact", "level": "unhurt", "meters": EXACT, "marks": {"posture"}}
    enemy = read(client, surface, e.pk, c[hb.goblin.pk])
    if setting == "exact":
        assert enemy == {"detail": "exact", "level": "badly_wounded", "meters": EXACT,
                         "marks": {"posture"}}
    elif setting == "described":
        assert enemy == {"detail": "described", "level": "badly_wounded", "meters": set(),
                         "marks": set()}
    else:
        assert enemy is None
    client.logout()
    _as(client, hb.bob)  # Aria's ally
    assert read(client, surface, e.pk, c[hb.aria.pk])["detail"] == "exact"


def test_the_threshold_is_the_campaigns_parameter_and_down_at_zero(client, hb):
    e, c = _fight(hb)
    Campaign.objects.filter(pk=hb.campaign.pk).update(
        rule_parameters={"badly_wounded_percent": 75})
    _as(client, hb.alice)
    assert read(client, "api", e.pk, c[hb.goblin.pk])["level"] == "wounded"  # 50 % < 75 %
    HomebrewSheet.objects.filter(pk=hb.goblin.pk).update(hp=0, health="dead")
    enc.characters_changed([hb.goblin.pk])
    assert read(client, "api", e.pk, c[hb.goblin.pk])["level"] == "down"
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "down" in html and "HP 0/" not in html


def test_words_in_french_and_the_sheets_own_gauge(client, hb):
    e, _c = _fight(hb)
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(mp_label="Cartridges")
    _as(client, hb.alice)
    client.cookies["django_language"] = "fr"
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "posture défensive" in html and "gravement blessé" in html
    assert 'title="Cartridges 10/10"' in html
    assert '<span class="visually-hidden">PV 12/20</span>' in html


@pytest.mark.parametrize("surface", SURFACES)
def test_a_hidden_enemy_never_appears(client, hb, surface):
    e, c = _fight(hb)
    enc.combatant_update(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk],
                         hidden=True)
    enc.enemy_state_set(user=hb.gm, campaign_id=hb.campaign.pk, value="exact")
    _as(client, hb.alice)
    assert c[hb.goblin.pk] not in ids_in(client, surface, e.pk)
    assert "Goblin" not in client.get(f"/encounters/{e.pk}/").content.decode()


@pytest.mark.parametrize("n", [2, 50])
def test_queries_do_not_grow_with_the_combatants(client, hb, n, django_assert_num_queries):
    """No query for the state: the sheets come with the combatants. The GM's control page
    (7: no log yet), Alice's page (7) and her API read (6), the same at 2 and 50 combatants
    (bench.pages times these pages at 50)."""
    goblins = [factories.HomebrewCreatureSheetFactory(character__campaign=hb.campaign,
                                                      character__name=f"Goblin {i}").character
               for i in range(n - 2)]
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Crowd")
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=x.pk) for x in (hb.aria, hb.goblin, *goblins)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    for i, x in enumerate(made):
        enc.combatant_place(user=hb.gm, encounter_id=e.pk, combatant_id=x.pk, x=i, y=0)
    enc.enemy_state_set(user=hb.gm, campaign_id=hb.campaign.pk, value="exact")
    _as(client, hb.gm).get(f"/encounters/{e.pk}/control/")
    with django_assert_num_queries(7):
        html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert html.count('data-testid="glance"') == n
    client.logout()
    _as(client, hb.alice).get(f"/encounters/{e.pk}/")
    with django_assert_num_queries(7):
        html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert html.count('data-testid="glance"') == n
    with django_assert_num_queries(6):
        data = client.get(f"/api/encounters/{e.pk}/").json()
    assert sum(1 for x in data["combatants"] if x["state"]) == n


@pytest.mark.parametrize("setting", ["exact", "described", "hidden"])
def test_the_log_tells_an_enemys_hp_left_only_when_exact(client, hb, setting):
    """The log's "damage 5 (3 HP left)" is the enemy's exact state: a player reads it only
    when the campaign's enemy_state is exact (page, fragment, API); the GM always."""
    e, c = _fight(hb)
    HomebrewSheet.objects.filter(pk=hb.goblin.pk).update(hp=8, hp_max=8, posture="offensive")
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(posture="offensive")
    enc.enemy_state_set(user=hb.gm, campaign_id=hb.campaign.pk, value=setting)
    e.refresh_from_db()
    assert e.current_id == c[hb.aria.pk]  # the GM's order: Aria, Bran, the goblin
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk],
                          target_id=c[hb.goblin.pk], choices=play.AttackChoices(weapon_id=hb.sword.pk),
                          rng=FakeRandom(40, 5))
    assert HomebrewSheet.objects.get(pk=hb.goblin.pk).hp == 3
    for user, reads in ((hb.bob, setting == "exact"), (hb.gm, True)):
        client.force_login(user)
        page = client.get(f"/encounters/{e.pk}/").content.decode()
        fragment = client.get(f"/encounters/{e.pk}/", HTTP_HX_REQUEST="true").content.decode()
        data = client.get(f"/api/encounters/{e.pk}/").json()
        [entry] = [x for x in data["log"] if x["kind"] == "homebrew_attack"]
        for html in (page, fragment):
            assert "damage 5" in html
            assert ("damage 5 (3 HP left)" in html) is reads
        assert entry["summary"]["result"]["damage"] == 5
        assert ("hp" in entry["summary"]["result"]) is reads
        assert ("hp_before" in entry["summary"]["result"]) is reads
        client.logout()
    # the attacker's own sheet (page and API) journals the same entry, read the same way
    for user, reads in ((hb.alice, setting == "exact"), (hb.gm, True)):
        client.force_login(user)
        html = client.get(f"/characters/{hb.aria.pk}/").content.decode()
        assert "damage 5" in html
        assert ("damage 5 (3 HP left)" in html) is reads
        [entry] = [x for x in client.get(f"/api/characters/{hb.aria.pk}/").json()["log"]
                   if x["kind"] == "homebrew_attack"]
        assert ("hp" in entry["summary"]["result"]) is reads
        client.logout()
