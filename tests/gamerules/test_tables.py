"""gamerules.tables.RangeTable: inclusive bands read by one lookup."""

import pytest

from gamerules.tables import Band, RangeTable

BANDS = [(1, 5, "a"), (6, 10, "b"), (11, 20, "c")]


@pytest.fixture
def table():
    return RangeTable(BANDS)


@pytest.mark.parametrize("bands", [
    [(1, 5, "a"), (7, 9, "b")],  # gap
    [(1, 5, "a"), (5, 9, "b")],  # overlap
    [(1, 5, "a"), (3, 9, "b")],  # band inside another
    [(1, 5, "a"), (1, 3, "b")],  # same start
])
def test_bands_that_are_not_contiguous_are_refused(bands):
    with pytest.raises(ValueError, match="contiguous"):
        RangeTable(bands)


@pytest.mark.parametrize("bands", [
    [(5, 1, "a")],
    [(5, 1, "a"), (2, 9, "b")],
    [(1, 5, "a"), (6, 3, "b")],  # the last band is checked too
])
def test_a_band_ending_before_it_starts_is_refused(bands):
    with pytest.raises(ValueError, match=r"ends? before it starts"):
        RangeTable(bands)


def test_a_table_without_bands_is_refused():
    with pytest.raises(ValueError, match="at least one band"):
        RangeTable([])


@pytest.mark.parametrize(("key", "expected"), [
    (1, "a"), (5, "a"), (6, "b"), (10, "b"), (11, "c"), (20, "c"),
])
def test_lookup_at_each_band_boundary(table, key, expected):
    assert table.lookup(key) == expected


def test_lookup_of_every_key_in_the_table_returns_its_band(table):
    for low, high, value in BANDS:
        assert [table.lookup(k) for k in range(low, high + 1)] == [value] * (high - low + 1)


@pytest.mark.parametrize("key", [0, -1, -10**6])
def test_key_below_the_first_band_takes_the_first_value(table, key):
    assert table.lookup(key) == "a"


@pytest.mark.parametrize("key", [21, 10**6])
def test_key_above_the_last_band_takes_the_last_value(table, key):
    assert table.lookup(key) == "c"


def test_bands_given_out_of_order_are_sorted():
    shuffled = RangeTable([BANDS[2], BANDS[0], BANDS[1]])
    assert shuffled.bands == tuple(Band(*b) for b in BANDS)
    assert shuffled.lookup(7) == "b"


def test_single_band_table_answers_every_key():
    single = RangeTable([(3, 3, "only")])
    assert [single.lookup(k) for k in (-5, 3, 99)] == ["only"] * 3


def test_as_rows_gives_the_bands_as_lists(table):
    assert table.as_rows() == [list(b) for b in BANDS]
