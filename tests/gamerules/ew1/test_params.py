"""gamerules.ew1.params.EW1Parameters: the seed's numbers and per-campaign overrides."""

import dataclasses
from decimal import Decimal

import pytest

from gamerules.errors import ParameterError, RuleError
from gamerules.ew1.params import EW1Parameters, is_time_zone


def test_no_overrides_gives_the_defaults():
    assert EW1Parameters.from_overrides(None) == EW1Parameters()
    assert EW1Parameters.from_overrides({}) == EW1Parameters()


@pytest.mark.parametrize(("name", "seed_value"), [
    ("pa_base", 12), ("pa_cap_levels_per_bonus", 10), ("pa_regen_hours", 2),
    ("pv_base", 100), ("pv_per_level", 2), ("pv_regen_hours", 6),
    ("move_cost_pa", Decimal("0.5")), ("brawl_cost_pa", Decimal("2")), ("move_xp", 1),
    ("hit_xp", 5), ("perfect_bonus_xp", 2), ("miss_xp", 1), ("dodge_xp", 2),
    ("perfect_below", 5), ("luck_divisor", 5), ("base_damage_reduction", 1), ("max_level", 100),
])
def test_defaults_are_the_seed_numbers(name, seed_value):
    assert getattr(EW1Parameters(), name) == seed_value


def test_an_override_replaces_only_its_field():
    params = EW1Parameters.from_overrides({"hit_xp": 15})
    assert params.hit_xp == 15
    assert dataclasses.replace(params, hit_xp=5) == EW1Parameters()


def test_unknown_key_is_refused():
    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({"fireball_damage": 3})
    assert info.value.errors == {"fireball_damage": "unknown parameter"}


@pytest.mark.parametrize(("name", "raw"), [
    ("hit_xp", "many"), ("hit_xp", 2.5), ("hit_xp", [5]), ("hit_xp", None), ("hit_xp", "1e3"),
    ("hit_xp", Decimal("2.5")), ("hit_xp", float("inf")),
    ("move_cost_pa", "abc"), ("move_cost_pa", None),
    ("move_cost_pa", "NaN"), ("move_cost_pa", float("nan")), ("move_cost_pa", "Infinity"),
])
def test_wrong_type_is_refused(name, raw):
    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({name: raw})
    assert set(info.value.errors) == {name}
    assert info.value.errors[name].startswith("expected a ")


@pytest.mark.parametrize(("name", "raw"), [("hit_xp", True), ("hit_xp", False),
                                           ("move_cost_pa", True)])
def test_bool_is_refused(name, raw):
    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({name: raw})
    assert set(info.value.errors) == {name}


@pytest.mark.parametrize(("name", "raw"), [
    ("hit_xp", 101), ("hit_xp", -1), ("perfect_below", 0), ("max_level", 101),
    ("move_cost_pa", "12.5"), ("move_cost_pa", -0.5),
])
def test_out_of_range_is_refused_with_the_bounds(name, raw):
    field = next(f for f in dataclasses.fields(EW1Parameters) if f.name == name)
    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({name: raw})
    low, high = field.metadata["low"], field.metadata["high"]
    assert info.value.errors == {name: f"must be between {low} and {high}"}


@pytest.mark.parametrize(("name", "raw"), [("hit_xp", 0), ("hit_xp", 100), ("perfect_below", 1)])
def test_range_bounds_are_inclusive(name, raw):
    assert getattr(EW1Parameters.from_overrides({name: raw}), name) == raw


@pytest.mark.parametrize("raw", ["0.5", 0.5, Decimal("0.5")])
def test_decimal_parameter_from_string_or_float(raw):
    value = EW1Parameters.from_overrides({"move_cost_pa": raw}).move_cost_pa
    assert isinstance(value, Decimal)
    assert value == Decimal("0.5")


@pytest.mark.parametrize("raw", ["7", 7.0, " 7 "])
def test_whole_number_parameter_from_string_or_whole_float(raw):
    value = EW1Parameters.from_overrides({"hit_xp": raw}).hit_xp
    assert value == 7
    assert isinstance(value, int)


def test_parameter_error_lists_every_bad_key_and_no_good_one():
    with pytest.raises(ParameterError) as info:
        EW1Parameters.from_overrides({"hit_xp": 500, "nope": 1, "miss_xp": "x", "dodge_xp": 3})
    error = info.value
    assert set(error.errors) == {"hit_xp", "nope", "miss_xp"}
    assert error.code == "invalid_parameter"
    assert isinstance(error, RuleError)
    for name, message in error.errors.items():
        assert f"{name}: {message}" in str(error)


def test_parameters_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        EW1Parameters().hit_xp = 15


def test_describe_has_one_row_per_parameter_with_its_default():
    rows = EW1Parameters.describe()
    defaults = EW1Parameters()
    assert [r["name"] for r in rows] == [f.name for f in dataclasses.fields(EW1Parameters)]
    for row in rows:
        assert row["default"] == getattr(defaults, row["name"])
        if row["kind"] == "zone":  # a time-zone name has no bounds
            assert (row["low"], row["high"]) == (None, None)
            assert is_time_zone(row["default"])
        else:
            assert row["kind"] == ("bool" if isinstance(row["default"], bool) else "number")
            assert row["low"] <= row["default"] <= row["high"]
        assert row["help"]
        assert row["label"] and row["label"] != row["name"]
