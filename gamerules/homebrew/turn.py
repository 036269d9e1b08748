"""One action per turn, free short actions, postures changed at the start of a turn only.

Source: 002_80873c4f1892db54.txt, "Actions": "Lors de votre tour, vous pouvez librement
entreprendre une action. Cette action peut être un déplacement, une attaque, une parade, ou
quelque chose de plus situationnel"; "Le déplacement est considéré comme une action au delà
d'une certaine distance" ("cette appréciation est laissée aux joueurs et au GM"); "une action
courte telle que dégainer son arme ne dépensera pas l'action"; "Attaquer": "Si l'attaque
échoue, le tour du joueur est terminé"; "Postures": "La posture peut être changée en début de
tour uniquement"; "Offensive": "C'est la posture par défaut".

Choices: a move is free unless the GM marks it as costing the action (``costs_action``); a
short action is free; an attack, a parry taken on one's own turn (a guard) and any other named
action cost the action; the posture may change only before anything else is done in the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from gamerules.homebrew.errors import ActionRefused


class Posture(StrEnum):
    OFFENSIVE = "offensive"  # the default: no parry, no dodge
    DEFENSIVE = "defensive"  # parry and dodge allowed, damage dice halved


class ActionKind(StrEnum):
    MOVE = "move"
    ATTACK = "attack"
    PARRY = "parry"
    OTHER = "other"  # an action the GM names (open a door, pick a lock...)
    SHORT = "short"  # draw a weapon...: free


COSTS_ACTION = {ActionKind.MOVE: False, ActionKind.ATTACK: True, ActionKind.PARRY: True,
                ActionKind.OTHER: True, ActionKind.SHORT: False}


@dataclass(frozen=True)
class TurnState:
    """One combatant's turn: its posture, whether it spent its action, whether it did anything
    yet (then the posture is locked), whether the turn is over, and what it did."""

    posture: Posture = Posture.OFFENSIVE
    action_used: bool = False
    acted: bool = False
    ended: bool = False
    done: tuple[ActionKind, ...] = ()


def start_turn(posture: Posture = Posture.OFFENSIVE) -> TurnState:
    """A fresh turn keeping the posture of the previous one (offensive for a newcomer)."""
    return TurnState(posture=posture)


def change_posture(turn: TurnState, posture: Posture) -> TurnState:
    """Raises ActionRefused ("posture_locked") once anything was done this turn."""
    if turn.ended or turn.acted:
        raise ActionRefused(code="posture_locked")
    return replace(turn, posture=posture)


def take_action(turn: TurnState, kind: ActionKind, *, costs_action: bool | None = None,
                ends_turn: bool = False) -> TurnState:
    """The turn after doing ``kind``. ``costs_action`` overrides the default (the GM marking a
    long move). ``ends_turn``: a failed attack ends the turn. Raises ActionRefused:
    "turn_over" after the turn ended, "action_used" for a second costly action."""
    if turn.ended:
        raise ActionRefused(code="turn_over")
    costly = COSTS_ACTION[kind] if costs_action is None else costs_action
    if costly and turn.action_used:
        raise ActionRefused(code="action_used")
    return replace(turn, action_used=turn.action_used or costly, acted=True,
                   ended=ends_turn, done=(*turn.done, kind))


def end_turn(turn: TurnState) -> TurnState:
    return replace(turn, ended=True)
