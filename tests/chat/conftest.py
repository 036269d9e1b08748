"""A homebrew campaign's table for the chat: its game master, three players with a character
each (alice and bob fight in the encounter, carol does not), a stranger, and an encounter with
a hidden creature."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from tests import factories

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@dataclass
class Table:
    campaign: object
    encounter: object
    gm: object
    alice: object
    bob: object
    carol: object
    stranger: object
    hidden: object  # the hidden creature's combatant


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """The cache in process memory (the rate limit's counters): query counts then do not
    depend on whether the cache is the database or Redis."""
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "chat-tests"}}
    caches["default"].clear()


@pytest.fixture
def table(db) -> Table:
    gm = factories.user("gm")
    campaign = factories.HomebrewCampaignFactory(game_master=gm, name="The table")
    players = {name: factories.user(name) for name in ("alice", "bob", "carol")}
    chars = {name: factories.CharacterFactory(campaign=campaign, owner=u, name=name.title())
             for name, u in players.items()}
    encounter = factories.EncounterFactory(campaign=campaign, name="Ambush")
    for name in ("alice", "bob"):
        factories.CombatantFactory(encounter=encounter, character=chars[name])
    ghoul = factories.CombatantFactory(encounter=encounter, name="Lurking ghoul", hidden=True)
    return Table(campaign, encounter, gm, players["alice"], players["bob"], players["carol"],
                 factories.user("stranger"), ghoul)
