"""Magic costs, health and rests. Seed 002, "Magie", "Santé", "Repos"."""

import pytest

from gamerules.homebrew.errors import InvalidAmount
from gamerules.homebrew.health import HealthState, apply_damage, health_state
from gamerules.homebrew.magic import spend_mp
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.rest import RestKind, rest

P = HomebrewParameters()


# --- magic: "Si un personnage tente d'utiliser de la magie sans PM, il utilisera des PV" --------

def test_a_spell_spends_mp():
    cost = spend_mp(3, mp=5, hp=20, params=P)
    assert (cost.mp_after, cost.hp_after, cost.mp_spent, cost.hp_spent) == (2, 20, 3, 0)


def test_without_enough_mp_the_rest_is_hp():
    cost = spend_mp(3, mp=1, hp=20, params=P)
    assert (cost.mp_after, cost.hp_after, cost.mp_spent, cost.hp_spent) == (0, 18, 1, 2)
    assert spend_mp(3, mp=0, hp=20, params=P).hp_after == 17
    assert spend_mp(3, mp=0, hp=2, params=P).hp_after == -1  # the health rules take over
    assert spend_mp(2, mp=0, hp=20, params=HomebrewParameters(hp_per_missing_mp=2)).hp_after == 16


def test_exactly_enough_mp_spends_no_hp():
    assert spend_mp(3, mp=3, hp=20, params=P).hp_spent == 0
    with pytest.raises(InvalidAmount):
        spend_mp(-1, mp=3, hp=20, params=P)


# --- health --------------------------------------------------------------------------------------

def test_hp_exactly_0_is_unconscious_1_is_standing():
    assert apply_damage(5, hp=6, hp_max=20, params=P).state is HealthState.STANDING
    change = apply_damage(6, hp=6, hp_max=20, params=P)
    assert (change.hp_after, change.state, change.permanent_injury) == (
        0, HealthState.UNCONSCIOUS, False)


def test_hp_exactly_minus_max_is_a_permanent_injury_once():
    assert not apply_damage(5, hp=-14, hp_max=20, params=P).permanent_injury  # -19
    change = apply_damage(6, hp=-14, hp_max=20, params=P)
    assert (change.hp_after, change.permanent_injury) == (-20, True)
    assert apply_damage(30, hp=10, hp_max=20, params=P).permanent_injury  # straight past it
    assert not apply_damage(3, hp=-20, hp_max=20, params=P).permanent_injury  # already there
    assert apply_damage(3, hp=-20, hp_max=20, params=P).state is HealthState.UNCONSCIOUS


def test_enemies_die_at_0_unless_the_gm_spares_them():
    assert apply_damage(6, hp=6, hp_max=10, params=P, enemy=True).state is HealthState.DEAD
    assert apply_damage(5, hp=6, hp_max=10, params=P, enemy=True).state is HealthState.STANDING
    spared = apply_damage(6, hp=6, hp_max=10, params=P, enemy=True, spared=True)
    assert spared.state is HealthState.UNCONSCIOUS
    dead = apply_damage(40, hp=6, hp_max=10, params=P, enemy=True)
    assert (dead.state, dead.permanent_injury) == (HealthState.DEAD, False)
    no_deaths = HomebrewParameters(enemies_die_at_zero=False)
    assert health_state(0, enemy=True, params=no_deaths) is HealthState.UNCONSCIOUS


def test_damage_is_never_negative():
    with pytest.raises(InvalidAmount):
        apply_damage(-1, hp=5, hp_max=10, params=P)


# --- rests ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "hp", "mp"), [(RestKind.SHORT, 12, 4), (RestKind.MEDIUM, 15, 6),
                                                (RestKind.LONG, 20, 10)])
def test_rest_amounts(kind, hp, mp):
    outcome = rest(kind, hp=10, hp_max=20, mp=3, mp_max=10, params=P)
    assert (outcome.hp_after, outcome.mp_after) == (hp, mp)


def test_rest_never_passes_the_maxima_and_heals_the_unconscious():
    outcome = rest(RestKind.MEDIUM, hp=19, hp_max=20, mp=9, mp_max=10, params=P)
    assert (outcome.hp_gained, outcome.mp_gained) == (1, 1)
    assert rest(RestKind.SHORT, hp=-3, hp_max=20, mp=0, mp_max=10, params=P).hp_after == -1
    assert rest(RestKind.LONG, hp=-25, hp_max=20, mp=0, mp_max=10, params=P).hp_after == 20
    assert rest(RestKind.LONG, hp=25, hp_max=20, mp=0, mp_max=10, params=P).hp_after == 25


def test_the_gm_changes_the_amounts():
    params = HomebrewParameters(short_rest_hp=4, short_rest_mp=0)
    assert rest(RestKind.SHORT, hp=10, hp_max=20, mp=3, mp_max=10, params=params).hp_after == 14
    once = rest(RestKind.SHORT, hp=10, hp_max=20, mp=3, mp_max=10, params=P, hp_amount=6,
                mp_amount=0)
    assert (once.hp_after, once.mp_after) == (16, 3)
    long = rest(RestKind.LONG, hp=10, hp_max=20, mp=3, mp_max=10, params=P, hp_amount=2)
    assert (long.hp_after, long.mp_after) == (12, 10)
    with pytest.raises(InvalidAmount):
        rest(RestKind.SHORT, hp=10, hp_max=20, mp=3, mp_max=10, params=P, hp_amount=-1)
