"""Where the suicide block of a character is read: the one place to change if the block's storage
changes (issue 8, item 3 may store the suicide time and derive the end from the campaign's
current ``suicide_cooldown_hours``; then only these functions follow it)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from characters.models import Character
from gamerules.ew1.params import EW1Parameters

# The Character fields the block is stored in (for ``update_fields`` and ``bulk_update``).
BLOCK_FIELDS = ("reincarnation_blocked_until",)


def cooldown_ended(*, params: EW1Parameters, now: datetime) -> Q:
    """A filter on Character: a suicide block is set and has ended by ``now`` (the campaign's
    ``params`` are unused while the end itself is stored)."""
    return Q(reincarnation_blocked_until__isnull=False, reincarnation_blocked_until__lte=now)


def cooldown_clear(character: Character) -> None:
    """Forget the character's ended block (in memory; save ``BLOCK_FIELDS``): from then on no
    beat finds it again, which is what makes the cooldown task handle each suicide once."""
    character.reincarnation_blocked_until = None
