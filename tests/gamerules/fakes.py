"""Scripted randomness for rule tests."""

from __future__ import annotations


class FakeRandom:
    """A random source that returns queued faces, in order.

    Each ``randint(a, b)`` pops the next queued face and checks it is a face that die could show,
    so a test that queues the wrong die fails loudly instead of passing by accident.
    """

    def __init__(self, *faces: int):
        self.queue = list(faces)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.queue, f"no face queued for randint({a}, {b})"
        value = self.queue.pop(0)
        assert a <= value <= b, f"queued face {value} cannot come from randint({a}, {b})"
        self.calls.append((a, b))
        return value

    @property
    def exhausted(self) -> bool:
        return not self.queue
