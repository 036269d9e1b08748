"""One action per turn. Seed 002, "Actions" and "Postures"."""

import pytest

from gamerules.homebrew.errors import ActionRefused
from gamerules.homebrew.turn import (ActionKind, Posture, TurnState, change_posture, end_turn,
                                     start_turn, take_action)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ActionRefused) as info:
        fn(*args, **kwargs)
    assert info.value.code == code


def test_offensive_is_the_default():
    assert start_turn().posture is Posture.OFFENSIVE == TurnState().posture


def test_one_action_per_turn():
    turn = take_action(start_turn(), ActionKind.ATTACK)
    assert turn.action_used
    refused("action_used", take_action, turn, ActionKind.OTHER)
    refused("action_used", take_action, turn, ActionKind.MOVE, costs_action=True)


def test_short_actions_and_short_moves_are_free():
    turn = take_action(take_action(start_turn(), ActionKind.SHORT), ActionKind.MOVE)
    assert not turn.action_used
    turn = take_action(turn, ActionKind.ATTACK)
    turn = take_action(turn, ActionKind.SHORT)  # sheathe after attacking
    assert turn.done == (ActionKind.SHORT, ActionKind.MOVE, ActionKind.ATTACK, ActionKind.SHORT)


def test_the_gm_marks_a_long_move_as_the_action():
    turn = take_action(start_turn(), ActionKind.MOVE, costs_action=True)
    assert turn.action_used
    refused("action_used", take_action, turn, ActionKind.ATTACK)


def test_a_failed_attack_ends_the_turn():
    turn = take_action(start_turn(), ActionKind.ATTACK, ends_turn=True)
    assert turn.ended
    refused("turn_over", take_action, turn, ActionKind.SHORT)
    refused("turn_over", take_action, end_turn(start_turn()), ActionKind.MOVE)


def test_posture_changes_at_the_start_of_the_turn_only():
    turn = change_posture(start_turn(), Posture.DEFENSIVE)
    assert turn.posture is Posture.DEFENSIVE
    assert start_turn(turn.posture).posture is Posture.DEFENSIVE  # kept into the next turn
    refused("posture_locked", change_posture, take_action(turn, ActionKind.SHORT),
            Posture.OFFENSIVE)
