"""HomebrewParameters: the seed's numbers as defaults, on the shared machinery."""

from decimal import Decimal

import pytest

from gamerules.errors import ParameterError
from gamerules.homebrew.params import HomebrewParameters
from gamerules.parameters import RuleParameters


@pytest.mark.parametrize(("name", "seed_value"), [
    ("characteristic_points", 170), ("sub_max", 6), ("sub_test_sides", 6),
    ("critical_success_max", 5), ("critical_failure_min", 96),
    ("crit_multiplier_d3", Decimal("4")), ("crit_multiplier_d4", Decimal("3")),
    ("crit_multiplier_d5_d6", Decimal("1.75")), ("crit_multiplier_d7_d8", Decimal("1.5")),
    ("short_rest_hp", 2), ("short_rest_mp", 1), ("medium_rest_hp", 5), ("medium_rest_mp", 3),
    ("enemies_die_at_zero", True),
])
def test_defaults_are_the_seed_numbers(name, seed_value):
    assert getattr(HomebrewParameters(), name) == seed_value


def test_built_on_the_shared_machinery():
    assert issubclass(HomebrewParameters, RuleParameters)
    params = HomebrewParameters.from_overrides({"hp_max_default": 30, "defensive_round_up": False})
    assert (params.hp_max_default, params.defensive_round_up) == (30, False)
    with pytest.raises(ParameterError) as info:
        HomebrewParameters.from_overrides({"sub_max": 21, "defensive_round_up": 1, "x": 1})
    assert info.value.errors == {"sub_max": "must be between 0 and 20",
                                 "defensive_round_up": "expected a bool",
                                 "x": "unknown parameter"}
    assert all(row["help"] for row in HomebrewParameters.describe())
