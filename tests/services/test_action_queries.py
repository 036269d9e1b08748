"""Issue 10, item 4: an action loads its context once (ew1.context), computes in memory and
writes once. Attacks and casts run a fixed number of queries whatever the number of pieces in
view (1 and 200 here), and the one load still gives the rules every faction and shield.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from characters.models import Character
from ew1.context import action_context
from combat.services import action_attack
from ew1.models import EternalWarSheet
from factions.models import Faction, Membership
from gamerules.ew1.presence import faction_bonus
from magic.casting import spell_cast
from magic.models import ActiveEffect
from tests import factories
from tests.magic.conftest import (DEF_FAIL, NOW, STATS, ally, set_parameters, spells,  # noqa: F401
                                  teach)
from tests.services.conftest import FakeRandom

HIT_CAST = 55  # the mage's magic skill


@pytest.fixture
def campaign(db):
    return factories.campaign(width=30, height=30)


@pytest.fixture
def duel(alice, bob, campaign):
    """Alice's Hero at (15, 15) in a faction with Bob's Friend at (15, 16) (allies in view), and
    Bob's Foe at (16, 15) under a shield of 3."""
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(15, 15), now=NOW,
                               **STATS)
    friend = factories.character(owner=bob, campaign=campaign, name="Friend", at=(15, 16),
                                 now=NOW, **STATS)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(16, 15), now=NOW,
                              **STATS)
    ally(hero, friend)
    set_parameters(hero, view_radius=10)  # 21 x 21 cells in view: room for 200 pieces
    return hero, friend, foe


def crowd(campaign, count: int, *, faction: Faction | None = None) -> list[Character]:
    """``count`` creatures with sheets in view of (15, 15), every other one in ``faction`` and
    every third one shielded (bulk inserts: the fixture stays fast at 200)."""
    taken = set(Character.objects.filter(board=campaign.board).values_list("x", "y"))
    cells = [(x, y) for y in range(5, 26) for x in range(5, 26) if (x, y) not in taken][:count]
    pieces = Character.objects.bulk_create([
        Character(campaign=campaign, kind=Character.Kind.CREATURE, name=f"C{i:03}",
                  board=campaign.board, x=x, y=y) for i, (x, y) in enumerate(cells)])
    EternalWarSheet.objects.bulk_create([
        EternalWarSheet(character=p, FOR=10, DEF=10, TAI=10, INT=10, DEX=10, skills={})
        for p in pieces])
    if faction is not None:
        Membership.objects.bulk_create([Membership(faction=faction, character=p)
                                        for p in pieces[::2]])
    spell = factories_spell()
    ActiveEffect.objects.bulk_create([
        ActiveEffect(target=p, spell=spell, amount=2, expires_at=NOW + timedelta(hours=1))
        for p in pieces[::3]])
    return pieces


def factories_spell():
    from magic.models import Spell

    return Spell.objects.get_or_create(name="Crowd shield", effect="shield", dice="1d4")[0]


def shield(character, amount: int, *, expires=NOW + timedelta(hours=1)) -> None:
    ActiveEffect.objects.create(target=character, spell=factories_spell(), amount=amount,
                                expires_at=expires)


# --- the context holds what the rules read ------------------------------------------------------

@pytest.mark.parametrize("size", [1, 200])
def test_the_context_loads_every_piece_in_view_with_its_faction_and_shield(
        alice, duel, campaign, size, django_assert_num_queries):
    hero, _friend, foe = duel
    shield(foe, 3)
    shield(foe, 1)  # shields do not add up: the strongest holds
    shield(foe, 9, expires=NOW)  # expired at NOW: it no longer counts
    crowd(campaign, size, faction=hero.membership.faction)

    with django_assert_num_queries(3):  # lock, equipped items, pieces in view
        context = action_context(user=alice, character_id=hero.pk, others=[foe.pk],
                                 view_of=[foe.pk], now=NOW)

    assert len(context.pieces) == 3 + size
    assert context.shield(foe.pk) == 3 and context.combatant(foe.pk).shield == 3
    assert context.shield(hero.pk) == 0
    assert sum(1 for p in context.pieces if p.shield_cached == 2) == len(range(0, size, 3))
    faction = hero.membership.faction_id
    assert context.character.faction_id_cached == faction
    assert context.sheets[foe.pk].character.faction_id_cached is None
    assert sum(1 for p in context.pieces if p.faction_id_cached == faction) == 2 + len(
        range(0, size, 2))


def test_the_context_of_a_piece_off_the_board_has_no_pieces(alice, duel):
    hero, _, _ = duel
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    context = action_context(user=alice, character_id=hero.pk, now=NOW)
    assert context.pieces == ()


# --- attacks: <= 10 queries, the same at 1 and 200 pieces in view -------------------------------

# savepoint; the sheets locked with characters, campaign, board; equipped items; pieces in view
# with factions and shields; the sheets in one UPDATE, the characters in another; the action,
# its rolls; release. 12 before issue 10.
ATTACK_QUERIES = 9


@pytest.mark.parametrize("kind", ["brawl", "throw"])
@pytest.mark.parametrize("size", [1, 200])
def test_an_attack_runs_the_same_queries_with_1_and_200_pieces_in_view(
        alice, duel, campaign, size, kind, django_assert_num_queries):
    hero, _friend, foe = duel
    crowd(campaign, size, faction=hero.membership.faction)

    with django_assert_num_queries(ATTACK_QUERIES):
        result = action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, kind=kind,
                               rng=random.Random(size), now=NOW)

    # The faction bonus counts the allies among the 200 (Friend and every other creature
    # within the view radius 10).
    allies = 1 + len(range(0, size, 2))
    params = hero.campaign.parameters
    assert result.action.summary["faction_attack_bonus"] == faction_bonus(
        allies, attack_factor=params.faction_attack_factor).attack > 0
    hero.refresh_from_db()
    assert hero.attacks == 1 and hero.last_action_at == NOW


def test_the_attack_writes_both_sheets_and_both_characters(alice, duel):
    """A hit that disincarnates the target: the one UPDATE of each kind stores the attacker's PA,
    XP and kill, and the target's PV, death and place off the board."""
    hero, _, foe = duel
    EternalWarSheet.objects.filter(pk=foe.pk).update(pv=1)
    # Bagarre 90: 10 hits; the dodge fails (99); 1d4 = 4 damage; every DEF roll fails.
    action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, kind="brawl",
                  rng=FakeRandom(10, 99, 4, *[DEF_FAIL] * 10), now=NOW)
    hero.refresh_from_db()
    foe.refresh_from_db()
    assert (hero.kills, hero.attacks, foe.deaths, foe.board_id) == (1, 1, 1, None)
    assert foe.ew1.pv < 0 and hero.ew1.pa < 12 and hero.ew1.xp > 0


# --- casts: a fixed count whatever the pieces in view and the targets ---------------------------

# savepoint; the known spell; the pieces in the zone; the sheets locked (caster and zone), their
# equipped items; the pieces in view with factions and shields; the sheets in one UPDATE, the
# characters in another; the action, its rolls; release. 12 + 2 per target before issue 10.
CAST_QUERIES = 11


@pytest.mark.parametrize("size", [1, 200])
def test_a_cast_runs_the_same_queries_with_1_and_200_pieces_in_view(
        alice, duel, campaign, spells, size, django_assert_num_queries):  # noqa: F811
    hero, _, foe = duel
    teach(hero, spells["Boule de feu"])
    crowd(campaign, size, faction=hero.membership.faction)
    shield(foe, 3)

    with django_assert_num_queries(CAST_QUERIES):
        result = spell_cast(user=alice, character_id=hero.pk, spell_id=spells["Boule de feu"].pk,
                            x=16, y=15, rng=FakeRandom(HIT_CAST, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL),
                            now=NOW)

    # Reduction: one DEF roll won of three... none here (all fail), so the fixed 1 plus the
    # shield of 3, read in the same pieces query.
    [target] = result.targets
    assert target["id"] == foe.pk and target["reduction"] == 1 + 3
    foe.refresh_from_db()
    assert foe.ew1.pv == 100 - target["pv_lost"]


@pytest.mark.parametrize("size", [1, 200])
def test_a_zone_shield_replaces_shields_in_two_statements(
        alice, duel, campaign, spells, size, django_assert_num_queries):  # noqa: F811
    """Barrière (zone 2, allies): the old shields of that spell go in one DELETE, the new ones in
    one INSERT, whatever the number of targets."""
    hero, friend, _ = duel
    teach(hero, spells["Barrière"])
    crowd(campaign, size)

    with django_assert_num_queries(CAST_QUERIES + 2):
        result = spell_cast(user=alice, character_id=hero.pk, spell_id=spells["Barrière"].pk,
                            x=15, y=15, rng=FakeRandom(HIT_CAST, 3), now=NOW)

    reached = {t["id"] for t in result.targets}
    assert {hero.pk, friend.pk} <= reached
    assert set(ActiveEffect.objects.filter(spell=spells["Barrière"])
               .values_list("target_id", flat=True)) == reached
