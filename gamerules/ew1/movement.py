"""Walking on the board: the shortest path to a cell and what it costs.

A piece moves from cell to cell in the eight directions (a king's moves: a diagonal step is one
cell), at ``move_cost_pa`` PA and ``move_xp`` XP a cell (seed 000_afeb9d2c9ccd2b72.txt,
"Caractéristiques fixes": "DEP (Déplacement) : 0.5 PA par case"; "Répartition des gains d'XP
par action": "Déplacement : 0.5 PA = 1 XP"). The seed names no wall: what stops a piece is the
board's edge and the cells other pieces stand on (a door or an object is a piece, so a wall is
drawn with pieces). A move to a far cell is that many one-cell moves in a row, priced at once.

The walk only crosses cells the mover sees (its view window, ``MoveArea.window``): the path
never routes around a piece the player cannot see, and the preview the board draws is exactly
what the move will do. Both the board's preview (``paths_from``) and the move (``plan_move``)
read this module; nothing else decides a path or its cost.

Cells are ``(x, y)`` integers, ``0 <= x < width``, ``0 <= y < height``; costs are Decimals in
PA. Pure: no I/O, no Django.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from gamerules.ew1 import errors

Cell = tuple[int, int]

# Straight steps first, then diagonals: among paths of equal length the search keeps the one
# that starts straight (a stable, readable path; any shortest path costs the same).
STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class MoveArea:
    """Where a walk may go. ``width``, ``height``: the board (cells). ``window``: the cells the
    mover sees, inclusive ``(x0, y0, x1, y1)``, inside the board. ``blocked``: the cells other
    pieces stand on (the mover's own cell may be in it: it is ignored)."""

    width: int
    height: int
    window: tuple[int, int, int, int]
    blocked: frozenset[Cell] = frozenset()

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def in_view(self, cell: Cell) -> bool:
        x0, y0, x1, y1 = self.window
        return x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1


def view_window(*, centre: Cell, radius: int, width: int, height: int
                ) -> tuple[int, int, int, int]:
    """The cells within ``radius`` (Chebyshev) of ``centre``, clipped to the board: inclusive
    ``(x0, y0, x1, y1)``, as the board page draws them."""
    cx, cy = centre
    return (max(0, cx - radius), max(0, cy - radius),
            min(width - 1, cx + radius), min(height - 1, cy + radius))


@dataclass(frozen=True)
class MovePlan:
    """A walk: ``path`` the cells stepped on, in order, the start excluded and the goal last;
    ``cost`` in PA (``steps`` times the cost of a cell); ``xp`` what it pays."""

    path: tuple[Cell, ...]
    cost: Decimal
    xp: int

    @property
    def steps(self) -> int:
        return len(self.path)

    @property
    def goal(self) -> Cell:
        return self.path[-1]


def paths_from(start: Cell, area: MoveArea) -> dict[Cell, tuple[Cell, ...]]:
    """Every cell of the window reachable from ``start`` with its shortest path (the start
    excluded, the cell last), through free cells only. Breadth-first over the window: at most
    one visit per cell, so O(window) whatever the board's size. ``start`` itself is absent."""
    parents: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for dx, dy in STEPS:
            cell = (here[0] + dx, here[1] + dy)
            if cell in parents or not (area.on_board(cell) and area.in_view(cell)):
                continue
            if cell in area.blocked:
                continue
            parents[cell] = here
            queue.append(cell)
    paths: dict[Cell, tuple[Cell, ...]] = {}
    for cell in parents:
        if cell == start:
            continue
        walk = [cell]
        parent = parents[cell]
        while parent is not None and parent != start:
            walk.append(parent)
            parent = parents[parent]
        paths[cell] = tuple(reversed(walk))
    return paths


def price(path: tuple[Cell, ...], *, cost_per_cell: Decimal, xp_per_cell: int) -> MovePlan:
    """A path's cost and XP: so much a cell."""
    return MovePlan(path=path, cost=cost_per_cell * len(path), xp=xp_per_cell * len(path))


def plan_move(start: Cell, goal: Cell, area: MoveArea, *, cost_per_cell: Decimal,
              xp_per_cell: int, paths: Mapping[Cell, tuple[Cell, ...]] | None = None
              ) -> MovePlan:
    """The walk from ``start`` to ``goal`` and its price, or why there is none, checked in this
    order: OffBoard (the goal is off the board), InvalidDirection ("move_somewhere": the goal
    is the start), OutOfRange ("cell_out_of_view": beyond the mover's view), CellOccupied (a
    piece stands on the goal), OutOfRange ("no_free_path": pieces wall it off within the
    view). ``paths``: ``paths_from(start, area)`` when the caller has it already."""
    if not area.on_board(goal):
        raise errors.OffBoard()
    if goal == start:
        raise errors.InvalidDirection("move_somewhere")
    if not area.in_view(goal):
        raise errors.OutOfRange("cell_out_of_view")
    if goal in area.blocked:
        raise errors.CellOccupied()
    found = (paths if paths is not None else paths_from(start, area)).get(goal)
    if found is None:
        raise errors.OutOfRange("no_free_path")
    return price(found, cost_per_cell=cost_per_cell, xp_per_cell=xp_per_cell)


def blocked_cells(cells: Iterable[Cell], *, mover: Cell) -> frozenset[Cell]:
    """The cells pieces stand on, the mover's own left out."""
    return frozenset(c for c in cells if c != mover)
