"""Positions on the encounter's ground: points in metres (x, y), to the centimetre.

Pure: exact decimal arithmetic, so that a distance exactly at a limit (a 4 m walk, a range
band's edge) is never lost to floating point. Distances are straight lines on a flat ground
(no grid, no obstacles: the table judges those). Choices in docs/encounters.md ("Positions").
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from gamerules.encounter.errors import EncounterError
from gamerules.errors import gettext_noop

LIMIT_M = Decimal(10_000)  # |x| and |y| at most this many metres
CENTIMETRE = Decimal("0.01")

MESSAGES: dict[str, str] = {
    "position_not_number": gettext_noop("A position is two numbers of metres (%(value)r)."),
    "position_out_of_bounds": gettext_noop(
        "A position stays within %(limit)s m of the centre of the ground (%(value)s)."),
    "position_needs_both": gettext_noop("A position needs both x and y, or neither."),
}


class PositionError(EncounterError):
    code = "position_not_number"
    messages = MESSAGES
    status = 400


@dataclass(frozen=True)
class Point:
    x: Decimal
    y: Decimal

    def as_floats(self) -> tuple[float, float]:
        return float(self.x), float(self.y)


def coordinate(value: object) -> Decimal:
    """One coordinate in metres (a number or its text, "," or "." as the decimal mark),
    rounded to the centimetre. Raises PositionError: not a number, or beyond LIMIT_M."""
    text = str(value).strip().replace(",", ".") if not isinstance(value, Decimal) else value
    try:
        number = Decimal(text)
    except (InvalidOperation, ValueError):
        raise PositionError(code="position_not_number", value=str(value)) from None
    if not number.is_finite():
        raise PositionError(code="position_not_number", value=str(value))
    if abs(number) > LIMIT_M + 1:  # before rounding: quantize fails past the context's digits
        raise PositionError(code="position_out_of_bounds", limit=int(LIMIT_M), value=str(value))
    number = number.quantize(CENTIMETRE, rounding=ROUND_HALF_EVEN)
    if abs(number) > LIMIT_M:
        raise PositionError(code="position_out_of_bounds", limit=int(LIMIT_M), value=str(number))
    return number


def point(x: object, y: object) -> Point | None:
    """A Point from two coordinates; None when both are missing (None or empty text). Raises
    PositionError for one without the other, and as ``coordinate``."""
    blank_x, blank_y = x is None or str(x).strip() == "", y is None or str(y).strip() == ""
    if blank_x and blank_y:
        return None
    if blank_x or blank_y:
        raise PositionError(code="position_needs_both")
    return Point(coordinate(x), coordinate(y))


def squared(a: Point, b: Point) -> Decimal:
    return (a.x - b.x) ** 2 + (a.y - b.y) ** 2


def distance(a: Point, b: Point) -> Decimal:
    """The straight-line distance in metres (exact for a whole or decimal result: 3-4-5)."""
    return squared(a, b).sqrt()


def within(a: Point, b: Point, metres: float | int | Decimal) -> bool:
    """Whether ``b`` is at most ``metres`` from ``a`` (exact: compared squared)."""
    limit = Decimal(str(metres))
    return squared(a, b) <= limit * limit
