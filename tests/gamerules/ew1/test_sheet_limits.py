"""The limits of a sheet the game master writes (issue 19, item 2): gamerules.ew1.sheet_limits,
with the seed's skill maxima and the campaign's parameters."""

from decimal import Decimal

import pytest

from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.sheet_limits import sheet_problems
from gamerules.ew1.skills import SKILLS

P = EW1Parameters()
PLAYER = {"FOR": 10, "DEF": 10, "TAI": 13, "INT": 13, "DEX": 10, "LUK": 10}
CREATURE = {**PLAYER, "LUK": None}


def problems(*, player=True, params=P, **changes):
    values = dict(characteristics=dict(PLAYER if player else CREATURE),
                  skills={s.code: 20 for s in SKILLS}, level=0, pa=Decimal(12),
                  pa_max=Decimal(12), pv=100, pv_max=100,
                  fixed_reduction=None if player else 0)
    for name, value in changes.items():
        if name in PLAYER:
            values["characteristics"][name] = value
        elif name in values["skills"]:
            values["skills"][name] = value
        else:
            values[name] = value
    return {field: e.key for field, e in sheet_problems(player=player, params=params,
                                                        **values).items()}


def test_sheets_within_their_limits_pass():
    assert problems() == {} and problems(player=False) == {}
    assert problems(FOR=40, pv=-5, pa=0) == {}  # below 0 PV: disincarnated, allowed


@pytest.mark.parametrize("player,changes,found", [
    (False, {"pv": 100, "pv_max": 80}, {"pv": "pv_above_max"}),
    (False, {"pa": Decimal(15), "pa_max": Decimal(12)}, {"pa": "pa_above_max"}),
    (True, {"FOR": 41}, {"FOR": "characteristic_above_max"}),
    (True, {"level": 101}, {"level": "level_above_max"}),
    (True, {"pv_max": 0}, {"pv_max": "pv_max_least_1"}),
    (False, {"LUK": 10}, {"LUK": "luck_players_only"}),
    (True, {"LUK": None}, {"LUK": "luck_needed"}),
    (True, {"fixed_reduction": 2}, {"fixed_reduction": "reduction_pieces_only"}),
    (False, {"fixed_reduction": None}, {"fixed_reduction": "reduction_needed"}),
])
def test_each_limit_names_its_field(player, changes, found):
    assert problems(player=player, **changes) == found


@pytest.mark.parametrize("rule", SKILLS, ids=lambda r: r.code)
def test_every_skill_stops_at_its_seed_maximum(rule):
    assert problems(**{rule.code: rule.maximum}) == {}
    assert problems(**{rule.code: rule.maximum + 1}) == {rule.code: "skill_above_max"}


def test_the_campaign_sets_the_characteristic_and_level_maxima():
    wide = EW1Parameters(characteristic_max=60, max_level=10)
    assert problems(params=wide, FOR=60) == {}
    assert problems(params=wide, level=11) == {"level": "level_above_max"}
