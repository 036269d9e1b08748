"""The pure encounter rules (gamerules.encounter): order and tie-breaks, rounds and turns,
delay, removal, several turns a round, effect expiry, the reaction prompt's states."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from gamerules.encounter import clock as C
from gamerules.encounter import reactions as R
from gamerules.encounter.errors import (InvalidDuration, NoLivingCombatant, OrderError,
                                        ReactionExpired, ReactionNotPending,
                                        UnknownReactionOption)
from gamerules.encounter.order import Contender, OrderMode, place, roll_order

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def members(*ids, defeated=(), turns=None):
    turns = turns or {}
    return {i: C.Member(i, turns=turns.get(i, 1), defeated=i in defeated) for i in ids}


def started(order, ms, effects=()):
    return C.start(C.Clock(order=tuple(order)), ms, effects)


# --- order ----------------------------------------------------------------------------------

def test_gm_order_follows_the_numbers_then_the_surprised_then_the_late():
    placed = place([Contender(1, position=3), Contender(2, position=1, surprised=True),
                    Contender(3, position=2), Contender(4, position=0, late=True)])
    assert [p.id for p in placed] == [3, 1, 2, 4]
    assert [p.group for p in placed] == ["", "", "surprised", "late"]


def test_gm_order_equal_numbers_are_broken_by_id_visibly():
    placed = place([Contender(7, position=1), Contender(5, position=1)])
    assert [(p.id, p.tie) for p in placed] == [(5, ""), (7, "id")]


def test_rolled_ties_break_on_the_tiebreaker_then_entry_order_then_id():
    placed = place([Contender(1, position=2, initiative=10, tiebreak=5),
                    Contender(2, position=1, initiative=10, tiebreak=5),
                    Contender(3, position=0, initiative=10, tiebreak=8),
                    Contender(4, position=1, initiative=10, tiebreak=5),
                    Contender(5, position=9, initiative=12)], OrderMode.ROLLED)
    assert [(p.id, p.tie) for p in placed] == [(5, ""), (3, ""), (2, "tiebreak"), (4, "id"),
                                               (1, "position")]


def test_rolled_order_is_the_same_with_the_same_dice():
    cs = [Contender(i, position=i, tiebreak=i % 2) for i in range(1, 6)]
    first = roll_order(cs, lambda c, rng: rng.randint(1, 4), random.Random(3))
    again = roll_order(list(reversed(cs)), lambda c, rng: rng.randint(1, 4), random.Random(3))
    assert first == again
    order, scores = first
    assert [scores[p.id] for p in order] == sorted(scores.values(), reverse=True)


# --- rounds and turns -----------------------------------------------------------------------

def test_start_then_next_turns_then_a_new_round():
    ms = members(1, 2, 3)
    step = started([1, 2, 3], ms)
    assert (step.clock.round, step.started, step.ended) == (1, C.Turn(1), None)
    step = C.next_turn(step.clock, ms)
    assert (step.ended, step.started, step.new_round) == (C.Turn(1), C.Turn(2), False)
    step = C.next_turn(C.next_turn(step.clock, ms).clock, ms)
    assert (step.clock.round, step.started, step.new_round) == (2, C.Turn(1), True)


def test_defeated_are_skipped_but_not_the_next_living_one():
    ms = members(1, 2, 3, 4, defeated={2, 3})
    step = C.next_turn(started([1, 2, 3, 4], ms).clock, ms)
    assert (step.started, step.skipped) == (C.Turn(4), (2, 3))
    step = C.next_turn(step.clock, ms)
    assert (step.started, step.new_round, step.clock.round) == (C.Turn(1), True, 2)


def test_defeated_first_combatant_is_skipped_at_the_start_and_at_each_new_round():
    ms = members(1, 2, defeated={1})
    step = started([1, 2], ms)
    assert (step.started, step.skipped) == (C.Turn(2), (1,))
    step = C.next_turn(step.clock, ms)
    assert (step.started, step.skipped, step.clock.round) == (C.Turn(2), (1,), 2)


def test_defeated_are_played_when_the_encounter_does_not_skip_them():
    ms = members(1, 2, defeated={2})
    assert C.next_turn(started([1, 2], ms).clock, ms, skip_defeated=False).started == C.Turn(2)


def test_everyone_defeated_is_refused():
    with pytest.raises(NoLivingCombatant):
        started([1, 2], members(1, 2, defeated={1, 2}))


def test_several_turns_a_round_come_in_phases():
    ms = members(1, 2, 3, turns={2: 3, 3: 2})
    assert C.slots((1, 2, 3), ms) == (C.Turn(1), C.Turn(2), C.Turn(3), C.Turn(2, 1),
                                      C.Turn(3, 1), C.Turn(2, 2))
    clock = started([1, 2, 3], ms).clock
    seen = []
    for _ in range(6):
        step = C.next_turn(clock, ms)
        clock = step.clock
        seen.append((clock.round, step.started))
    assert seen[-1] == (2, C.Turn(1)) and seen[2] == (1, C.Turn(2, 1))


# --- delay ----------------------------------------------------------------------------------

def test_delay_after_a_chosen_combatant_keeps_the_new_place_for_later_rounds():
    ms = members(1, 2, 3)
    step = C.delay(started([1, 2, 3], ms).clock, ms, after=2)
    assert step.clock.order == (2, 1, 3) and step.started == C.Turn(2) and step.ended is None
    step = C.next_turn(step.clock, ms)
    assert step.started == C.Turn(1)
    assert C.next_turn(C.next_turn(step.clock, ms).clock, ms).started == C.Turn(2)


def test_delay_after_the_last_combatant_plays_at_the_end_of_the_round():
    ms = members(1, 2, 3)
    step = C.delay(started([1, 2, 3], ms).clock, ms, after=3)
    assert step.clock.order == (2, 3, 1) and step.started == C.Turn(2)
    step = C.next_turn(C.next_turn(step.clock, ms).clock, ms)
    assert (step.started, step.clock.round) == (C.Turn(1), 1)
    assert C.next_turn(step.clock, ms).clock.round == 2


def test_delay_refusals():
    ms = members(1, 2, 3)
    clock = C.next_turn(started([1, 2, 3], ms).clock, ms).clock  # 2's turn
    for after, key in ((2, "delay_after_self"), (1, "delay_target_passed"), (9, "not_in_order")):
        with pytest.raises(OrderError) as e:
            C.delay(clock, ms, after=after)
        assert e.value.key == key
    with pytest.raises(OrderError, match="No turn"):
        C.delay(C.Clock(order=(1, 2)), ms, after=2)


def test_delay_skips_a_defeated_next_combatant():
    ms = members(1, 2, 3, defeated={2})
    step = C.delay(started([1, 2, 3], ms).clock, ms, after=3)
    assert step.started == C.Turn(3) and step.skipped == (2,)


def test_delay_does_not_end_the_delayers_turn_effects():
    ms = members(1, 2)
    effect = C.Duration(id=9, anchor=1, edge=C.Edge.END, expires_round=1)
    step = C.delay(started([1, 2], ms, [effect]).clock, ms, after=2, effects=[effect])
    assert step.expired == ()
    step = C.next_turn(step.clock, ms, [effect])  # 2 ends, 1 plays its delayed turn
    assert (step.started, step.expired) == (C.Turn(1), ())
    assert C.next_turn(step.clock, ms, [effect]).expired == (9,)


# --- removal and re-adding ------------------------------------------------------------------

def test_removing_the_current_combatant_starts_the_next_turn():
    ms = members(1, 2, 3)
    step = C.remove(started([1, 2, 3], ms).clock, ms, 1)
    assert (step.clock.order, step.started, step.ended, step.clock.round) == ((2, 3), C.Turn(2),
                                                                              None, 1)


def test_removing_the_last_current_combatant_starts_the_next_round():
    ms = members(1, 2, 3)
    clock = C.next_turn(C.next_turn(started([1, 2, 3], ms).clock, ms).clock, ms).clock
    step = C.remove(clock, ms, 3)
    assert (step.started, step.clock.round, step.new_round) == (C.Turn(1), 2, True)


def test_removing_another_combatant_keeps_the_turn():
    ms = members(1, 2, 3)
    step = C.remove(started([1, 2, 3], ms).clock, ms, 2)
    assert step.clock.current == C.Turn(1) and step.started is None
    assert C.next_turn(step.clock, ms).started == C.Turn(3)


def test_removing_the_only_combatant_leaves_no_turn():
    ms = members(1)
    step = C.remove(started([1], ms).clock, ms, 1)
    assert step.clock.current is None and step.clock.order == ()
    with pytest.raises(OrderError):
        C.remove(step.clock, ms, 1)


def test_re_added_and_late_combatants_play_at_the_end_this_round():
    ms = members(1, 2, 3)
    clock = C.remove(started([1, 2, 3], ms).clock, ms, 2).clock
    clock = C.add(clock, [2])
    assert clock.order == (1, 3, 2)
    assert C.next_turn(C.next_turn(clock, ms).clock, ms).started == C.Turn(2)
    with pytest.raises(OrderError):
        C.add(clock, [3])


# --- effects --------------------------------------------------------------------------------

def test_an_effect_ending_at_the_start_of_a_turn_vs_at_its_end():
    ms = members(1, 2)
    at_start = C.Duration(id=1, anchor=1, edge=C.Edge.START, expires_round=C.expires_round(1, 1))
    at_end = C.Duration(id=2, anchor=1, edge=C.Edge.END, expires_round=C.expires_round(1, 1))
    effects = [at_start, at_end]
    step = started([1, 2], ms, effects)
    assert step.expired == ()  # made this round: not at the start of this very turn
    step = C.next_turn(step.clock, ms, effects)
    assert step.expired == ()  # 1's turn of round 1 ends: round 2 not reached
    step = C.next_turn(step.clock, ms, effects)  # round 2, 1's turn starts
    assert (step.clock.round, step.expired) == (2, (1,))
    step = C.next_turn(step.clock, ms, [at_end])  # 1's turn of round 2 ends
    assert step.expired == (2,)


def test_an_effect_on_another_combatants_turn():
    ms = members(1, 2)
    e = C.Duration(id=5, anchor=2, edge=C.Edge.END, expires_round=2)
    clock = started([1, 2], ms).clock
    results = []
    for _ in range(4):
        step = C.next_turn(clock, ms, [e])
        clock = step.clock
        results.append((clock.round, step.ended, step.expired))
    assert results[2] == (2, C.Turn(1), ())
    assert results[3] == (3, C.Turn(2), (5,))


def test_an_effect_of_a_removed_anchor_expires_when_its_round_begins():
    ms = members(1, 2, 3)
    e = C.Duration(id=4, anchor=3, edge=C.Edge.START, expires_round=2)
    clock = C.remove(started([1, 2, 3], ms).clock, ms, 3).clock
    step = C.next_turn(clock, ms, [e])
    assert step.expired == ()
    step = C.next_turn(step.clock, ms, [e])
    assert (step.clock.round, step.expired) == (2, (4,))


def test_a_duration_is_at_least_one_round():
    assert C.expires_round(0, 1) == 2 and C.expires_round(3, 2) == 5
    with pytest.raises(InvalidDuration):
        C.expires_round(1, 0)


# --- the reaction prompt --------------------------------------------------------------------

def test_prompt_answered_before_the_deadline():
    p = R.prompt(options=("parry", "dodge"), now=NOW, timeout_seconds=30)
    assert p.options == ("none", "parry", "dodge")
    done = R.answer(p, "parry", NOW + timedelta(seconds=29, microseconds=999999))
    assert (done.status, done.choice) == (R.Status.ANSWERED, "parry")
    with pytest.raises(ReactionNotPending):
        R.answer(done, "dodge", NOW)
    assert R.default_if_due(done, NOW + timedelta(hours=1)) is None


def test_prompt_at_the_deadline_is_too_late_and_defaults():
    p = R.prompt(options=("parry",), now=NOW, timeout_seconds=30)
    deadline = NOW + timedelta(seconds=30)
    assert R.default_if_due(p, deadline - timedelta(microseconds=1)) is None
    with pytest.raises(ReactionExpired):
        R.answer(p, "parry", deadline)
    defaulted = R.default_if_due(p, deadline)
    assert (defaulted.status, defaulted.choice) == (R.Status.DEFAULTED, "none")
    with pytest.raises(ReactionNotPending) as e:
        R.answer(defaulted, "parry", NOW)
    assert e.value.code == "reaction_not_pending"


def test_prompt_refuses_an_unknown_choice():
    p = R.prompt(options=("parry",), now=NOW, timeout_seconds=5)
    with pytest.raises(UnknownReactionOption) as e:
        R.answer(p, "flee", NOW)
    assert e.value.params == {"choice": "flee"}
