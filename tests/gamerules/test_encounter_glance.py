"""gamerules.encounter.glance.level_of: a combatant's state in words (issue 21, item 2), checked
over every loss of small gauges and with the module's worked examples."""

import pytest

from gamerules.encounter.glance import Level, level_of


def test_the_worked_examples():
    assert level_of(0, 30) is Level.UNHURT
    assert level_of(14, 30) is Level.WOUNDED
    assert level_of(15, 30) is Level.BADLY_WOUNDED
    assert level_of(15, 30, down=True) is Level.DOWN
    assert level_of(20 - 10, 20) is Level.BADLY_WOUNDED  # 10 HP of 20
    assert level_of(20 - 11, 20) is Level.WOUNDED  # 11 HP of 20


@pytest.mark.parametrize("maximum", range(1, 41))
@pytest.mark.parametrize("percent", [1, 25, 50, 75, 100])
def test_every_loss_reads_one_word_in_order(maximum, percent):
    """No loss: unhurt; then wounded below the share, badly wounded from it (exact integers),
    the words never getting better as the loss grows."""
    words = [level_of(lost, maximum, badly_wounded_percent=percent)
             for lost in range(0, maximum + 5)]
    assert words[0] is Level.UNHURT
    order = [Level.UNHURT, Level.WOUNDED, Level.BADLY_WOUNDED]
    assert [order.index(w) for w in words] == sorted(order.index(w) for w in words)
    for lost, word in enumerate(words[1:], 1):
        expected = Level.BADLY_WOUNDED if lost * 100 >= percent * maximum else Level.WOUNDED
        assert word is expected


def test_a_wound_without_damage_is_wounded_and_down_wins():
    assert level_of(0, 30, wounds=1) is Level.WOUNDED
    assert level_of(0, 30, down=True) is Level.DOWN
    assert level_of(-5, 20) is Level.UNHURT  # HP above the maximum: nothing lost
    assert level_of(3, 0) is Level.WOUNDED  # no share to take
