"""Invariants of the clock (Hypothesis): whatever the order, turns per round and defeated
combatants, a round plays every living combatant's turns exactly once, in slot order, and
skips exactly the defeated; a delay keeps every combatant in the order once and starts the
next living turn."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gamerules.encounter import clock as C

tables = st.lists(st.tuples(st.integers(1, 3), st.booleans()), min_size=1, max_size=8).filter(
    lambda rows: not all(defeated for _turns, defeated in rows))


def build(rows):
    members = {i + 1: C.Member(i + 1, turns=t, defeated=d) for i, (t, d) in enumerate(rows)}
    return C.Clock(order=tuple(members)), members


@given(tables)
def test_each_round_plays_every_living_turn_once(rows):
    clock, members = build(rows)
    living = [t for t in C.slots(clock.order, members) if not members[t.combatant].defeated]
    step = C.start(clock, members)
    for round_ in (1, 2):
        played = []
        while step.clock.round == round_:
            played.append(step.started)
            step = C.next_turn(step.clock, members)
        assert played == living


@given(tables, st.data())
def test_a_delay_keeps_everyone_once_and_starts_a_later_turn(rows, data):
    clock, members = build(rows)
    step = C.start(clock, members)
    me = step.started.combatant
    later = [t.combatant for t in C.slots(step.clock.order, members)
             if t.phase == step.started.phase and t.combatant != me
             and step.clock.order.index(t.combatant) > step.clock.order.index(me)]
    if not later:
        return
    after = data.draw(st.sampled_from(later))
    moved = C.delay(step.clock, members, after)
    assert sorted(moved.clock.order) == sorted(step.clock.order)
    assert moved.clock.order.index(me) == moved.clock.order.index(after) + 1
    # the first living turn after the delayer's old place: its own, now after ``after``, when
    # only defeated combatants stood between (delaying behind them costs nothing)
    new_slots = C.slots(moved.clock.order, members)
    old_slots = C.slots(step.clock.order, members)
    following = old_slots[old_slots.index(step.started) + 1]
    start = new_slots.index(following)
    expected = next(t for t in new_slots[start:] if not members[t.combatant].defeated)
    assert moved.started == expected and not moved.new_round
