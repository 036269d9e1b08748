"""Whole numbers (and free text) read from forms and payloads, refused before they reach the
database.

``"²".isdigit()`` is true and ``int("²")`` fails, and a number past a column's range fails in
the database: both would be a 500 instead of a clear refusal.
"""

from __future__ import annotations

import re

INT_MAX = 2**31 - 1  # an integer column's range (PostgreSQL's integer): ids, positions, numbers

_DIGITS = re.compile(r"(-?)([0-9]+)")


def whole_number(raw: str, *, negative: bool = True, digits: int = 10) -> int | None:
    """``raw`` as a whole number written in ASCII digits (at most ``digits`` of them, a leading
    minus when ``negative``) within ±INT_MAX, else None."""
    match = _DIGITS.fullmatch(raw)
    if match is None or (match[1] and not negative) or len(match[2]) > digits:
        return None
    value = int(raw)
    return value if abs(value) <= INT_MAX else None


def posted_text(data, name: str, default: str = "") -> str:
    """The free text ``data[name]`` (a request's POST), ``default`` when absent. Raises
    campaigns.errors.InvalidInput when it holds a NUL byte: PostgreSQL stores none in a text
    column or a JSON summary (a 500 there); Django's forms and DRF's fields refuse it the
    same way, this is for the views that read the POST themselves."""
    from campaigns.errors import InvalidInput

    value = data.get(name, default)
    if "\x00" in value:
        raise InvalidInput()
    return value
