"""campaigns.numbers.whole_number: ASCII digits only, the columns' range, the digits allowed."""

import pytest

from campaigns.numbers import INT_MAX, whole_number


@pytest.mark.parametrize("raw, expected", [
    ("0", 0), ("42", 42), ("-7", -7), (str(INT_MAX), INT_MAX), (str(-INT_MAX), -INT_MAX),
    (str(INT_MAX + 1), None), ("", None), (" 1", None), ("1.0", None), ("+1", None),
    ("²", None), ("\u0663", None), ("\uff11", None), ("-", None), ("00000000001", None)])
def test_whole_number(raw, expected):
    assert whole_number(raw) == expected


@pytest.mark.parametrize("raw, expected", [("999999999", 999999999), ("1000000000", None),
                                           ("-1", None), ("12", 12)])
def test_non_negative_with_fewer_digits(raw, expected):
    assert whole_number(raw, negative=False, digits=9) == expected
