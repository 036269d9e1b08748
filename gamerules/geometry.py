"""Distances on a square grid."""

from __future__ import annotations


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Cells between ``a`` and ``b`` when a diagonal step counts as one (king's moves)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
