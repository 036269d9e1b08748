"""A small world for the breaker tests: two players side by side on one board, each with items,
a known spell, a pending spell offer and a creation draft; a creature and a door. Refusals are
checked with the ``unchanged`` fixture (tests.snapshots)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, UTC

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Campaign
from characters.models import Character
from ew1.creation import draft_roll
from ew1.equipment import item_grant
from ew1.models import CharacterDraft, ItemInstance, ItemTemplate
from ew1.services import piece_create
from magic.models import KnownSpell, Spell, SpellOffer
from magic.spellbook import spell_grant, spell_offer_pending
from tests import factories

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
HTMX = {"HTTP_HX_REQUEST": "true"}
SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 55, "dodge": 10, "throw": 25,
          "game": 30}


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Rate-limit counters in process memory, empty for each test."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "breaker-tests"}}
    caches["default"].clear()


@dataclass
class World:
    campaign: Campaign
    alice: object
    bob: object
    a: Character  # alice's, at (2, 2)
    b: Character  # bob's, at (3, 2), adjacent
    a_sword: ItemInstance
    a_potion: ItemInstance
    b_sword: ItemInstance
    b_potion: ItemInstance
    a_spell: Spell  # known by a only
    b_spell: Spell  # known by b only
    a_known: KnownSpell
    b_known: KnownSpell
    a_offer: SpellOffer
    b_offer: SpellOffer
    a_draft: CharacterDraft
    b_draft: CharacterDraft
    creature: Character
    door: Character


def _player(owner, campaign, name, at):
    return factories.character(owner=owner, campaign=campaign, name=name, at=at, level=3,
                               xp=400, skill_points=10, characteristic_points=2, FOR=10, TAI=10,
                               DEF=10, LUK=10, skills=SKILLS)


@pytest.fixture
def world(db, alice, bob) -> World:
    campaign = factories.campaign(name="Breaker campaign", width=10, height=10)
    a = _player(alice, campaign, "Aline", (2, 2))
    b = _player(bob, campaign, "Bruno", (3, 2))
    sword = ItemTemplate.objects.create(name="Sword", kind="melee", damage_dice="1d8")
    potion = ItemTemplate.objects.create(name="Potion", kind="misc", heal_dice="2d6")
    rng = random.Random(3)
    items = {(c.pk, t.pk): item_grant(character=c, template=t, rng=rng)
             for c in (a, b) for t in (sword, potion)}
    a_spell = Spell.objects.create(name="Firebolt", effect="damage", dice="1d6", range_cells=5)
    b_spell = Spell.objects.create(name="Icebolt", effect="damage", dice="1d6", range_cells=5)
    for i in range(6):
        Spell.objects.create(name=f"Rune {i}", effect="heal", dice="1d4", campaign=campaign)
    spell_grant(character=a, spell=a_spell, source=KnownSpell.Source.GRANTED, now=NOW)
    spell_grant(character=b, spell=b_spell, source=KnownSpell.Source.GRANTED, now=NOW)
    a_offer = spell_offer_pending(character=a, rng=random.Random(1), now=NOW)
    b_offer = spell_offer_pending(character=b, rng=random.Random(2), now=NOW)
    creature = piece_create(campaign=campaign, kind="creature", name="Wolf", x=1, y=2, pv=30,
                            fixed_reduction=0, skills={"brawl": 50, "dodge": 10},
                            characteristics={"FOR": 10, "DEF": 10, "TAI": 10, "INT": 5,
                                             "DEX": 5})
    door = piece_create(campaign=campaign, kind="door", name="Door", x=2, y=3, pv=10,
                        fixed_reduction=1)
    a_draft = draft_roll(user=alice, campaign=campaign, name="Alice draft", rng=random.Random(4))
    b_draft = draft_roll(user=bob, campaign=campaign, name="Bob draft", rng=random.Random(5))
    return World(campaign, alice, bob, a, b, items[a.pk, sword.pk], items[a.pk, potion.pk],
                 items[b.pk, sword.pk], items[b.pk, potion.pk], a_spell, b_spell,
                 KnownSpell.objects.get(character=a), KnownSpell.objects.get(character=b),
                 a_offer, b_offer, a_draft, b_draft, creature, door)


def logged_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def api_logged_in(user, *, csrf: bool = False) -> APIClient:
    client = APIClient(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client
