"""Eclipse Phase's state at a glance on the encounter (issue 21, item 2; eclipse.glance,
encounters.glance): damage of DUR, wounds, stress of lucidity, Moxie, the readied weapon's
ammunition, and stunned, prone, unconscious, bleeding, dead as icons, on the page, its
fragment and the API, for each viewer (the GM, the owner, an ally, a player reading an enemy)
and each of the campaign's ``enemy_state`` values. Queries pinned at 2 and 20 combatants."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from eclipse.models import CarriedWeapon, Sleeve, WeaponState
from encounters import services as enc
from tests.eclipse_play.conftest import carry, running, sheet
from tests.encounters.glance_reading import SURFACES, ids_in, read

pytestmark = pytest.mark.django_db

ALL_METERS = {"damage", "wounds", "stress", "moxie", "ammo"}
ALLY_METERS = ALL_METERS - {"ammo"}  # the ammunition: its player, the GM (and TACNet)


def _fight(ep, *, placed=True):
    """Ava hurt (9 damage, a wound, knocked down, stunned), Bo unhurt, the Guard badly
    wounded (16 of DUR 30) and prone, everyone on the map."""
    e, c = running(ep)
    Sleeve.objects.filter(worn_by__character=ep.ava).update(damage=9, wounds=1,
                                                            knocked_down=True, stunned=1)
    Sleeve.objects.filter(worn_by__character=ep.guard).update(damage=16, knocked_down=True)
    if placed:
        for i, who in enumerate((ep.ava, ep.bo, ep.guard)):
            enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk,
                                x=i * 3, y=0)
    cache.clear()
    return e, c


def _as(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("surface", SURFACES)
def test_the_gm_reads_everyone_exactly_whatever_the_setting(client, ep, surface):
    e, c = _fight(ep)
    enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value="hidden")
    _as(client, ep.gm)
    page = "control" if surface != "api" else "play"
    ava = read(client, surface, e.pk, c[ep.ava.pk].pk, page=page)
    assert ava == {"detail": "exact", "level": "wounded", "meters": ALL_METERS,
                   "marks": {"stunned", "prone"}}
    guard = read(client, surface, e.pk, c[ep.guard.pk].pk, page=page)
    assert guard["detail"] == "exact" and guard["level"] == "badly_wounded"
    assert guard["meters"] == ALL_METERS and guard["marks"] == {"prone"}


@pytest.mark.parametrize("setting", ["exact", "described", "hidden"])
@pytest.mark.parametrize("surface", SURFACES)
def test_own_and_ally_exact_an_enemy_as_the_setting_says(client, ep, surface, setting):
    e, c = _fight(ep)
    if setting != "described":  # the default
        enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value=setting)
    ava, bo, guard = (c[x.pk].pk for x in (ep.ava, ep.bo, ep.guard))
    _as(client, ep.alice)  # the owner of Ava, Bo's ally
    assert read(client, surface, e.pk, ava) == {
        "detail": "exact", "level": "wounded", "meters": ALL_METERS,
        "marks": {"stunned", "prone"}}
    assert read(client, surface, e.pk, bo) == {
        "detail": "exact", "level": "unhurt", "meters": ALLY_METERS, "marks": set()}
    enemy = read(client, surface, e.pk, guard)
    if setting == "exact":
        assert enemy == {"detail": "exact", "level": "badly_wounded", "meters": ALLY_METERS,
                         "marks": {"prone"}}
    elif setting == "described":
        assert enemy == {"detail": "described", "level": "badly_wounded", "meters": set(),
                         "marks": set()}
    else:
        assert enemy is None
    client.logout()
    _as(client, ep.bob)  # Ava's ally
    assert read(client, surface, e.pk, ava) == {
        "detail": "exact", "level": "wounded", "meters": ALLY_METERS,
        "marks": {"stunned", "prone"}}


def test_the_words_and_numbers_of_the_described_enemy_never_reach_a_player(client, ep):
    e, c = _fight(ep)
    _as(client, ep.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "badly wounded" in html and "Damage 16/30" not in html  # the Guard: words only
    assert "Damage 9/30 (death at 45)" in html  # Ava's own
    data = client.get(f"/api/encounters/{e.pk}/").json()
    [guard] = [x for x in data["combatants"] if x["id"] == c[ep.guard.pk].pk]
    assert guard["state"] == {"detail": "described", "level": "badly_wounded",
                              "label": "badly wounded", "meters": [], "marks": []}


def test_unconscious_bleeding_dead_and_the_readied_weapon(client, ep):
    e, c = _fight(ep)
    Sleeve.objects.filter(worn_by__character=ep.guard).update(damage=31, wounds=1)
    Sleeve.objects.filter(worn_by__character=ep.bo).update(damage=45)
    CarriedWeapon.objects.filter(pk=ep.w.guard_rifle.pk).update(loaded=5,
                                                               state=WeaponState.JAMMED)
    _as(client, ep.gm)
    html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert "unconscious" in html and "bleeding" in html and "dead" in html
    assert "Rifle 5/20 (1 spare magazine)" in html and "Rifle: jammed" in html
    guard = read(client, "api", e.pk, c[ep.guard.pk].pk)
    assert guard["level"] == "down" and {"unconscious", "bleeding", "jammed"} <= guard["marks"]
    assert read(client, "api", e.pk, c[ep.bo.pk].pk)["marks"] == {"dead"}
    client.logout()
    _as(client, ep.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "Rifle" not in html and "bleeding" not in html  # described: the word alone
    assert read(client, "page", e.pk, c[ep.guard.pk].pk)["level"] == "down"


def test_icons_carry_their_words_for_tooltips_and_screen_readers(client, ep):
    e, _c = _fight(ep)
    _as(client, ep.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert ('title="stunned (1 action turn)"><span class="icon" aria-hidden="true">✷</span>'
            '<span class="visually-hidden">stunned (1 action turn)</span>') in html
    assert '<title>prone (knocked down)</title>' in html  # on the token
    client.cookies["django_language"] = "fr"
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "sonné (1 tour d&#x27;action)" in html and "gravement blessé" in html
    assert "à terre (renversé)" in html


@pytest.mark.parametrize("surface", SURFACES)
def test_a_hidden_enemy_never_appears_even_shown_exactly(client, ep, surface):
    e, c = running(ep)
    enc.combatant_update(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                         hidden=True)
    enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value="exact")
    _as(client, ep.alice)
    assert c[ep.guard.pk].pk not in ids_in(client, surface, e.pk)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "Guard" not in html and "Rifle" not in html


def test_the_setting_refreshes_the_open_pages(client, ep):
    e, c = _fight(ep)
    _as(client, ep.alice)
    guard = c[ep.guard.pk].pk
    assert read(client, "fragment", e.pk, guard)["detail"] == "described"  # cached now
    e.refresh_from_db()
    before = e.version
    enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value="hidden")
    e.refresh_from_db()
    assert e.version == before + 1  # the cached bodies are per version
    assert read(client, "fragment", e.pk, guard) is None


def _crowd(ep, n):
    """The encounter of Ava, the Guard and ``n - 2`` drones (pods, each with a rifle)."""
    from characters.models import Character

    pod = ep.sheets[ep.guard.pk].sleeve.template
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Crowd")
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(n - 2)]
    for m in more:
        carry(sheet(m, pod), ep.rifle)
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=x.pk) for x in (ep.ava, ep.guard, *more)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    for i, x in enumerate(e.combatants.all()):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=x.pk, x=i, y=0)
    return e


@pytest.mark.parametrize("n", [2, 20])
def test_queries_do_not_grow_with_the_combatants(client, ep, n, django_assert_num_queries):
    """The GM's control page (10), Alice's page (10: as before the state, the turn's form
    reading its sheet's weapons and the state the others', its sleeve coming with the
    combatants) and her API read (7), the same at 2 and 20 combatants: the state of every
    combatant costs one query, the carried weapons all at once (eclipse.glance)."""
    e = _crowd(ep, n)
    enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value="exact")
    _as(client, ep.gm).get(f"/encounters/{e.pk}/control/")
    with django_assert_num_queries(CONTROL_QUERIES):
        html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert html.count('data-testid="glance"') == n
    client.logout()
    _as(client, ep.alice).get(f"/encounters/{e.pk}/")
    with django_assert_num_queries(PLAY_QUERIES):
        html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert html.count('data-testid="glance"') == n
    with django_assert_num_queries(API_QUERIES):
        data = client.get(f"/api/encounters/{e.pk}/").json()
    assert sum(1 for x in data["combatants"] if x["state"]) == n


CONTROL_QUERIES = 10
PLAY_QUERIES = 10
API_QUERIES = 7


@pytest.mark.parametrize("setting", ["exact", "described", "hidden"])
def test_the_log_tells_an_enemys_damage_and_wounds_so_far_only_when_exact(client, ep, setting):
    """The log's "damage 0 → 18, wounds 0 → 2" is the enemy's exact state (its damage of its
    DUR): a player reads it only when the campaign's enemy_state is exact; the damage the
    shot dealt stays; the GM reads it always."""
    from eclipse.attack import encounter_attack
    from tests.gamerules.fakes import FakeRandom

    e, c = running(ep)
    enc.enemy_state_set(user=ep.gm, campaign_id=ep.campaign.pk, value=setting)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk,
                            combatant_id=c[ep.ava.pk].pk, target_id=c[ep.guard.pk].pk,
                            weapon_id=ep.w.ava_pistol.pk, mode="SS", range_band="short",
                            rng=FakeRandom(), now=ep.now)
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(45, 30, 7, 8, 50), now=ep.now)
    for user, reads in ((ep.bob, setting == "exact"), (ep.gm, True)):
        _as(client, user)
        for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client.get(f"/encounters/{e.pk}/", **extra).content.decode()
            assert "18 damage, 2 wounds" in html  # what the shot dealt
            assert ("damage 0 → 18, wounds 0 → 2" in html) is reads
        [entry] = client.get(f"/api/encounters/{e.pk}/").json()["log"]
        assert ("after" in entry["summary"]["result"]) is reads
        assert ("before" in entry["summary"]["result"]) is reads
        client.logout()
    for user, reads in ((ep.alice, setting == "exact"), (ep.gm, True)):  # Ava's own sheet
        _as(client, user)
        html = client.get(f"/characters/{ep.ava.pk}/").content.decode()
        assert "18 damage, 2 wounds" in html
        assert ("damage 0 → 18, wounds 0 → 2" in html) is reads
        [entry] = client.get(f"/api/characters/{ep.ava.pk}/").json()["log"]
        assert ("after" in entry["summary"]["result"]) is reads
        client.logout()
