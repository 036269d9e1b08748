"""Versions of what boards show, kept in the shared cache (Redis in production), so that a poll
can tell "nothing in view changed" without reading the game's tables (combat.polls).

Four kinds of counter:

- a **tile** version per square of TILE x TILE cells of a board: bumped after an action by or
  on a piece standing there (and the tiles around it, so that a piece's previous cell, one step
  away, is covered too). A board view reads the tiles its square of cells overlaps, so actions
  elsewhere on the board leave its polls at 204;
- a **character** version per piece: bumped with the tiles, for the board of that very
  character (its sheet and journal show there even while it is off the board);
- a **campaign** version: bumped when a change may show on any board of the campaign or its
  place is unknown (a piece leaving the board, a spell's zone, a faction's members, an item
  equipped or a spell learned off the board...);
- an **epoch** for everything: the beat tasks (regeneration, expired effects, creatures) and
  every admin edit (a game master may change anything, a spell or an item template).

Each bump of a campaign's counters also announces, on commit, the live topics of what changed
(campaigns.live): ``board-<campaign id>`` (every board page of the campaign; a page whose view
did not change gets its poll's 204) and ``character-<id>`` of the pieces named (their sheets).
The epoch's bumps announce nothing: a beat task names what its bulk statements changed itself
(live_boards, and the system's own announcements), once per topic, after its bump of the epoch.

A bump runs after the transaction commits: a reader that reads the versions *before* the data
can then never pair a new version with old data (it may pair an old version with new data, which
only costs one more render). A counter missing from the cache (evicted, Redis restarted) is
created at a random value, so a version handed out before never matches again.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from campaigns import live

TILE = 8  # cells per side of a tile
EPOCH = "versions:epoch"
# Actions whose effects reach past the pieces named in the journal: the whole campaign (a
# faction's bonus reaches every member in view; a zone spell names no single target).
CAMPAIGN_WIDE_PREFIXES = ("faction_",)
ZONE_KINDS = ("cast",)


def _campaign_key(campaign_id: int) -> str:
    return f"versions:campaign:{campaign_id}"


def _character_key(character_id: int) -> str:
    return f"versions:character:{character_id}"


def _tile_key(board_id: int, tx: int, ty: int) -> str:
    return f"versions:board:{board_id}:{tx}:{ty}"


def _fresh() -> int:
    return secrets.randbits(62)


def _incr(keys: Iterable[str]) -> None:
    for key in keys:
        try:
            cache.incr(key)
        except ValueError:  # missing: any new value differs from every version handed out
            cache.add(key, _fresh(), timeout=None)


def _after_commit(keys: list[str]) -> None:
    # robust: a cache failure is logged, never raised into an action that already committed.
    transaction.on_commit(lambda: _incr(keys), robust=True)


def tiles_of_box(x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int]:
    """The tiles (tx0, ty0, tx1, ty1, inclusive) that cells x0..x1, y0..y1 overlap."""
    return x0 // TILE, y0 // TILE, x1 // TILE, y1 // TILE


def _tiles_around(board_id: int, x: int, y: int) -> list[str]:
    tx0, ty0, tx1, ty1 = tiles_of_box(x - 1, y - 1, x + 1, y + 1)
    return [_tile_key(board_id, tx, ty) for tx in range(tx0, tx1 + 1)
            for ty in range(ty0, ty1 + 1)]


def version_bump(*, campaign_id: int | None) -> None:
    """After commit, bump ``campaign_id``'s version (every board of it), or the epoch (every
    board) when None."""
    _after_commit([EPOCH if campaign_id is None else _campaign_key(campaign_id)])
    if campaign_id is not None:
        live.announce(board_topic(campaign_id))


def board_topic(campaign_id: int) -> str:
    """The live topic of a campaign's board pages, ``board-<campaign id>``."""
    return live.topic("board", campaign_id)


def live_boards(campaign_ids) -> None:
    """Announce the board topics of ``campaign_ids`` (a beat task's changed campaigns), after
    the beat's bump of the epoch (a refetch reads the versions)."""
    live.announce_all(board_topic(pk) for pk in campaign_ids)



def version_bump_pieces(*, campaign_id: int, actor=None, target=None, kind: str = "") -> None:
    """After commit, bump ``actor``'s and ``target``'s own versions (Characters, or None) and
    the tiles where they stand and the cells next to them; the whole campaign instead when one
    of them is off the board, or when ``kind`` reaches further than the journal says (a faction
    operation; a spell cast without a single target)."""
    pieces = [p for p in (actor, target) if p is not None]
    wide = kind.startswith(CAMPAIGN_WIDE_PREFIXES) or (kind in ZONE_KINDS and target is None)
    if wide or any(p.board_id is None or p.x is None or p.y is None for p in pieces):
        keys = [_campaign_key(campaign_id)]
    else:
        keys = sorted({key for p in pieces for key in _tiles_around(p.board_id, p.x, p.y)})
    _after_commit(keys + [_character_key(p.pk) for p in pieces])
    live.announce_all([board_topic(campaign_id), *(live.topic("character", p.pk) for p in pieces)])


def versions_get(*, campaign_id: int, character_id: int, board_id: int | None = None,
                 tiles: tuple[int, int, int, int] | None = None) -> tuple[int, ...]:
    """(campaign version, epoch, the character's version, then each tile of ``tiles`` row by
    row): one cache round trip (no SQL with Redis). Counters missing from the cache are created
    first."""
    keys = [_campaign_key(campaign_id), EPOCH, _character_key(character_id)]
    if board_id is not None and tiles is not None:
        tx0, ty0, tx1, ty1 = tiles
        keys += [_tile_key(board_id, tx, ty) for ty in range(ty0, ty1 + 1)
                 for tx in range(tx0, tx1 + 1)]
    found = cache.get_many(keys)
    for key in keys:
        if key not in found:
            cache.add(key, _fresh(), timeout=None)
            found[key] = cache.get(key)
    return tuple(found[key] for key in keys)


def bump_on_admin_edit(sender, instance, created, **kwargs) -> None:
    """post_save of the admin's LogEntry: any edit through /admin/ moves the epoch."""
    version_bump(campaign_id=None)
