"""What the beat tasks' bulk statements changed, announced to the live pages (campaigns.live,
issue 17, item 7): the regeneration tick, the daily PA reset, the expired effects, the
cooldowns released. A bulk statement names no piece to campaigns.versions, so its task
announces the topics itself, once each, after its bump of the epoch (a board's refetch reads
the versions first: announced before the bump, it could answer "nothing changed")."""

from __future__ import annotations

from collections.abc import Iterable

from campaigns import live
from campaigns.versions import board_topic
from characters.models import Character

CHUNK = 1000  # character ids per query


def announce_pieces(character_ids: Iterable[int]) -> None:
    """Announce the board topics of the campaigns of ``character_ids`` (one query per CHUNK
    ids; none for no id), then each character's own topic (its sheet pages, its own board
    page): once each, on commit (at once outside a transaction)."""
    ids = sorted(set(character_ids))
    campaigns: set[int] = set()
    for start in range(0, len(ids), CHUNK):
        campaigns.update(Character.objects.filter(pk__in=ids[start:start + CHUNK])
                         .values_list("campaign_id", flat=True).distinct())
    live.announce_all([*(board_topic(pk) for pk in sorted(campaigns)),
                       *(live.topic("character", pk) for pk in ids)])
