"""Parameters that read each other (issue 19, item 1): each system names the combinations
that leave its rules unplayable, with the parameters concerned and a message with its values.
The defaults have none; ``from_overrides`` still reads a conflicting campaign (it keeps
playing; the admin refuses to save one)."""

from __future__ import annotations

from dataclasses import fields
from decimal import Decimal

import pytest

from gamerules.eclipse_phase.params import APTITUDE_COUNT, EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude
from gamerules.errors import ParameterConflict
from gamerules.ew1.params import EW1Parameters
from gamerules.homebrew.params import HomebrewParameters

SYSTEMS = [EW1Parameters, HomebrewParameters, EclipsePhaseParameters]


@pytest.mark.parametrize("cls", SYSTEMS)
def test_every_parameter_has_a_label_and_the_defaults_no_conflict(cls):
    assert set(cls.labels) == {f.name for f in fields(cls)}
    assert len(set(cls.labels.values())) == len(cls.labels)
    assert cls().conflicts() == []


def test_the_counts_are_the_rules():
    assert len(Aptitude) == APTITUDE_COUNT


def names(conflicts) -> list[tuple[str, ...]]:
    assert all(isinstance(c, ParameterConflict) and c.code == "parameter_conflict"
               for c in conflicts)
    return [c.names for c in conflicts]


def test_homebrew_budget_against_the_caps():
    params = HomebrewParameters(characteristic_points=200, characteristic_max=40)
    [conflict] = params.conflicts()
    assert conflict.names[0] == "characteristic_points"
    assert conflict.params == {"points": 200, "high": 40, "most": 120}
    assert HomebrewParameters.from_overrides({"characteristic_points": 200,
                                              "characteristic_max": 40}) == params  # still read
    # At most the budget: the caps no longer bind; the minima always do.
    assert HomebrewParameters(characteristic_points=200, characteristic_max=40,
                              spend_all_points=False).conflicts() == []
    assert HomebrewParameters(characteristic_points=120, characteristic_max=40).conflicts() == []
    assert names(HomebrewParameters(characteristic_min=60).conflicts()) == [
        ("characteristic_points", "characteristic_min")]  # 3 x 60 = 180 > 170
    assert names(HomebrewParameters(characteristic_min=60, characteristic_max=50).conflicts()) \
        == [("characteristic_min", "characteristic_max")]


def test_ew1_costs_against_the_pa_caps():
    assert names(EW1Parameters(magic_cost_pa=Decimal("12"), pa_base=11, max_level=9
                               ).conflicts()) == [
        ("magic_cost_pa", "pa_base", "pa_cap_levels_per_bonus", "max_level")]
    # The cap grows with the levels: 11 + 100 // 10 = 21 PA at the highest level.
    assert EW1Parameters(magic_cost_pa=Decimal("12"), pa_base=11).conflicts() == []
    [daily] = EW1Parameters(daily_pa_cap=1).conflicts()[:1]
    assert daily.names == ("brawl_cost_pa", "daily_pa_cap")
    assert EW1Parameters(daily_pa_cap=0, pa_base=12).conflicts() == []  # 0: no daily cap


def test_eclipse_phase_contradictions():
    assert names(EclipsePhaseParameters(creation_aptitude_points=300).conflicts()) == [
        ("creation_aptitude_points", "creation_aptitude_min", "creation_aptitude_max")]
    assert EclipsePhaseParameters(creation_aptitude_points=0, creation_aptitude_min=30
                                  ).conflicts() == []  # no budget
    assert EclipsePhaseParameters(creation_aptitude_points=7 * 30).conflicts() == []
    assert names(EclipsePhaseParameters(superb_margin=30).conflicts()) == [
        ("superb_margin", "excellent_margin")]
    assert names(EclipsePhaseParameters(walk_m=21).conflicts()) == [("run_m", "walk_m")]
    assert names(EclipsePhaseParameters(low_gravity_g=Decimal("1.2")).conflicts()) == [
        ("low_gravity_g", "high_gravity_g")]
