"""Critical failures. Seed 002, "Critiques": "un échec ridicule de l'action, et/ou dangereux avec
un éventuel effet négatif en malus"."""

import pytest

from gamerules.homebrew.fumbles import CUSTOM, FUMBLE_EFFECTS, FumbleError, choose_fumble


def test_the_gm_picks_from_the_list():
    effect = choose_fumble("off_balance")
    assert (effect.code, effect.malus) == ("off_balance", -10)
    assert choose_fumble("drop_weapon", text="the axe lands in the river").text == \
        "the axe lands in the river"
    assert len({f.code for f in FUMBLE_EFFECTS}) == len(FUMBLE_EFFECTS)


def test_the_gm_writes_one():
    effect = choose_fumble(text="  Trips over the goblin  ", malus=-5)
    assert (effect.code, effect.label, effect.malus) == (CUSTOM, "Trips over the goblin", -5)


@pytest.mark.parametrize(("args", "kwargs", "code"), [
    ((), {}, "fumble_effect_required"), ((CUSTOM,), {"text": " "}, "fumble_effect_required"),
    (("explode",), {}, "unknown_fumble_effect"), (("ridiculous",), {"malus": 5}, "fumble_bonus"),
])
def test_bad_picks(args, kwargs, code):
    with pytest.raises(FumbleError) as info:
        choose_fumble(*args, **kwargs)
    assert info.value.code == code
