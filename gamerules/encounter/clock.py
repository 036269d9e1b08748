"""Rounds and turns: whose turn it is, next turn, delay, removal and re-adding, several turns
per round, skipping the defeated, and effects that last a number of rounds.

Source: issue 11, items 3 and 4; /work/shared/ENCOUNTER-NOTES.md (what trackers do and what
users report broken: skipping a defeated combatant must not skip the next living one; expiry at
the start or the end of a named combatant's turn; several turns per round).

The model:

- ``Clock.order`` is the combatants' ids, first to act first (gamerules.encounter.order); it is
  kept from round to round. A combatant with ``turns`` n has n turns a round, in phases as in
  Eclipse Phase's action phases: phase 0 is everyone's first turn in order, phase 1 the second
  turn of those with 2 or more, and so on (``slots``).
- ``Clock.current`` is the turn being played (combatant id, phase), None before the start.
  ``next_turn`` ends it and starts the next slot whose combatant is not defeated (when
  ``skip_defeated``); after the last slot, the round number goes up and play starts again from
  the first slot.
- ``delay``: the current combatant gives up its place and takes the one just after a combatant
  whose turn is still to come this round (the order keeps the change for later rounds, as a
  delayed initiative does); the next slot's turn starts now. A delayed turn has not ended: no
  "end of turn" effect of the delayer expires.
- ``remove``: out of the order (re-added later at the end, as a late joiner); removing the
  current combatant starts the next slot's turn, with no "end of turn" for the removed one.
- An effect (``Duration``) made in round r for n rounds expires at the ``edge`` ("start" or
  "end") of its ``anchor``'s first turn in round r + n or later: "1 round, until the start of
  my next turn", "1 round, until the end of my next turn". An anchor no longer in the order
  lets its effects expire when a round r + n or later begins.
- ``reorder`` (``next_turn``, ``remove``): a rule system that rolls its order again each round
  (Eclipse Phase: initiative every action turn) gives a function of the kept order returning
  the new one, the same ids; it is called only when a new round begins, before the round's
  first turn is chosen, so that turn is the new order's first playable one. A delay's change of
  place lasts until then (a delay unused by the end of the round is lost).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from collections.abc import Callable, Iterable, Mapping, Sequence

from gamerules.encounter.errors import InvalidDuration, NoLivingCombatant, OrderError


class Edge(StrEnum):
    START = "start"
    END = "end"


@dataclass(frozen=True)
class Member:
    """A combatant as the clock sees it."""

    id: int
    turns: int = 1
    defeated: bool = False


@dataclass(frozen=True)
class Turn:
    combatant: int
    phase: int = 0  # the combatant's turn number this round, from 0


@dataclass(frozen=True)
class Clock:
    round: int = 0  # 0 before the start
    order: tuple[int, ...] = ()
    current: Turn | None = None


@dataclass(frozen=True)
class Duration:
    """An effect's end: at the ``edge`` of ``anchor``'s first turn in ``expires_round`` or
    later."""

    id: int
    anchor: int
    edge: Edge
    expires_round: int


MOST_ROUNDS = 1000  # an effect's longest duration (and EncounterEffect.rounds' range)


def expires_round(now_round: int, rounds: int) -> int:
    """The round an effect made in ``now_round`` for ``rounds`` rounds expires in. Raises
    InvalidDuration for fewer than 1 round or more than MOST_ROUNDS."""
    if rounds < 1:
        raise InvalidDuration(rounds=rounds)
    if rounds > MOST_ROUNDS:
        raise InvalidDuration("duration_too_long", rounds=rounds, most=MOST_ROUNDS)
    return max(now_round, 1) + rounds


Reorder = Callable[[tuple[int, ...]], Sequence[int]]


@dataclass(frozen=True)
class Step:
    """What a step did: the turn that ended (None if none did: the start, a delay, a
    removal), the turn that started (None when nobody is left), whether a new round began, the
    defeated combatants passed over, the effects that expired (ids, in the order they did)."""

    clock: Clock
    ended: Turn | None
    started: Turn | None
    new_round: bool = False
    skipped: tuple[int, ...] = ()
    expired: tuple[int, ...] = ()


def slots(order: Sequence[int], members: Mapping[int, Member]) -> tuple[Turn, ...]:
    """Every turn of a round, in play order (phases, see the module)."""
    most = max((members[c].turns for c in order), default=0)
    return tuple(Turn(c, k) for k in range(most) for c in order if members[c].turns > k)


def _index(turns: Sequence[Turn], turn: Turn) -> int:
    try:
        return list(turns).index(turn)
    except ValueError:
        raise OrderError(code="not_in_order") from None


def _advance(clock: Clock, members: Mapping[int, Member], effects: Sequence[Duration],
             after: int, ended: Turn | None, *, skip_defeated: bool,
             reorder: Reorder | None = None) -> Step:
    """Start the first playable slot after index ``after`` of this round's slots (-1: from the
    start), rolling over to the next round (in the order ``reorder`` gives, when given);
    expire the effects the edges reach."""
    turns = slots(clock.order, members)
    playable = [t for t in turns if not (skip_defeated and members[t.combatant].defeated)]
    if not playable:
        raise NoLivingCombatant()
    expired: list[int] = []
    live = list(effects)

    def expire(edge: Edge, turn: Turn, round_: int) -> None:
        for e in list(live):
            if e.edge is edge and e.anchor == turn.combatant and e.expires_round <= round_:
                expired.append(e.id)
                live.remove(e)

    if ended is not None:
        expire(Edge.END, ended, clock.round)
    round_, new_round = clock.round, False
    later = [i for i in range(after + 1, len(turns)) if turns[i] in playable]
    skipped_idx = range(after + 1, later[0]) if later else range(after + 1, len(turns))
    skipped = [turns[i].combatant for i in skipped_idx]
    if later:
        started = turns[later[0]]
    else:
        round_, new_round = round_ + 1, True
        if reorder is not None:
            order = tuple(reorder(clock.order))
            if sorted(order) != sorted(clock.order):
                raise OrderError(code="reorder_mismatch")
            clock = replace(clock, order=order)
            turns = slots(order, members)
            playable = [t for t in turns
                        if not (skip_defeated and members[t.combatant].defeated)]
        started = playable[0]
        skipped += [t.combatant for t in turns[:turns.index(started)]]
        for e in list(live):  # anchors out of the order expire when their round begins
            if e.anchor not in clock.order and e.expires_round <= round_:
                expired.append(e.id)
                live.remove(e)
    expire(Edge.START, started, round_)
    return Step(clock=replace(clock, round=round_, current=started), ended=ended,
                started=started, new_round=new_round, skipped=tuple(skipped),
                expired=tuple(expired))


def start(clock: Clock, members: Mapping[int, Member], effects: Sequence[Duration] = (),
          skip_defeated: bool = True) -> Step:
    """Round 1, the first playable slot's turn. Raises NoLivingCombatant."""
    step = _advance(replace(clock, round=1, current=None), members, effects, -1, None,
                    skip_defeated=skip_defeated)
    return replace(step, new_round=True)


def next_turn(clock: Clock, members: Mapping[int, Member], effects: Sequence[Duration] = (),
              skip_defeated: bool = True, reorder: Reorder | None = None) -> Step:
    """End the current turn and start the next playable one (the first one when none is being
    played). A new round is played in ``reorder``'s order when given (see the module). Raises
    NoLivingCombatant when every combatant is defeated, OrderError("reorder_mismatch") when
    ``reorder`` returns other ids."""
    if clock.current is None:
        return start(clock, members, effects, skip_defeated)
    turns = slots(clock.order, members)
    return _advance(clock, members, effects, _index(turns, clock.current), clock.current,
                    skip_defeated=skip_defeated, reorder=reorder)


def delay(clock: Clock, members: Mapping[int, Member], after: int,
          effects: Sequence[Duration] = (), skip_defeated: bool = True) -> Step:
    """The current combatant moves to just after ``after`` in the order, and the next slot's
    turn starts. Raises OrderError "no_current_turn", "delay_after_self", "not_in_order" (for
    ``after``), "delay_target_passed" (``after``'s turn in this phase is over or it has none)."""
    if clock.current is None:
        raise OrderError(code="no_current_turn")
    me, phase = clock.current.combatant, clock.current.phase
    if after == me:
        raise OrderError(code="delay_after_self")
    if after not in clock.order:
        raise OrderError(code="not_in_order")
    turns = slots(clock.order, members)
    here = _index(turns, clock.current)
    target = Turn(after, phase)
    if target not in turns or turns.index(target) < here:
        raise OrderError(code="delay_target_passed")
    order = [c for c in clock.order if c != me]
    order.insert(order.index(after) + 1, me)
    moved = replace(clock, order=tuple(order))
    # The turns still to come are the same but for the delayer, now after ``after``: start
    # the first of them.
    new_turns = slots(moved.order, members)
    return _advance(moved, members, effects, new_turns.index(turns[here + 1]) - 1, None,
                    skip_defeated=skip_defeated)


def remove(clock: Clock, members: Mapping[int, Member], combatant: int,
           effects: Sequence[Duration] = (), skip_defeated: bool = True, *,
           reorder: Reorder | None = None) -> Step:
    """Take ``combatant`` out of the order. When it held the turn, the next slot's turn starts
    (a new round after the last), or none when nobody playable is left. Raises OrderError
    "not_in_order"."""
    if combatant not in clock.order:
        raise OrderError(code="not_in_order")
    order = tuple(c for c in clock.order if c != combatant)
    if clock.current is None or clock.current.combatant != combatant:
        return Step(clock=replace(clock, order=order), ended=None, started=None)
    turns = slots(clock.order, members)
    here = _index(turns, clock.current)
    rest = [t for t in turns[here + 1:] if t.combatant != combatant]
    moved = replace(clock, order=order)
    new_turns = slots(order, members)
    if not any(not (skip_defeated and members[c].defeated) for c in order):
        return Step(clock=replace(moved, current=None), ended=None, started=None)
    after = new_turns.index(rest[0]) - 1 if rest else len(new_turns) - 1
    return _advance(moved, members, effects, after, None, skip_defeated=skip_defeated,
                    reorder=reorder)


def add(clock: Clock, combatants: Iterable[int]) -> Clock:
    """Late joiners and re-added combatants: at the end of the order, in the given order; they
    play this round when the end of the round is still to come. Raises OrderError
    "already_in_order"."""
    order = list(clock.order)
    for c in combatants:
        if c in order:
            raise OrderError(code="already_in_order")
        order.append(c)
    return replace(clock, order=tuple(order))
