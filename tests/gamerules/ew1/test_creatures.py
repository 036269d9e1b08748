"""gamerules.ew1.creatures.creature_turn: attack the adjacent prey, or step toward the nearest.

Our rule where the seed is silent (docs/rules/eternal-war-one-ii.md, "Creatures").
"""

from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1.creatures import (ATTACK, BLOCKED, MOVE, NO_PREY, WAIT, CreatureTurn, Prey,
                                     chebyshev, creature_turn)


def turn(at=(5, 5), prey=(), occupied=(), width=12, height=12, view_radius=5):
    return creature_turn(at=at, prey=prey, occupied=set(occupied) | {at}, width=width,
                         height=height, view_radius=view_radius)


def test_no_prey_the_creature_waits():
    assert turn() == CreatureTurn(WAIT, reason=NO_PREY)


def test_prey_at_the_view_radius_is_seen_one_cell_beyond_is_not():
    assert turn(prey=[Prey(1, 10, 5, 50)]) == CreatureTurn(MOVE, target_id=1, dx=1, dy=0)
    assert turn(prey=[Prey(1, 11, 5, 50)]) == CreatureTurn(WAIT, reason=NO_PREY)
    assert turn(prey=[Prey(1, 11, 5, 50)], view_radius=6).action == MOVE


def test_an_adjacent_prey_is_attacked_diagonals_included():
    assert turn(prey=[Prey(1, 6, 5, 50)]) == CreatureTurn(ATTACK, target_id=1)
    assert turn(prey=[Prey(2, 4, 4, 50)]) == CreatureTurn(ATTACK, target_id=2)


def test_the_nearest_prey_is_chosen_then_the_fewest_pv_then_the_lowest_id():
    far_weak, near = Prey(1, 9, 5, 1), Prey(2, 5, 7, 90)
    assert turn(prey=[far_weak, near]).target_id == 2
    assert turn(prey=[Prey(3, 6, 5, 40), Prey(4, 4, 5, 30)]) == CreatureTurn(ATTACK, target_id=4)
    assert turn(prey=[Prey(6, 6, 5, 30), Prey(5, 4, 5, 30)]) == CreatureTurn(ATTACK, target_id=5)


def test_a_diagonal_step_when_the_prey_is_off_the_line():
    # From (5, 5) to (8, 7): (6, 5) and (6, 6) both bring it to 2 cells; (6, 6) is straighter.
    assert turn(prey=[Prey(1, 8, 7, 50)]) == CreatureTurn(MOVE, target_id=1, dx=1, dy=1)


def test_an_occupied_cell_is_walked_around_and_a_tie_goes_to_the_lowest_dy():
    # (6, 5) is taken: (6, 4) and (6, 6) are equally straight; dy -1 comes first.
    assert turn(prey=[Prey(1, 8, 5, 50)], occupied=[(6, 5)]) == CreatureTurn(
        MOVE, target_id=1, dx=1, dy=-1)
    assert turn(prey=[Prey(1, 8, 5, 50)], occupied=[(6, 5), (6, 4)]) == CreatureTurn(
        MOVE, target_id=1, dx=1, dy=1)


def test_a_creature_with_no_closer_free_cell_waits():
    blocked = [(6, 4), (6, 5), (6, 6)]
    assert turn(prey=[Prey(1, 8, 5, 50)], occupied=blocked) == CreatureTurn(
        WAIT, target_id=1, reason=BLOCKED)


def test_the_board_edge_is_never_crossed():
    # At the corner (0, 0), prey at (0, 3): only (0, 1) and (1, 1) bring it closer; (0, 1) is
    # on the line.
    assert turn(at=(0, 0), prey=[Prey(1, 0, 3, 50)]) == CreatureTurn(MOVE, target_id=1, dx=0,
                                                                     dy=1)


cells = st.tuples(st.integers(0, 9), st.integers(0, 9))


@given(at=cells, prey=st.lists(st.tuples(cells, st.integers(0, 100)), max_size=5),
       occupied=st.sets(cells, max_size=30))
def test_a_step_always_lands_one_cell_closer_on_a_free_cell_of_the_board(at, prey, occupied):
    prey = [Prey(i, x, y, pv) for i, ((x, y), pv) in enumerate(prey) if (x, y) != at]
    taken = occupied | {(p.x, p.y) for p in prey} | {at}
    result = creature_turn(at=at, prey=prey, occupied=taken, width=10, height=10, view_radius=5)
    assert result == creature_turn(at=at, prey=prey, occupied=taken, width=10, height=10,
                                   view_radius=5)  # deterministic
    if result.action == MOVE:
        target = next(p for p in prey if p.id == result.target_id)
        cell = (at[0] + result.dx, at[1] + result.dy)
        assert 0 <= cell[0] < 10 and 0 <= cell[1] < 10 and cell not in taken
        assert chebyshev(cell, (target.x, target.y)) == chebyshev(at, (target.x, target.y)) - 1
    if result.action == ATTACK:
        target = next(p for p in prey if p.id == result.target_id)
        assert chebyshev(at, (target.x, target.y)) == 1
