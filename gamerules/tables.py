"""Rule tables as data: inclusive ranges mapped to values, read by one lookup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from collections.abc import Sequence
import itertools

V = TypeVar("V")


@dataclass(frozen=True)
class Band(Generic[V]):
    low: int
    high: int
    value: V


class RangeTable(Generic[V]):
    """Inclusive integer ranges -> values. Values past either end take the nearest band
    (the seeds give no row beyond their tables, so the last row stands for everything above)."""

    def __init__(self, bands: Sequence[tuple[int, int, V]]):
        ordered = sorted(bands, key=lambda b: b[0])
        if not ordered:
            raise ValueError("A table needs at least one band.")
        for lo, hi, _ in ordered:
            if lo > hi:
                raise ValueError(f"A band must not end before it starts: {lo}-{hi}.")
        for (lo, hi, _), (next_lo, _, _) in itertools.pairwise(ordered):
            if next_lo != hi + 1:
                raise ValueError(f"Bands must be contiguous: {lo}-{hi} then {next_lo}.")
        self.bands = tuple(Band(lo, hi, v) for lo, hi, v in ordered)

    def lookup(self, key: int) -> V:
        if key < self.bands[0].low:
            return self.bands[0].value
        for band in self.bands:
            if band.low <= key <= band.high:
                return band.value
        return self.bands[-1].value

    def as_rows(self) -> list[list[Any]]:
        return [[b.low, b.high, b.value] for b in self.bands]
