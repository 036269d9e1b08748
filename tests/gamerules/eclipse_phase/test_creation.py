"""A new ego's budget (gamerules.eclipse_phase.creation): 105 points, each aptitude 5-30."""

import pytest

from gamerules.eclipse_phase.creation import validate_creation
from gamerules.eclipse_phase.errors import InvalidSheet
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude

P = EclipsePhaseParameters()
EVEN = {a: 15 for a in Aptitude}


def test_an_even_spread_of_105_points_is_an_ego_with_the_default_moxie():
    ego = validate_creation("Nova", EVEN, {"fray": 40}, P)
    assert ego.moxie == 3 and ego.skills == {"fray": 40}


@pytest.mark.parametrize("cog, wil, key", [(5, 25, None), (30, 0, "creation_aptitude_range"),
                                           (4, 26, "creation_aptitude_range"),
                                           (31, -1, "creation_aptitude_range"),
                                           (16, 15, "creation_aptitude_points"),
                                           (14, 15, "creation_aptitude_points")])
def test_the_bounds_and_the_budget(cog, wil, key):
    spread = {**EVEN, Aptitude.COG: cog, Aptitude.WIL: wil}
    if key is None:
        validate_creation("Nova", spread, {}, P)
        return
    with pytest.raises(InvalidSheet) as exc:
        validate_creation("Nova", spread, {}, P)
    assert exc.value.key == key


def test_no_budget_when_the_campaign_sets_zero_points():
    free = EclipsePhaseParameters.from_overrides({"creation_aptitude_points": 0})
    validate_creation("Nova", {**EVEN, Aptitude.COG: 30}, {}, free)


def test_an_unknown_skill_needs_its_aptitude():
    with pytest.raises(InvalidSheet) as exc:
        validate_creation("Nova", EVEN, {"pilot_groundcraft": 30}, P)
    assert exc.value.key == "unknown_skill_name"
    validate_creation("Nova", EVEN, {"pilot_groundcraft": 30}, P,
                      skill_aptitudes={"pilot_groundcraft": Aptitude.REF})
