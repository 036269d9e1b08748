"""gamerules.ew1.progression: levels from XP, PA cap, PV max, damage-reduction rolls."""

import pytest

from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import (
    SEED_THRESHOLDS, damage_reduction_rolls, level_for_xp, level_progress, pa_cap, pv_max,
    xp_thresholds,
)
import itertools

P = EW1Parameters()


# --- XP thresholds ---------------------------------------------------------------------------

@pytest.mark.parametrize(("xp", "level"), [
    (0, 0), (1, 1), (100, 1), (101, 2), (200, 2), (201, 3), (300, 3), (301, 4), (410, 4),
    (411, 5), (50_001, 99), (100_000, 99), (100_001, 100), (10**9, 100),
])
def test_level_for_xp_at_the_seed_points(xp, level):
    assert level_for_xp(xp) == level


def test_negative_xp_is_level_0():
    assert level_for_xp(-5) == 0


def test_thresholds_cover_levels_0_to_100():
    assert len(xp_thresholds()) == 101


def test_thresholds_strictly_increase():
    t = xp_thresholds()
    assert all(a < b for a, b in itertools.pairwise(t))


def test_thresholds_keep_every_seed_value():
    t = xp_thresholds()
    assert {level: t[level] for level in SEED_THRESHOLDS} == {
        0: 0, 1: 1, 2: 101, 3: 201, 4: 301, 5: 411, 99: 50_001, 100: 100_001}


def test_level_costs_grow_between_levels_5_and_99():
    t = xp_thresholds()
    costs = [t[lvl + 1] - t[lvl] for lvl in range(4, 99)]  # 110 (level 4->5) ... level 98->99
    assert costs[0] == 411 - 301
    assert all(a <= b for a, b in itertools.pairwise(costs))


def test_each_level_starts_at_its_threshold():
    t = xp_thresholds()
    for level in range(1, 101):
        assert level_for_xp(t[level]) == level
        assert level_for_xp(t[level] - 1) == level - 1


def test_level_for_xp_accepts_a_campaign_table():
    table = (0, 10, 20)
    assert [level_for_xp(x, table) for x in (0, 9, 10, 19, 20, 999)] == [0, 0, 1, 1, 2, 2]


# --- progress towards the next level --------------------------------------------------------

def test_level_progress_percent_is_rounded_down():
    progress = level_progress(150)
    assert (progress.level, progress.level_start, progress.next_level_at) == (2, 101, 201)
    assert progress.percent == (150 - 101) * 100 // (201 - 101)


@pytest.mark.parametrize(("xp", "percent"), [(0, 0), (101, 0), (200, 99), (410, 99)])
def test_level_progress_at_level_edges(xp, percent):
    assert level_progress(xp).percent == percent


def test_level_progress_at_the_top_level_is_100_with_no_next_level():
    progress = level_progress(100_001)
    assert (progress.level, progress.next_level_at, progress.percent) == (100, None, 100)


# --- PA cap and maximum PV ------------------------------------------------------------------

@pytest.mark.parametrize(("level", "cap"), [(0, 12), (1, 12), (9, 12), (10, 13), (19, 13),
                                            (20, 14), (99, 21), (100, 22)])
def test_pa_cap_is_12_plus_one_every_10_levels(level, cap):
    assert pa_cap(level, base=P.pa_base, levels_per_bonus=P.pa_cap_levels_per_bonus) == cap


@pytest.mark.parametrize(("level", "pv"), [(0, 100), (1, 102), (50, 200), (100, 300)])
def test_pv_max_is_100_plus_2_per_level(level, pv):
    assert pv_max(level, base=P.pv_base, per_level=P.pv_per_level) == pv


# --- damage-reduction rolls -------------------------------------------------------------------

@pytest.mark.parametrize(("level", "rolls"), [(0, 3), (1, 3), (3, 3), (100, 20)])
def test_damage_reduction_rolls_at_the_seed_levels(level, rolls):
    assert damage_reduction_rolls(level) == rolls


def test_damage_reduction_rolls_never_decrease():
    counts = [damage_reduction_rolls(level) for level in range(0, 101)]
    assert all(a <= b for a, b in itertools.pairwise(counts))


def test_damage_reduction_rolls_follow_the_straight_line_from_level_3_to_100():
    for level in range(4, 101):
        assert damage_reduction_rolls(level) == 3 + round(17 * (level - 3) / 97)


def test_damage_reduction_rolls_stay_at_20_past_level_100():
    # the seed's "25 above level 100" cannot happen: levels stop at 100
    assert damage_reduction_rolls(101) == 20
