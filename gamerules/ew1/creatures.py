"""What a creature does on its turn: attack an adjacent prey, or step toward the nearest one.

The seed gives creatures PV, a damage reduction and no luck ("Réduction des dégats : objet, une
porte, une creature"; "Chance est uniquement utilisé pour les personnages") but no behaviour:
this is our rule (docs/rules/eternal-war-one-ii.md, "Creatures").

- Prey: the attackable player characters (the caller leaves out protected level 0 characters and
  those off the board) within ``view_radius`` cells (Chebyshev distance, as everywhere on the
  board).
- The target is the nearest prey; ties go to the fewest PV, then the lowest id.
- Adjacent (1 cell): attack it. Farther: one step, to a free cell on the board, that brings the
  creature one cell closer (Chebyshev); among those steps the one nearest the target in straight
  line (squared Euclidean distance) wins, then the lowest (dy, dx). No such step: it waits.

Pure: no Django, no randomness. The caller spends the PA through the same services as players.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Collection, Iterable

from gamerules.geometry import chebyshev

ATTACK, MOVE, WAIT = "attack", "move", "wait"
NO_PREY, BLOCKED = "no_prey_in_view", "blocked"
STEPS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))


@dataclass(frozen=True)
class Prey:
    id: int
    x: int
    y: int
    pv: int


@dataclass(frozen=True)
class CreatureTurn:
    """``action``: attack (``target_id``), move (one cell: ``dx``, ``dy`` in -1..1, toward
    ``target_id``) or wait (``reason``: no_prey_in_view or blocked)."""

    action: str
    target_id: int | None = None
    dx: int = 0
    dy: int = 0
    reason: str = ""


def creature_turn(*, at: tuple[int, int], prey: Iterable[Prey],
                  occupied: Collection[tuple[int, int]], width: int, height: int,
                  view_radius: int) -> CreatureTurn:
    """The creature standing on ``at`` (x, y) decides its turn. ``prey``: attackable player
    characters on its board; ``occupied``: cells (x, y) holding any piece; the board is
    ``width`` x ``height`` cells; the creature sees ``view_radius`` cells around it."""
    seen = [p for p in prey if 0 < chebyshev(at, (p.x, p.y)) <= view_radius]
    if not seen:
        return CreatureTurn(WAIT, reason=NO_PREY)
    target = min(seen, key=lambda p: (chebyshev(at, (p.x, p.y)), p.pv, p.id))
    goal = (target.x, target.y)
    distance = chebyshev(at, goal)
    if distance == 1:
        return CreatureTurn(ATTACK, target_id=target.id)
    steps = []
    for dx, dy in STEPS:
        cell = (at[0] + dx, at[1] + dy)
        if not (0 <= cell[0] < width and 0 <= cell[1] < height) or cell in occupied:
            continue
        if chebyshev(cell, goal) == distance - 1:
            straight = (cell[0] - goal[0]) ** 2 + (cell[1] - goal[1]) ** 2
            steps.append((straight, dy, dx))
    if not steps:
        return CreatureTurn(WAIT, target_id=target.id, reason=BLOCKED)
    _, dy, dx = min(steps)
    return CreatureTurn(MOVE, target_id=target.id, dx=dx, dy=dy)
