"""Versions of what a campaign's pages show, kept in the shared cache (Redis in production), so
that a poll can tell "nothing changed" without reading the game's tables.

Two counters: one per campaign, bumped after every journaled action in it (``record_action``)
and every write that is not journaled but shows on its boards (equipping); and one epoch for
everything, bumped by the beat tasks (regeneration, expired effects, creatures) and by every
admin edit (a game master may change anything, a spell or an item template of every campaign).

A bump runs after the transaction commits: a reader that reads the version *before* the data
can then never pair a new version with old data (it may pair an old version with new data,
which only costs one more render). A counter missing from the cache (evicted, Redis restarted)
is created at a random value, so a version handed out before never matches again.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction

EPOCH = "versions:epoch"


def _campaign_key(campaign_id: int) -> str:
    return f"versions:campaign:{campaign_id}"


def _fresh() -> int:
    return secrets.randbits(62)


def _incr(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # missing: any new value differs from every version handed out
        cache.add(key, _fresh(), timeout=None)


def version_bump(*, campaign_id: int | None) -> None:
    """After the current transaction commits, bump ``campaign_id``'s version (the epoch when
    None). A cache failure is logged, never raised into the action that already committed."""
    key = EPOCH if campaign_id is None else _campaign_key(campaign_id)
    transaction.on_commit(lambda: _incr(key), robust=True)


def versions_get(*, campaign_id: int) -> tuple[int, int]:
    """(campaign version, epoch): one cache round trip (no SQL with Redis). Counters missing
    from the cache are created first."""
    keys = [_campaign_key(campaign_id), EPOCH]
    found = cache.get_many(keys)
    for key in keys:
        if key not in found:
            cache.add(key, _fresh(), timeout=None)
            found[key] = cache.get(key)
    return found[keys[0]], found[keys[1]]


def bump_on_admin_edit(sender, instance, created, **kwargs) -> None:
    """post_save of the admin's LogEntry: any edit through /admin/ moves the epoch."""
    version_bump(campaign_id=None)
