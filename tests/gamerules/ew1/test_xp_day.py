"""The seed's "136 XP day" ("Exemple de gain XP maximal sur une journée complète avec 24 PA")."""

from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import xp_thresholds

ATTACKS = 4 + 4
MOVES = 8 + 8


def test_default_attack_xp_is_the_combat_rewards_5_not_the_xp_table_15():
    assert EW1Parameters().hit_xp == 5


def test_a_full_day_gives_24_pa():
    p = EW1Parameters()
    assert p.pa_base + 24 // p.pa_regen_hours == 24


def test_the_seed_day_spends_24_pa():
    p = EW1Parameters()
    assert ATTACKS * p.brawl_cost_pa + MOVES * p.move_cost_pa == 24


def test_the_seed_day_gives_136_xp_with_the_xp_tables_15_per_attack():
    p = EW1Parameters.from_overrides({"hit_xp": 15})
    assert ATTACKS * p.hit_xp + MOVES * p.move_xp == 136


def test_the_same_day_gives_56_xp_with_the_default_5_per_attack():
    p = EW1Parameters()
    assert ATTACKS * p.hit_xp + MOVES * p.move_xp == 8 * 5 + 16 * 1


def test_666_days_at_136_xp_fall_short_of_level_100():
    assert xp_thresholds()[100] > 666 * 136
