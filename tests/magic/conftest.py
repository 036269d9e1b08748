"""Helpers of the magic tests: the seed's example spells, a mage and its neighbours, scripted
dice and a fixed clock; the snapshot of everything a cast may change is tests.snapshots."""

from __future__ import annotations

from datetime import datetime, UTC

import pytest
from django.test import Client

from characters.models import Character
from factions.models import Faction, Membership
from magic.models import KnownSpell, Spell
from magic.spellbook import spell_grant
from tests import factories
from tests.api.conftest import _local_cache, api, api_as  # noqa: F401 (API fixtures)
from tests.snapshots import snapshot  # noqa: F401 - imported by the tests here

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
HTMX = {"HTTP_HX_REQUEST": "true"}

SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 55, "dodge": 10, "throw": 25,
          "game": 30}
# FOR + TAI = 20: a brawl rolls 1d4 and no base damage. Dodge score: Esquive 10 + LUK 10 // 5 =
# 12. DEF rolls succeed on <= 10. Magic 55: no evolution bonus from the skill.
STATS = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10, "skills": SKILLS}
DEF_FAIL, DEF_OK = 11, 10

# Seed, "La magie": the examples of each tier (ranges and radii are our catalogue's choices).
SEED_SPELLS = [
    ("Boule de feu", "base", "damage", "1d6+1", 5, 0, "everyone", 0),
    ("Soin", "base", "heal", "1d6+1", 5, 0, "everyone", 0),
    ("Bouclier", "base", "shield", "1d4+1", 1, 0, "everyone", 24),
    ("Météore", "advanced", "damage", "2d6+2", 5, 0, "everyone", 0),
    ("Régénération", "advanced", "heal", "2d6+2", 5, 0, "everyone", 0),
    ("Protection", "advanced", "shield", "2d4+2", 1, 0, "everyone", 24),
    ("Explosion", "zone", "damage", "1d6+1", 5, 2, "everyone", 0),
    ("Guérison de groupe", "zone", "heal", "1d6+1", 5, 2, "allies", 0),
    ("Barrière", "zone", "shield", "1d4+1", 5, 2, "allies", 24),
]


# Ten spells of the catalogue: a full spellbook.
TEN_NAMES = [row[0] for row in SEED_SPELLS] + ["Rune 1"]


@pytest.fixture
def campaign(db):
    return factories.campaign(width=20, height=20)


@pytest.fixture
def carol(db):
    return factories.user("carol")


@pytest.fixture
def spells(db, campaign) -> dict[str, Spell]:
    """The seed's nine examples (shared by every campaign), six more learnable runes, one spell
    that is never offered and one of another campaign."""
    made = {}
    for name, tier, effect, dice, rng, radius, reach, hours in SEED_SPELLS:
        made[name] = Spell.objects.create(name=name, tier=tier, effect=effect, dice=dice,
                                          range_cells=rng, zone_radius=radius, reach=reach,
                                          duration_hours=hours)
    for i in range(1, 7):
        made[f"Rune {i}"] = Spell.objects.create(name=f"Rune {i}", effect="damage", dice="1d4",
                                                 campaign=campaign)
    made["Secret"] = Spell.objects.create(name="Secret", effect="damage", dice="1d4",
                                          learnable=False)
    other = factories.campaign(name="Elsewhere")
    made["Foreign"] = Spell.objects.create(name="Foreign", effect="damage", dice="1d4",
                                           campaign=other)
    return made


def character(owner, campaign, name, at, **fields):
    return factories.character(owner=owner, campaign=campaign, name=name, at=at, now=NOW,
                               **{**STATS, **fields})


@pytest.fixture
def mage(alice, campaign):
    return character(alice, campaign, "Mage", (5, 5))


@pytest.fixture
def foe(bob, campaign):
    return character(bob, campaign, "Foe", (6, 5))


def teach(character, *spells, source=KnownSpell.Source.GRANTED):
    for spell in spells:
        spell_grant(character=character, spell=spell, source=source, now=NOW)


def set_parameters(character, **overrides) -> None:
    """Give the character's campaign these rule parameters (stored, and seen by ``character``)."""
    campaign = character.campaign
    campaign.rule_parameters = overrides
    campaign.save(update_fields=["rule_parameters"])
    campaign.__dict__.pop("parameters", None)  # a cached_property


def ally(*characters) -> Faction:
    """Put ``characters`` in one faction, led by the first."""
    faction = Faction.objects.create(campaign=characters[0].campaign,
                                     name=f"Faction of {characters[0].name}",
                                     leader=characters[0])
    Membership.objects.bulk_create([Membership(faction=faction, character=c)
                                    for c in characters])
    return faction


def fetch(c) -> Character:
    return Character.objects.select_related("ew1").get(pk=c.pk)


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client
