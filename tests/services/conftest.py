"""Helpers for service tests: a scripted random source and a fixed clock. The snapshot that
proves a refused action changed nothing is tests.snapshots (the ``unchanged`` fixture)."""

from __future__ import annotations

from collections import deque
from datetime import datetime, UTC


from tests.snapshots import snapshot  # noqa: F401 - imported by the tests here

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


class FakeRandom:
    """A random source that returns the queued faces in order (and checks they fit the die)."""

    def __init__(self, *faces: int):
        self.faces = deque(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, f"the rule asked for one more die ({a}..{b}) than scripted"
        face = self.faces.popleft()
        assert a <= face <= b, f"scripted face {face} does not fit {a}..{b}"
        return face




