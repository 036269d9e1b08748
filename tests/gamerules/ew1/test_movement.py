"""The walk to a cell and its price (gamerules.ew1.movement): edges, occupied cells, walls of
pieces, the view window. Seed 000_afeb9d2c9ccd2b72.txt: "DEP (Déplacement) : 0.5 PA par case",
"Déplacement : 0.5 PA = 1 XP"."""

from decimal import Decimal
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerules.ew1 import errors
from gamerules.ew1.movement import (MoveArea, blocked_cells, paths_from, plan_move, price,
                                    view_window)
from gamerules.geometry import chebyshev

HALF = Decimal("0.5")


def area(*blocked, width=10, height=10, centre=(5, 5), radius=5):
    return MoveArea(width=width, height=height,
                    window=view_window(centre=centre, radius=radius, width=width, height=height),
                    blocked=frozenset(blocked))


def plan(start, goal, a):
    return plan_move(start, goal, a, cost_per_cell=HALF, xp_per_cell=1)


@pytest.mark.parametrize(("goal", "steps"), [
    ((6, 5), 1), ((6, 6), 1), ((4, 4), 1), ((8, 5), 3), ((8, 8), 3), ((9, 6), 4), ((0, 0), 5),
    ((5, 0), 5), ((9, 9), 4)])
def test_on_an_empty_board_a_walk_is_its_king_distance(goal, steps):
    p = plan((5, 5), goal, area())
    assert p.steps == steps == chebyshev((5, 5), goal)
    assert (p.cost, p.xp, p.goal) == (HALF * steps, steps, goal)
    cells = ((5, 5), *p.path)
    assert all(chebyshev(a, b) == 1 for a, b in pairwise(cells))


def test_the_seed_worked_price_half_a_pa_a_cell():
    assert price(((1, 0), (2, 0), (3, 0), (4, 0)), cost_per_cell=HALF, xp_per_cell=1).cost == 2
    assert plan((5, 5), (7, 5), area()).cost == Decimal("1.0")


@pytest.mark.parametrize("goal", [(-1, 5), (10, 5), (5, -1), (5, 10), (-1, -1), (10, 10),
                                  (10**6, 3)])
def test_a_cell_off_the_board_is_off_the_board(goal):
    with pytest.raises(errors.OffBoard):
        plan((9, 9), goal, area(centre=(9, 9)))


def test_the_cell_one_stands_on_is_no_move():
    with pytest.raises(errors.InvalidDirection) as exc:
        plan((5, 5), (5, 5), area())
    assert exc.value.key == "move_somewhere"


def test_a_cell_beyond_the_view_is_refused_even_on_the_board():
    a = area(width=30, height=30, centre=(5, 5), radius=3)
    assert plan((5, 5), (8, 8), a).steps == 3  # the window's corner
    with pytest.raises(errors.OutOfRange) as exc:
        plan((5, 5), (9, 5), a)
    assert exc.value.key == "cell_out_of_view"


def test_an_occupied_goal_is_occupied():
    with pytest.raises(errors.CellOccupied):
        plan((5, 5), (6, 5), area((6, 5)))


def test_a_walk_goes_around_a_piece_at_the_same_price_when_a_diagonal_allows():
    p = plan((5, 5), (7, 5), area((6, 5)))
    assert p.steps == 2 and (6, 5) not in p.path


def test_a_wall_of_pieces_makes_the_walk_longer():
    wall = [(6, y) for y in range(0, 9)]  # one gap, at (6, 9)
    p = plan((5, 5), (7, 5), area(*wall))
    assert (6, 9) in p.path and p.steps == 8 and p.cost == 4
    assert not set(p.path) & set(wall)


def test_a_cell_walled_off_within_view_has_no_free_path():
    ring = [(x, y) for x in (7, 8, 9) for y in (6, 7, 8) if (x, y) != (8, 7)]
    with pytest.raises(errors.OutOfRange) as exc:
        plan((5, 5), (8, 7), area(*ring))
    assert exc.value.key == "no_free_path"


def test_a_walk_never_leaves_the_view_to_go_around():
    # The wall's only gap, (7, 9), is outside the mover's view (x and y 2..8): the cell behind
    # the wall is in view, but no free path within view leads there.
    wall = [(7, y) for y in range(0, 20) if y != 9]
    a = area(*wall, width=20, height=20, centre=(5, 5), radius=3)
    with pytest.raises(errors.OutOfRange) as exc:
        plan((5, 5), (8, 5), a)
    assert exc.value.key == "no_free_path"
    assert all(a.in_view(c) for path in paths_from((5, 5), a).values() for c in path)
    wider = area(*wall, width=20, height=20, centre=(5, 5), radius=4)
    assert (7, 9) in plan((5, 5), (8, 5), wider).path


def test_a_mover_boxed_in_by_the_corner_and_pieces_reaches_nothing():
    a = area((1, 0), (0, 1), (1, 1), centre=(0, 0))
    assert paths_from((0, 0), a) == {}
    with pytest.raises(errors.OutOfRange):
        plan((0, 0), (2, 2), a)


def test_the_movers_own_cell_never_blocks_it():
    assert blocked_cells([(5, 5), (6, 5)], mover=(5, 5)) == frozenset({(6, 5)})


def test_view_window_is_clipped_to_the_board():
    assert view_window(centre=(1, 8), radius=5, width=10, height=10) == (0, 3, 6, 9)


@given(st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=40),
       st.tuples(st.integers(0, 9), st.integers(0, 9)))
def test_every_path_is_free_in_view_made_of_steps_and_no_shorter_than_the_distance(blocked, start):
    a = area(*(blocked - {start}), centre=start, radius=4)
    for goal, path in paths_from(start, a).items():
        cells = (start, *path)
        assert path[-1] == goal and len(path) >= chebyshev(start, goal)
        assert all(chebyshev(p, q) == 1 for p, q in pairwise(cells))
        assert not set(path) & a.blocked and all(a.in_view(c) and a.on_board(c) for c in path)
        assert plan(start, goal, a).cost == HALF * len(path)
