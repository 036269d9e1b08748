"""gamerules.modifiers and gamerules.geometry: the one Modifier and the one Chebyshev distance."""

from gamerules import geometry
from gamerules.ew1 import attacks, combat, magic
from gamerules.modifiers import Modifier, total


def test_a_modifier_has_label_value_and_source():
    m = Modifier("assist: Mira", 10, "assist")
    assert (m.label, m.value, m.source) == ("assist: Mira", 10, "assist")
    assert m.as_record() == {"label": "assist: Mira", "value": 10, "source": "assist"}


def test_the_source_defaults_to_the_label():
    assert Modifier("faction (3 allies)", 3).source == "faction (3 allies)"
    assert Modifier("level", 2) == Modifier("level", 2, "level")


def test_total_sums_signed_values():
    assert total([Modifier("a", 5), Modifier("b", -7)]) == -2
    assert total([]) == 0


def test_ew1_modifier_and_bonus_are_the_shared_type():
    assert attacks.Modifier is combat.Modifier is magic.Bonus is Modifier


def test_one_chebyshev():
    assert magic.chebyshev is geometry.chebyshev
    assert geometry.chebyshev((0, 0), (3, -2)) == 3
    assert geometry.chebyshev((4, 4), (4, 4)) == 0
    assert geometry.chebyshev((1, 5), (2, 1)) == 4
