"""Lasting spell effects: which shield holds now, and the cleanup of expired ones."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Max
from django.utils import timezone

from magic.models import ActiveEffect


def shield_of(character_id: int, now: datetime) -> int:
    """The strongest active shield on a character (shields do not add up): one query. Expired
    effects never count, whether or not the cleanup task has run."""
    return ActiveEffect.objects.filter(target_id=character_id, expires_at__gt=now).aggregate(
        best=Max("amount"))["best"] or 0


def effects_expire(*, now: datetime | None = None) -> int:
    """Delete expired effects in one statement (beat task). Returns how many."""
    deleted, _ = ActiveEffect.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


