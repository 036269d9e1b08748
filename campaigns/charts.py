"""The geometry of the odds' drawings (issue 21, item 3): a stacked bar of an attack's outcomes
and a histogram of a distribution, drawn as inline SVG by campaigns.templatetags.odds_charts.
Pure: exact chances (Fractions) in, numbers ready for SVG attributes out.

The drawings use a viewBox of ``WIDTH`` x ``HEIGHT`` user units stretched to the page's width
by the stylesheet (static/css/app.css, ``svg.odds-chart``); lengths are written as strings
with a dot (an attribute must not follow the reader's locale, "12,5" is no length) and colours
come from classes (the Content-Security-Policy allows no style attribute). Each part carries
its chance as text (``percent``, one decimal, as the tables beside them) for its ``<title>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Mapping, Sequence

WIDTH = 100  # user units: a bar's segment is its chance in percent wide
HEIGHT = 40  # user units: a histogram's tallest column


def percent(p: Fraction) -> str:
    """``p`` in percent with one decimal: Fraction(1, 8) -> "12.5"."""
    return f"{float(p) * 100:.1f}"


def _length(x: Fraction) -> str:
    return f"{float(x):.3f}"


@dataclass(frozen=True)
class Segment:
    """One part of a stacked bar: ``key`` (its CSS class: odds-<key>), its ``label`` (in the
    reader's language), the chance ``p``, its ``x`` and ``width`` in user units (strings for
    the attributes), ``percent`` as text."""

    key: str
    label: str
    p: Fraction
    x: str
    width: str
    percent: str


def stacked_bar(parts: Sequence[tuple[str, str, Fraction]]) -> list[Segment]:
    """The segments of a bar ``WIDTH`` units long, one per (key, label, chance) in order, each
    as long as its chance (chances summing to 1 fill the bar; none is drawn for a 0 chance).
    Raises ValueError for a negative chance or chances summing over 1."""
    if any(p < 0 for _, _, p in parts) or sum((p for _, _, p in parts), Fraction(0)) > 1:
        raise ValueError("chances must be >= 0 and sum to at most 1")
    segments, at = [], Fraction(0)
    for key, label, p in parts:
        if p:
            segments.append(Segment(key, label, p, _length(at * WIDTH), _length(p * WIDTH),
                                    percent(p)))
        at += p
    return segments


@dataclass(frozen=True)
class Column:
    """One column of a histogram: the ``value`` (a damage, a number of wounds), its chance
    ``p``, ``x``/``width`` and ``y``/``height`` in user units (the tallest column is ``HEIGHT``
    high, standing on the bottom line), ``percent`` as text."""

    value: int
    p: Fraction
    x: str
    width: str
    y: str
    height: str
    percent: str


@dataclass(frozen=True)
class Histogram:
    """Columns side by side over every value from ``low`` to ``high`` (a missing value leaves
    its gap), ``WIDTH`` units wide in all; ``columns`` only for the values with a chance."""

    low: int
    high: int
    columns: list[Column]

    @property
    def width(self) -> int:
        return WIDTH

    @property
    def height(self) -> int:
        return HEIGHT


def histogram(distribution: Mapping[int, Fraction]) -> Histogram | None:
    """The histogram of ``distribution`` (value -> chance), scaled to its most likely value;
    None when it has no value with a chance."""
    shown = {v: p for v, p in distribution.items() if p > 0}
    if not shown:
        return None
    low, high = min(shown), max(shown)
    step = WIDTH / (high - low + 1)  # the geometry in floats: the chances stay exact
    floats = {v: float(p) for v, p in shown.items()}  # each Fraction turned once
    top = max(floats.values())
    width = f"{step:.3f}"
    columns = []
    for value in sorted(shown):
        f = floats[value]
        h = f / top * HEIGHT
        columns.append(Column(value, shown[value], f"{(value - low) * step:.3f}", width,
                              f"{HEIGHT - h:.3f}", f"{h:.3f}", f"{f * 100:.1f}"))
    return Histogram(low, high, columns)
