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


def effects_expire(*, now: datetime | None = None, targets: list[int] | None = None) -> int:
    """Delete expired effects in one statement (beat task). Returns how many; ``targets``,
    when given, receives the characters they were on (one query more: the beat task
    announces their pages)."""
    expired = ActiveEffect.objects.filter(expires_at__lte=now or timezone.now())
    if targets is not None:
        targets.extend(expired.values_list("target_id", flat=True).distinct())
    deleted, _ = expired.delete()
    return deleted


