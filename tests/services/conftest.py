"""Helpers for service tests: a scripted random source, a fixed clock and a snapshot of everything
an action may change (to prove that a refused action changed nothing)."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timezone

import pytest

from campaigns.models import ActionRecord, RollRecord
from characters.models import Character, EternalWarSheet

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


class FakeRandom:
    """A random source that returns the queued faces in order (and checks they fit the die)."""

    def __init__(self, *faces: int):
        self.faces = deque(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, f"the rule asked for one more die ({a}..{b}) than scripted"
        face = self.faces.popleft()
        assert a <= face <= b, f"scripted face {face} does not fit {a}..{b}"
        return face


CHARACTER_FIELDS = ("board_id", "x", "y", "first_action_at", "last_action_at", "deaths", "kills")
SHEET_FIELDS = ("pa", "pa_max", "pa_anchor", "pv", "pv_max", "pv_anchor", "xp", "level")


def snapshot() -> dict:
    """Every character's position and sheet numbers, and the journal's size."""
    return {
        "characters": {c["id"]: c for c in Character.objects.values("id", *CHARACTER_FIELDS)},
        "sheets": {s["character_id"]: s
                   for s in EternalWarSheet.objects.values("character_id", *SHEET_FIELDS)},
        "actions": ActionRecord.objects.count(),
        "rolls": RollRecord.objects.count(),
    }


@pytest.fixture
def unchanged():
    """``with unchanged(): <refused action>`` fails unless nothing at all changed."""
    from contextlib import contextmanager

    @contextmanager
    def check():
        before = snapshot()
        yield
        assert snapshot() == before

    return check
