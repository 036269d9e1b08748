"""The order of play: set by the game master, or rolled with the rule system's initiative.

Source: issue 11, item 2 ("set by the GM (entry order, position, advantage: the seed's first
choice) [...] or rolled (the system says with what); ties broken deterministically and visibly.
The order is kept for later rounds. Late joiners and surprised combatants act at the end of the
order"); seed 002_80873c4f1892db54.txt, "Initiative" (the GM's order is the homebrew's choice).

Rules, in sort-key order:

1. the group: everyone else first, then the surprised, then the late joiners (``Contender.late``);
2. GM order: the GM's number (``position``, lower first); rolled order: the initiative (higher
   first), then the system's tie-breaker (``tiebreak``, higher first: a characteristic), then
   ``position`` (entry order);
3. last, the id (the earlier made first): no two contenders ever compare equal.

``Placed.tie`` says, for each contender with the same initiative as the one just above it, which
key put it below ("tiebreak", "position" or "id"): the pages show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from collections.abc import Callable, Sequence

from gamerules.dice import RandomSource

GROUPS = ("", "surprised", "late")


class OrderMode(StrEnum):
    GM = "gm"  # the GM's numbers (entry order by default)
    ROLLED = "rolled"  # the rule system's initiative roll


@dataclass(frozen=True)
class Contender:
    """One combatant as the order sees it. ``position``: the GM's number or the entry order;
    ``initiative``: the rolled or GM-given score (None in GM order); ``tiebreak``: the system's
    tie-breaker (higher first)."""

    id: int
    position: int
    initiative: int | None = None
    tiebreak: int = 0
    surprised: bool = False
    late: bool = False

    @property
    def group(self) -> str:
        return "late" if self.late else "surprised" if self.surprised else ""


@dataclass(frozen=True)
class Placed:
    """A contender's place: ``rank`` from 0; ``group`` "" / "surprised" / "late" (at the end
    because of it); ``tie`` the key that put it below an equal contender, or ""."""

    id: int
    rank: int
    initiative: int | None
    group: str
    tie: str = ""


def _key(c: Contender, mode: OrderMode) -> tuple[int, ...]:
    group = GROUPS.index(c.group)
    if mode is OrderMode.GM:
        return (group, c.position, c.id)
    return (group, -(c.initiative or 0), -c.tiebreak, c.position, c.id)


def _tie(above: Contender, below: Contender, mode: OrderMode) -> str:
    """Which key separated two contenders of the same group and score, or "" if a score did."""
    if above.group != below.group:
        return ""
    if mode is OrderMode.GM:
        return "id" if above.position == below.position else ""
    if (above.initiative or 0) != (below.initiative or 0):
        return ""
    if above.tiebreak != below.tiebreak:
        return "tiebreak"
    return "position" if above.position != below.position else "id"


def place(contenders: Sequence[Contender], mode: OrderMode = OrderMode.GM) -> tuple[Placed, ...]:
    """The order, first to act first (see the module's rules)."""
    ranked = sorted(contenders, key=lambda c: _key(c, mode))
    return tuple(
        Placed(id=c.id, rank=i, initiative=c.initiative, group=c.group,
               tie=_tie(ranked[i - 1], c, mode) if i else "")
        for i, c in enumerate(ranked))


Initiative = Callable[[Contender, RandomSource], int]


def roll_order(contenders: Sequence[Contender], initiative: Initiative,
               rng: RandomSource) -> tuple[tuple[Placed, ...], dict[int, int]]:
    """Roll ``initiative(contender, rng)`` for each contender in entry order (``position``,
    then id: the same dice give the same order) and place them (OrderMode.ROLLED). Returns the
    order and each id's score."""
    scores: dict[int, int] = {}
    rolled = []
    for c in sorted(contenders, key=lambda c: (c.position, c.id)):
        scores[c.id] = initiative(c, rng)
        rolled.append(Contender(id=c.id, position=c.position, initiative=scores[c.id],
                                tiebreak=c.tiebreak, surprised=c.surprised, late=c.late))
    return place(rolled, OrderMode.ROLLED), scores
