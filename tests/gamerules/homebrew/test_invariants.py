"""Invariants over many inputs (Hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from gamerules.homebrew.characteristics import (CODES, MAINS, SUBS, CharacteristicsError,
                                                sub_points, validate_characteristics)
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.rest import RestKind, rest

P = HomebrewParameters()


@given(st.fixed_dictionaries({code: st.integers(-5, 120) for code in CODES}))
def test_a_sheet_is_accepted_exactly_when_it_fits_every_budget(values):
    fits = (sum(values[m] for m in MAINS) == 170
            and all(0 <= values[m] <= 100 for m in MAINS)
            and all(0 <= values[s] <= 6 for pair in SUBS.values() for s in pair)
            and all(values[a] + values[b] <= sub_points(values[m]) for m, (a, b) in SUBS.items()))
    try:
        validate_characteristics(values, P)
        accepted = True
    except CharacteristicsError as error:
        accepted = False
        assert error.problems
    assert accepted == fits


@given(st.sampled_from(list(RestKind)), st.integers(-40, 40), st.integers(1, 40),
       st.integers(0, 20), st.integers(0, 20))
def test_a_rest_never_lowers_nor_passes_the_maximum(kind, hp, hp_max, mp, mp_max):
    outcome = rest(kind, hp=hp, hp_max=hp_max, mp=mp, mp_max=mp_max, params=P)
    assert outcome.hp_after >= hp and outcome.mp_after >= mp
    assert outcome.hp_after <= max(hp, hp_max) and outcome.mp_after <= max(mp, mp_max)
