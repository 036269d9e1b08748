"""Friendly fire (issue 8, item 16): members of one faction are allies; the seed says nothing
of attacking them, so a campaign allows it by default (``friendly_fire`` on) and may forbid
it (off): an attack or a damage spell on an ally is then refused with ``friendly_fire``.

docs/rules/eternal-war-one-ii.md, "Friendly fire".
"""

import random

import pytest
from django.urls import reverse

from campaigns.models import ActionRecord
from combat.services import action_attack
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from magic.casting import spell_cast
from magic.models import Spell
from tests import factories
from tests.api.conftest import _local_cache, api, api_as  # noqa: F401 (API fixtures)
from tests.magic.conftest import ally, set_parameters, teach
from tests.pages.conftest import HTMX
from tests.services.conftest import NOW, FakeRandom

MISS = 95  # above Bagarre 90: one roll, nothing else


@pytest.fixture
def trio(alice, bob, campaign):
    """Alice's Hero and Bob's Friend in one faction, side by side; Bob's Foe on Hero's other
    side, in no faction."""
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW)
    friend = factories.character(owner=bob, campaign=campaign, name="Friend", at=(6, 5), now=NOW)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(4, 5), now=NOW)
    ally(hero, friend)
    return hero, friend, foe


def brawl(user, attacker, target):
    return action_attack(user=user, character_id=attacker.pk, target_id=target.pk, kind="brawl",
                         rng=FakeRandom(MISS), now=NOW)


def test_friendly_fire_is_on_by_default_and_an_ally_can_be_attacked(alice, trio):
    hero, friend, _ = trio
    assert hero.campaign.parameters.friendly_fire is True
    result = brawl(alice, hero, friend)
    assert (result.action.kind, result.action.target_id) == ("brawl", friend.pk)


def test_with_friendly_fire_off_attacking_an_ally_is_refused_and_changes_nothing(
        alice, trio, unchanged):
    hero, friend, _ = trio
    set_parameters(hero, friendly_fire=False)
    for kind in ("brawl", "throw"):
        with unchanged(), pytest.raises(errors.FriendlyFire) as refused:
            action_attack(user=alice, character_id=hero.pk, target_id=friend.pk, kind=kind,
                          rng=FakeRandom(), now=NOW)
        assert refused.value.code == "friendly_fire"


def test_with_friendly_fire_off_a_non_ally_is_still_attacked(alice, trio):
    hero, _, foe = trio
    set_parameters(hero, friendly_fire=False)
    assert brawl(alice, hero, foe).action.target_id == foe.pk


def test_a_faction_is_needed_on_both_sides(alice, bob, campaign):
    """Two characters without a faction are not allies (None is not a shared faction)."""
    campaign.rule_parameters = {"friendly_fire": False}
    campaign.save()
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW)
    other = factories.character(owner=bob, campaign=campaign, name="Other", at=(6, 5), now=NOW)
    assert brawl(alice, hero, other).action.target_id == other.pk


def test_the_api_answers_friendly_fire_with_its_code(alice, trio, api_as):  # noqa: F811 (fixture)
    hero, friend, _ = trio
    set_parameters(hero, friendly_fire=False)
    response = api_as(alice).post(f"/api/characters/{hero.pk}/attack/",
                                  {"target": friend.pk, "kind": "brawl"}, format="json")
    assert response.status_code in (400, 409)
    assert response.json()["code"] == "friendly_fire"
    assert not ActionRecord.objects.filter(kind="brawl").exists()


# --- damage spells -------------------------------------------------------------------------------

@pytest.fixture
def explosion(trio):
    hero = trio[0]
    spells = {n: Spell.objects.create(name=n, effect="damage", dice=d, range_cells=5,
                                      zone_radius=z)
              for n, d, z in (("Boule de feu", "1d6+1", 0), ("Explosion", "1d6+1", 2))}
    teach(hero, *spells.values())
    return spells


def test_with_friendly_fire_off_a_fireball_on_an_ally_is_refused(alice, trio, explosion,
                                                                 unchanged):
    hero, friend, _ = trio
    set_parameters(hero, friendly_fire=False)
    with unchanged(), pytest.raises(errors.FriendlyFire):
        spell_cast(user=alice, character_id=hero.pk, spell_id=explosion["Boule de feu"].pk,
                   x=friend.x, y=friend.y, rng=FakeRandom(), now=NOW)


@pytest.mark.parametrize("friendly_fire, hit", [(True, {"Hero", "Friend", "Foe"}),
                                                (False, {"Hero", "Foe"})])
def test_an_explosion_spares_allies_only_when_friendly_fire_is_off(alice, trio, explosion,
                                                                   friendly_fire, hit):
    hero = trio[0]
    set_parameters(hero, friendly_fire=friendly_fire)
    EternalWarSheet.objects.filter(pk=hero.pk).update(skills={**hero.ew1.skills, "magic": 95})
    result = spell_cast(user=alice, character_id=hero.pk, spell_id=explosion["Explosion"].pk,
                        x=5, y=5, rng=random.Random(3), now=NOW)
    assert result.outcome.success
    assert {t["name"] for t in result.targets} == hit  # its own explosion still hurts the caster


# --- the board -----------------------------------------------------------------------------------

def _board(client, hero, **extra):
    return client.get(reverse("combat:board", args=[hero.pk]), **extra).content.decode()


def test_the_board_marks_allies_and_says_friendly_fire_on_their_buttons(alice_client, trio):
    hero, _friend, _foe = trio
    html = _board(alice_client, hero, **HTMX)
    assert 'data-testid="ally-Friend"' in html and 'data-testid="ally-Foe"' not in html
    assert html.count(" ally\"") == 1  # Friend's cell, not Foe's
    friend_line = html.split('data-testid="in-view-Friend"')[1].split("</li>")[0]
    foe_line = html.split('data-testid="in-view-Foe"')[1].split("</li>")[0]
    assert "friendly fire" in friend_line and "disabled" not in friend_line
    assert "friendly fire" not in foe_line


def test_with_friendly_fire_off_the_board_disables_the_ally_buttons_with_the_reason(
        alice_client, trio):
    hero, _friend, _foe = trio
    set_parameters(hero, friendly_fire=False)
    html = _board(alice_client, hero, **HTMX)
    friend_line = html.split('data-testid="in-view-Friend"')[1].split("</li>")[0]
    foe_line = html.split('data-testid="in-view-Foe"')[1].split("</li>")[0]
    assert 'data-testid="attack-Friend" disabled title="Friendly fire is off' in friend_line
    assert "disabled" not in foe_line


def test_the_board_is_in_french_for_allies(alice_client, trio):
    hero = trio[0]
    html = _board(alice_client, hero, HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    assert "allié" in html and "tir ami" in html


def test_the_api_board_says_who_is_an_ally_and_lists_no_attack_on_them_when_off(
        alice, trio, api_as):  # noqa: F811 (fixture)
    hero, _friend, _foe = trio
    set_parameters(hero, friendly_fire=False)
    pieces = {p["name"]: p for p in
              api_as(alice).get(f"/api/characters/{hero.pk}/board/").json()["pieces"]}
    assert (pieces["Friend"]["ally"], pieces["Friend"]["attacks"]) == (True, [])
    assert pieces["Foe"]["ally"] is False and "brawl" in pieces["Foe"]["attacks"]
    assert pieces["Hero"]["ally"] is False


@pytest.fixture
def alice_client(alice):
    from django.test import Client

    client = Client()
    client.force_login(alice)
    return client


@pytest.mark.parametrize("crowd", [0, 20])
def test_attack_query_count_is_the_same_with_friendly_fire_checked(
        alice, bob, trio, crowd, django_assert_num_queries):
    """The allies come from the pieces query the attack already makes: no extra query, and
    the same count with 20 more pieces around."""
    hero, _friend, _ = trio
    set_parameters(hero, friendly_fire=False)
    for i in range(crowd):
        factories.character(owner=bob, campaign=hero.campaign, name=f"C{i:02}",
                            at=(i % 10, 7 + i // 10), now=NOW, seed=i)
    with django_assert_num_queries(ATTACK_QUERIES):
        brawl(alice, hero, trio[2])


# savepoint, sheets locked (with characters, campaign, board), equipped items, pieces around
# with factions and shields (ew1.context); both sheets written in one UPDATE, both
# characters in another; action, rolls; release (issue 10: 12 before).
ATTACK_QUERIES = 9
