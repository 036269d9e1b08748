"""gamerules.ew1.presence: own characters malus and faction bonus.

Seed, "Phase d'attaque": "malus = (5 * nombre personnages) - (distance additionné de chaque
personnage). La distance prise en compte pour appliquer le malus est de 5 cases, au dela, le
malus est de 0." Seed, "Phase d'esquive": "2 * log2(Nombre d'alliés) = Bonus d'esquive".
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.presence import faction_bonus, own_characters_malus

REACH = EW1Parameters().own_characters_reach


def test_reach_is_the_seeds_5_cells():
    assert REACH == 5


def test_no_own_character_in_view_gives_no_malus():
    assert own_characters_malus([], reach=REACH) == 0


@pytest.mark.parametrize(("distance", "malus"), [(1, 4), (2, 3), (4, 1), (5, 0), (6, 0), (12, 0)])
def test_one_own_character_gives_5_minus_its_distance_and_0_beyond_5(distance, malus):
    assert own_characters_malus([distance], reach=REACH) == malus


def test_two_own_characters_at_2_and_3_give_5_times_2_minus_2_plus_3():
    assert own_characters_malus([2, 3], reach=REACH) == 5 * 2 - (2 + 3) == 5


def test_a_character_beyond_the_reach_is_not_counted_in_the_sum():
    # The seed's formula on all three would be 15 - (1 + 2 + 9) = 3; the one at 9 is out of view.
    assert own_characters_malus([1, 2, 9], reach=REACH) == 5 * 2 - (1 + 2)


@given(st.lists(st.integers(min_value=1, max_value=5)))
def test_within_reach_the_malus_is_the_seeds_5n_minus_the_sum_of_distances(distances):
    assert own_characters_malus(distances, reach=REACH) == 5 * len(distances) - sum(distances)


@given(st.lists(st.integers(min_value=1, max_value=50)))
def test_the_malus_is_never_negative(distances):
    assert own_characters_malus(distances, reach=REACH) >= 0


@pytest.mark.parametrize(("allies", "dodge"), [(0, 0), (1, 0), (2, 2), (3, 3), (4, 4), (8, 6),
                                               (16, 8)])
def test_faction_dodge_bonus_is_2_log2_allies_rounded_down(allies, dodge):
    assert faction_bonus(allies).dodge == dodge


def test_faction_bonus_keeps_the_number_of_allies():
    assert faction_bonus(4).allies == 4


def test_attack_and_magic_bonuses_are_0_until_the_factions_issue_sets_their_factors():
    bonus = faction_bonus(8)
    assert (bonus.attack, bonus.magic) == (0, 0)


def test_attack_and_magic_factors_scale_log2_allies():
    bonus = faction_bonus(8, attack_factor=1, magic_factor=3)
    assert (bonus.attack, bonus.magic) == (3, 9)  # log2(8) = 3
