"""gamerules.ew1.magic: the casting test, spell power and its evolution, zones, range, heals.

Seed, "La magie": "Les sorts sont soumis à un jet de compétence pour déterminer leur succès";
"Les caractéristiques de base des sorts évoluent en fonction du niveau du personnage et de sa
compétence de magie"; examples "Boule de feu : 1d6+1 dégâts", "Explosion : 1d6+1 dégâts à tous
les personnages de la zone", "Guérison de groupe : 1d6+1 PV à tous les alliés". Our choices are
in docs/rules/eternal-war-one-ii.md, "Magic".
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1.magic import (ALLIES, DAMAGE, EVERYONE, HEAL, Bonus, Piece, SpellSpec,
                                 chebyshev, evolution_bonuses, heal_amount, in_range,
                                 resolve_cast, zone_targets)
from tests.gamerules.fakes import FakeRandom

FIREBALL = SpellSpec("Boule de feu", DAMAGE, "1d6+1", range_cells=5)
EXPLOSION = SpellSpec("Explosion", DAMAGE, "1d6+1", range_cells=5, zone_radius=2,
                      reach=EVERYONE)
GROUP_HEAL = SpellSpec("Guérison de groupe", HEAL, "1d6+1", range_cells=5, zone_radius=2,
                       reach=ALLIES)


def cast(spell, *faces, magic_skill=50, level=1, **kw):
    rng = FakeRandom(*faces)
    outcome = resolve_cast(spell, magic_skill=magic_skill, level=level, rng=rng, **kw)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return outcome, rng


# --- the casting test ----------------------------------------------------------------------------

def test_a_roll_equal_to_the_score_succeeds_and_rolls_the_spell_once():
    outcome, rng = cast(FIREBALL, 50, 4, magic_skill=50)

    assert outcome.success
    assert (outcome.score, outcome.test.total) == (50, 50)
    assert outcome.power_roll.total == 4 + 1
    assert outcome.power == 5
    assert rng.calls == [(1, 100), (1, 6)]


def test_a_roll_one_above_the_score_fails_and_rolls_nothing_else():
    outcome, rng = cast(FIREBALL, 51, magic_skill=50)

    assert not outcome.success
    assert outcome.power_roll is None and outcome.power == 0 and outcome.bonuses == ()
    assert rng.calls == [(1, 100)]


@pytest.mark.parametrize("face", range(1, 101))
def test_every_face_of_the_d100_against_a_score_of_37(face):
    faces = (face, 3) if face <= 37 else (face,)
    outcome, _ = cast(FIREBALL, *faces, magic_skill=37)
    assert outcome.success is (face <= 37)


def test_test_bonuses_raise_the_score():
    bonus = Bonus("faction (3 allies)", 4)
    outcome, _ = cast(FIREBALL, 54, 1, magic_skill=50, test_bonuses=[bonus])

    assert outcome.success and outcome.score == 54
    failed, _ = cast(FIREBALL, 55, magic_skill=50, test_bonuses=[bonus])
    assert not failed.success and failed.score == 54


def test_the_evolution_bonuses_are_added_to_the_power():
    outcome, _ = cast(FIREBALL, 10, 6, magic_skill=79, level=25)

    assert outcome.bonuses == (Bonus("level", 2), Bonus("magic skill", 2))
    assert outcome.power == 6 + 1 + 2 + 2


def test_the_steps_come_from_the_parameters():
    outcome, _ = cast(FIREBALL, 10, 6, magic_skill=79, level=25, level_step=5, skill_step=0)

    assert outcome.bonuses == (Bonus("level", 5),)


# --- evolution -----------------------------------------------------------------------------------

@pytest.mark.parametrize("level, bonus", [(0, 0), (9, 0), (10, 1), (19, 1), (25, 2), (100, 10)])
def test_level_bonus(level, bonus):
    bonuses = evolution_bonuses(level=level, magic_skill=50, level_step=10, skill_step=10)
    assert sum(b.value for b in bonuses if b.source == "level") == bonus


@pytest.mark.parametrize("magic, bonus", [(0, 0), (50, 0), (59, 0), (60, 1), (79, 2), (95, 4)])
def test_magic_skill_bonus(magic, bonus):
    bonuses = evolution_bonuses(level=0, magic_skill=magic, level_step=10, skill_step=10)
    assert sum(b.value for b in bonuses if b.source == "magic skill") == bonus


def test_no_bonus_is_listed_when_it_is_zero():
    assert evolution_bonuses(level=9, magic_skill=59, level_step=10, skill_step=10) == ()


def test_a_step_of_zero_never_grows():
    assert evolution_bonuses(level=100, magic_skill=95, level_step=0, skill_step=0) == ()


# --- power ---------------------------------------------------------------------------------------

def test_power_is_never_below_zero():
    curse = SpellSpec("Curse", DAMAGE, "1d4-5", range_cells=1)
    outcome, _ = cast(curse, 1, 1, magic_skill=50, level=1)

    assert outcome.power_roll.total == -4
    assert outcome.power == 0


@given(st.integers(0, 100), st.integers(0, 95), st.integers(0, 2**32))
def test_power_is_dice_plus_bonuses_and_never_negative(level, magic, seed):
    spell = SpellSpec("Any", DAMAGE, "2d6-8", range_cells=1)
    outcome = resolve_cast(spell, magic_skill=magic, level=level, rng=random.Random(seed))
    if outcome.success:
        total = outcome.power_roll.total + sum(b.value for b in outcome.bonuses)
        assert outcome.power == max(0, total)
    else:
        assert outcome.power == 0
    assert outcome.power >= 0


# --- zones ---------------------------------------------------------------------------------------

CASTER = Piece(1, 5, 5, ally=True)


def board(*pieces):
    return [CASTER, *pieces]


def test_a_single_target_spell_reaches_only_the_piece_on_the_cell():
    pieces = board(Piece(2, 6, 5, ally=False), Piece(3, 7, 5, ally=False))

    assert zone_targets(FIREBALL, caster=CASTER, cell=(6, 5), pieces=pieces) == [2]
    assert zone_targets(FIREBALL, caster=CASTER, cell=(8, 8), pieces=pieces) == []


def test_a_single_target_spell_on_ones_own_cell_reaches_the_caster():
    assert zone_targets(FIREBALL, caster=CASTER, cell=(5, 5), pieces=board()) == [1]


def test_an_everyone_zone_reaches_every_piece_within_chebyshev_2_caster_included():
    cell = (6, 6)
    inside = [Piece(2, 8, 8, ally=False), Piece(3, 4, 4, ally=False), Piece(4, 6, 6, ally=True),
              Piece(5, 8, 4, ally=False)]
    outside = [Piece(6, 9, 6, ally=False), Piece(7, 3, 6, ally=True), Piece(8, 6, 9, ally=False)]

    reached = zone_targets(EXPLOSION, caster=CASTER, cell=cell, pieces=board(*inside, *outside))

    assert reached == [1, 2, 3, 4, 5]
    assert all(chebyshev((p.x, p.y), cell) == 3 for p in outside)


def test_an_everyone_zone_does_not_reach_the_caster_outside_it():
    pieces = board(Piece(2, 9, 5, ally=False))
    assert zone_targets(EXPLOSION, caster=CASTER, cell=(9, 5), pieces=pieces) == [2]


def test_an_allies_zone_reaches_only_allies():
    pieces = board(Piece(2, 6, 5, ally=True), Piece(3, 4, 5, ally=False),
                   Piece(4, 7, 7, ally=True), Piece(5, 8, 5, ally=True))

    assert zone_targets(GROUP_HEAL, caster=CASTER, cell=(5, 5), pieces=pieces) == [1, 2, 4]


# --- range ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, ok", [((5, 5), True), ((10, 5), True), ((10, 10), True),
                                      ((0, 0), True), ((11, 5), False), ((5, 11), False),
                                      ((11, 11), False)])
def test_in_range_is_chebyshev_distance_at_most_the_range(cell, ok):
    assert in_range(FIREBALL, caster=(5, 5), cell=cell) is ok


def test_a_range_0_spell_targets_only_ones_own_cell():
    self_only = SpellSpec("Bouclier", "shield", "1d4+1", range_cells=0, duration_hours=24)

    assert in_range(self_only, caster=(5, 5), cell=(5, 5))
    assert not in_range(self_only, caster=(5, 5), cell=(6, 6))


# --- heals ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("power, pv, pv_max, healed", [
    (5, 50, 100, 5), (5, 97, 100, 3), (5, 100, 100, 0), (5, 0, 100, 5), (0, 50, 100, 0),
    (5, 120, 100, 0), (8, -3, 100, 8),
])
def test_heal_amount_is_capped_at_the_maximum(power, pv, pv_max, healed):
    assert heal_amount(power, pv=pv, pv_max=pv_max) == healed


@given(st.integers(0, 50), st.integers(-20, 200), st.integers(1, 200))
def test_a_heal_never_exceeds_the_maximum_nor_lowers_pv(power, pv, pv_max):
    healed = heal_amount(power, pv=pv, pv_max=pv_max)
    assert healed >= 0
    assert healed <= power
    assert pv + healed <= max(pv, pv_max)


def test_effect_hours_of_a_shield_without_a_duration_is_the_default():
    from gamerules.ew1.magic import effect_hours

    protection = SpellSpec("Protection", "shield", "2d4+2", range_cells=3)
    bouclier = SpellSpec("Bouclier", "shield", "1d4+1", range_cells=0, duration_hours=24)
    fireball = SpellSpec("Boule de feu", "damage", "1d6+1", range_cells=5, duration_hours=3)
    assert effect_hours(protection, default_shield_hours=6) == 6
    assert effect_hours(bouclier, default_shield_hours=6) == 24
    assert effect_hours(fireball, default_shield_hours=6) == 0
