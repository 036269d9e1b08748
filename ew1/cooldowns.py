"""The suicide cooldown: where the suicide time is stored and how the block's end is derived.

A suicide stores only *when* it happened (``Character.suicided_at``); the end of the block is
always derived from the campaign's *current* ``suicide_cooldown_hours``, so a game master who
lowers (or raises) the parameter changes the blocks already running as well as later ones.
Source: 000_afeb9d2c9ccd2b72.txt, "Le suicide"; docs/rules/eternal-war-one-ii.md, "Suicide".
These functions read no database and write nothing (``cooldown_ended`` builds a filter).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from gamerules.ew1.params import EW1Parameters

# The Character fields the block is stored in (for ``update_fields`` and ``bulk_update``).
BLOCK_FIELDS = ("suicided_at",)


def reincarnation_available_at(character, params: EW1Parameters) -> datetime | None:
    """When ``character`` may reincarnate after its last suicide: ``suicided_at`` plus
    ``params.suicide_cooldown_hours`` hours (an aware datetime, possibly in the past), or None
    when no suicide blocks it (never suicided, or reincarnated since)."""
    if character.suicided_at is None:
        return None
    return character.suicided_at + timedelta(hours=params.suicide_cooldown_hours)


def suicides_released_by(params: EW1Parameters, now: datetime) -> datetime:
    """The latest ``suicided_at`` whose block has ended at ``now`` in a campaign with ``params``:
    ``Character.objects.filter(campaign=..., suicided_at__lte=suicides_released_by(params, now))``
    finds the characters free to reincarnate (one query per campaign)."""
    return now - timedelta(hours=params.suicide_cooldown_hours)


def cooldown_ended(*, params: EW1Parameters, now: datetime) -> Q:
    """A filter on Character of one campaign with ``params``: a suicide blocks it and the block
    has ended by ``now``."""
    return Q(suicided_at__isnull=False, suicided_at__lte=suicides_released_by(params, now))


def cooldown_clear(character) -> None:
    """Forget the character's ended block (in memory; save ``BLOCK_FIELDS``): from then on no
    beat finds it again, which is what makes the cooldown task handle each suicide once."""
    character.suicided_at = None
