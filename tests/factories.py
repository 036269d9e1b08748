"""Test data built through the real services, with seeded dice."""

from __future__ import annotations

import random
from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.models import Board, Campaign, RuleSystem
from characters.models import Character
from characters.services import character_create
from ew1.models import EternalWarSheet

PASSWORD = "a-long-test-password-42"


def user(username: str, **extra):
    return get_user_model().objects.create_user(username, f"{username}@example.invalid", PASSWORD,
                                                **extra)


def campaign(*, name: str = "Test campaign", width: int = 10, height: int = 10,
             rule_system: str = RuleSystem.ETERNAL_WAR, **params) -> Campaign:
    c = Campaign.objects.create(name=name, rule_system=rule_system, rule_parameters=params)
    Board.objects.create(campaign=c, width=width, height=height)
    return c


def character(*, owner, campaign: Campaign, name: str, at: tuple[int, int] | None = None,
              seed: int = 7, acted: bool = True, now: datetime | None = None,
              **sheet_fields) -> Character:
    """A character made by ``character_create``; ``at`` moves it to that cell, ``acted`` marks
    its first action done (so it can be attacked), ``sheet_fields`` overwrite sheet values."""
    now = now or timezone.now()
    c = character_create(user=owner, campaign=campaign, name=name, rng=random.Random(seed),
                         now=now)
    updates = {}
    if at is not None:
        Character.objects.filter(pk=c.pk).update(board=None, x=None, y=None)
        updates.update(board=campaign.board, x=at[0], y=at[1])
    if acted:
        updates["first_action_at"] = now
    if updates:
        Character.objects.filter(pk=c.pk).update(**updates)
    if sheet_fields:
        EternalWarSheet.objects.filter(pk=c.pk).update(**sheet_fields)
    return Character.objects.select_related("ew1", "board", "campaign").get(pk=c.pk)
