"""gamerules.parameters: the machinery every system's parameters share."""

import dataclasses
from decimal import Decimal
from typing import ClassVar

import pytest

from gamerules.errors import ParameterError
from gamerules.parameters import RuleParameters, param


@dataclasses.dataclass(frozen=True)
class Toy(RuleParameters):
    # "ratio" has no label: its name stands for it.
    labels: ClassVar[dict[str, str]] = {"dice": "Sides of the die", "enabled": "Enabled"}

    dice: int = param(6, 2, 100, "Sides.")
    ratio: Decimal = param(Decimal("1.5"), Decimal("0"), Decimal("10"), "A ratio.")
    enabled: bool = param(True, False, True, "A switch.")


def test_defaults_and_overrides():
    assert Toy.from_overrides(None) == Toy()
    params = Toy.from_overrides({"dice": "8", "ratio": 2.5, "enabled": False})
    assert (params.dice, params.ratio, params.enabled) == (8, Decimal("2.5"), False)
    assert params.overrides() == {"dice": 8, "ratio": Decimal("2.5"), "enabled": False}
    assert Toy().overrides() == {}


@pytest.mark.parametrize(("name", "raw", "message"), [
    ("enabled", 1, "expected a bool"), ("enabled", "true", "expected a bool"),
    ("dice", True, "expected a int"), ("ratio", False, "expected a Decimal"),
    ("dice", 1, "must be between 2 and 100"), ("ratio", "11", "must be between 0 and 10"),
    ("nope", 1, "unknown parameter"),
])
def test_bad_overrides_are_named(name, raw, message):
    with pytest.raises(ParameterError) as info:
        Toy.from_overrides({name: raw})
    assert info.value.errors == {name: message}


def test_describe_lists_each_parameter():
    assert Toy.describe() == [
        {"name": "dice", "label": "Sides of the die", "kind": "number", "default": 6, "low": 2,
         "high": 100, "help": "Sides."},
        {"name": "ratio", "label": "ratio", "kind": "number", "default": Decimal("1.5"),
         "low": Decimal("0"), "high": Decimal("10"), "help": "A ratio."},
        {"name": "enabled", "label": "Enabled", "kind": "bool", "default": True, "low": False,
         "high": True, "help": "A switch."},
    ]


def test_a_system_has_no_conflict_unless_it_says_so():
    assert Toy().conflicts() == []


def test_a_default_outside_its_bounds_is_a_programming_error():
    with pytest.raises(ValueError):
        param(0, 1, 10, "bad")


def test_grouped_refuses_a_name_that_is_no_parameter_or_in_two_groups():
    from dataclasses import dataclass

    from gamerules.parameters import OTHER_GROUP, RuleParameters, param

    @dataclass(frozen=True)
    class Two(RuleParameters):
        groups = (("A", ("a",)),)
        a: int = param(1, 0, 2, "a")
        b: int = param(1, 0, 2, "b")

    assert Two.grouped() == [("A", ["a"]), (OTHER_GROUP, ["b"])]  # the rest under "Other rules"

    @dataclass(frozen=True)
    class Unknown(Two):
        groups = (("A", ("a", "c")),)

    with pytest.raises(ValueError, match="'c' is no parameter"):
        Unknown.grouped()

    @dataclass(frozen=True)
    class Twice(Two):
        groups = (("A", ("a",)), ("B", ("a", "b")))

    with pytest.raises(ValueError, match="'a' is in two groups"):
        Twice.grouped()
