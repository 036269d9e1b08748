"""The homebrew d100 system played on the shared encounter (issue 11, items 2, 11, 12, 14, 15):
an attack in turn and its reaction, the posture at the start of the turn, a move, another
action the GM names, and the rolled initiative.

Every action goes through ``encounters.services.encounter_act`` (the encounter locked, its turn
checked, one action a turn counted). An attack loads, checks and rolls with
``homebrew.services.attack_declare`` (homebrew.context: one locked load; the rules in
gamerules.homebrew.action); when the target may react, ``ctx.request_reaction`` prompts it with
the declared attack's ``options``, its rolls and its typed order as the payload
(gamerules.homebrew.orders), and the resolver (homebrew.encounter) writes ONE journal entry
with prompt, answer and result. A target with no possible reaction (a miss, offensive posture,
a magic attack on a target who cannot dodge) is resolved at once in one entry of the same shape
(``answer.immediate``). A miss ends the turn (seed, "Attaquer": "un échec met fin au tour").

Source: 002_80873c4f1892db54.txt, "Actions", "Attaquer", "Postures", "Parade", "Esquive",
"Rounds et initiative"; the choices are in docs/rules/homebrew-d100.md ("The encounter").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaigns.journal import record_action, roll_row
from encounters import hooks, notices
from encounters.services import TurnContext, encounter_act, is_gm, set_position
from gamerules import dice
from gamerules.dice import RandomSource
from gamerules.encounter import space
from gamerules.homebrew.orders import pending_to_json
from homebrew.encounter import RESOLVER, hits_of
from homebrew.errors import GameMasterOnly, HomebrewServiceError, PostureAfterActing
from homebrew.models import DeclaredAttack
from homebrew.services import (KIND_ATTACK, KIND_POSTURE, Answered, AttackTerms, Declared,
                               attack_declare, attack_resolve_at_once, posture_set)

KIND_MOVE, KIND_OTHER = "homebrew_move", "homebrew_action"
INITIATIVE_DIE = "1d100"
ACTION_NAME_MAX = 120


def round_key(encounter) -> str:
    """The marker of the encounter's round: a failed dodge lasts until it changes."""
    return f"encounter:{encounter.pk}:round:{encounter.round}"


def _character(ctx: TurnContext, combatant_id: int):
    """A combatant named as a target. A hidden one does not exist for the players
    (encounters.visibility): the same refusal as a wrong id."""
    target = ctx.combatants.get(combatant_id)
    if target is None or target.removed or target.character_id is None \
            or (target.hidden and not is_gm(ctx.user, ctx.encounter)):
        raise HomebrewServiceError("not_a_target", code="not_a_target")
    return target


def allies_of(ctx: TurnContext, target) -> list:
    """The combatants who may parry for ``target``: on its side (player characters, or the
    others), in the encounter, not defeated. "Nearby" is the table's judgement; without a grid
    every ally in the encounter is offered (our choice, docs/rules/homebrew-d100.md)."""
    side = target.character.is_player
    return [c for c in ctx.combatants.values()
            if c.pk not in (target.pk, ctx.combatant.pk) and c.character is not None
            and not c.removed and not c.defeated and c.character.is_player == side]


def _at_once(ctx: TurnContext, target, declared: Declared, rng: RandomSource
             ) -> tuple[DeclaredAttack, int]:
    """An attack whose target may not react, resolved at once: one UPDATE of the sheets, the
    DeclaredAttack stored resolved, and the one journal entry, in the shape the encounter
    gives an answered prompt (``answer.immediate``)."""
    answered: Answered = attack_resolve_at_once(declared, rng=rng)
    row = declared.row()
    row.outcome, row.resolved_at = {**answered.result, "action": None}, ctx.now
    row.save()
    result = {**answered.result, "attack": row.pk, "attack_action": None}
    summary = {"encounter": ctx.encounter.pk, "round": ctx.encounter.round,
               "prompt": {"actor": ctx.combatant.name, "target": target.name,
                          "payload": pending_to_json(declared.pending(row.pk)),
                          "options": ["none"], "default": "none"},
               "answer": {"choice": "none", "defaulted": False,
                          "by": getattr(ctx.user, "pk", None), "immediate": True},
               "result": result}
    action = record_action(campaign=ctx.encounter.campaign, kind=KIND_ATTACK, now=ctx.now,
                           user=ctx.user, actor=declared.actor, target=declared.target,
                           summary=summary, rolls=[*declared.rolls, *answered.rolls])
    notices.harmed(ctx.encounter, ctx.combatant, ctx.combatants.values(),
                   hits_of(target.character_id, answered.result))
    return row, action.pk


@dataclass(frozen=True)
class AttackStep:
    """What an attack in turn did: the declared attack, and the pending reaction (None when
    resolved at once; then ``action_id`` is its journal entry)."""

    declared: DeclaredAttack
    reaction: Any = None
    action_id: int | None = None


@dataclass(frozen=True)
class AttackChoices:
    """What the attacker chose, as the form and the API give it: the equipped weapon or spell
    (``weapon_id``) and the player's ``description`` (stripped, up to 300 characters)."""

    weapon_id: int
    description: str = ""


def encounter_attack(*, user, encounter_id: int, combatant_id: int, target_id: int,
                     choices: AttackChoices, turn: int | None = None,
                     rng: RandomSource | None = None, now: datetime | None = None) -> AttackStep:
    """``combatant_id`` attacks ``target_id`` (combatants) with the weapon or spell of
    ``choices``, costing the turn's action. Queries do not grow with the number of combatants (pinned in
    tests/homebrew/test_play.py and test_attack_queries.py). Raises what encounter_act raises,
    HomebrewServiceError ("not_a_target", "self_attack"), and what
    homebrew.services.attack_declare raises."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()

    def act(ctx: TurnContext) -> AttackStep:
        target = _character(ctx, target_id)
        me = ctx.combatant
        if me.character_id is None or target.character_id is None:
            raise HomebrewServiceError("not_a_target", code="not_a_target")
        if me.character_id == target.character_id:
            raise HomebrewServiceError("self_attack", code="self_attack")
        declared = attack_declare(
            user=ctx.user, actor_id=me.character_id, target_id=target.character_id,
            weapon_id=choices.weapon_id, rng=rng, now=now,
            protector_ids=[a.character_id for a in allies_of(ctx, target)],
            terms=AttackTerms(description=choices.description.strip(),
                              round_key=round_key(ctx.encounter),
                              target_surprised=target.surprised and ctx.encounter.round == 1))
        if not declared.declaration.result.hit:
            ctx.end_turn = True  # seed, "Attaquer": "un échec met fin au tour"
        if declared.options == ["none"]:
            row, action_id = _at_once(ctx, target, declared, rng)
            return AttackStep(row, None, action_id)
        declared.context.write()  # the attacker's cost, if any
        row = declared.row()
        row.save()
        row.rolls, row.summary = declared.rolls, declared.summary
        reaction = ctx.request_reaction(target=target,
                                        action_payload=pending_to_json(declared.pending(row.pk)),
                                        options=declared.options, resolver=RESOLVER,
                                        rolls=declared.rolls)
        return AttackStep(row, reaction)

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=True, turn=turn, now=now, rng=rng)


def encounter_posture(*, user, encounter_id: int, combatant_id: int, posture: str,
                      turn: int | None = None, now: datetime | None = None):
    """Change posture at the start of one's turn (free). Raises PostureAfterActing (409,
    "posture_after_acting") once the turn's action is taken (seed, "Postures": "La posture
    peut être changée en début de tour uniquement"), and what posture_set raises."""
    now = now or timezone.now()

    def act(ctx: TurnContext):
        if ctx.encounter.turn_actions:
            raise PostureAfterActing()
        character = ctx.combatant.character
        if character is None:
            raise HomebrewServiceError("not_a_target", code="not_a_target")
        return posture_set(user=ctx.user, character=character, posture=posture, now=now,
                           context={"encounter": ctx.encounter.pk, "round": ctx.encounter.round})

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now)


@dataclass(frozen=True)
class Move:
    """A move's terms: where to (``to``: (x, y) metres, the map's click; None: no destination,
    the combatant stays where the map has it)."""

    to: tuple[Any, Any] | None = None


def encounter_other(*, user, encounter_id: int, combatant_id: int, name: str,
                    move: Move | None = None, costs_action: bool | None = None,
                    turn: int | None = None, now: datetime | None = None):
    """A move (``move``: its Move) or another action the GM names (``name``), journaled in the
    encounter.
    Another action costs the turn's action; a move is free (a short move) unless the game
    master marks it as costing the action (``costs_action``, the GM's only: seed, "Actions":
    "se déplacer au-delà d'une courte distance" is an action, and the seed sets no distance:
    the GM judges). A move with a destination (``move.to``: the map's click) puts the
    combatant there, the distance from where it stood journaled (metres, to the centimetre;
    no limit the rules set). Raises HomebrewServiceError ("action_needs_name"),
    GameMasterOnly, PositionError (a bad destination, gamerules.encounter.space.point)."""
    now = now or timezone.now()
    label = (name or "").strip()[:ACTION_NAME_MAX]
    where = space.point(*move.to) if move and move.to is not None else None  # before any lock
    if not label and not move:
        raise HomebrewServiceError("action_needs_name", code="action_needs_name")
    costs = not move if costs_action is None else costs_action

    def act(ctx: TurnContext):
        if move and costs_action is not None and not is_gm(ctx.user, ctx.encounter):
            raise GameMasterOnly()
        me = ctx.combatant
        went: dict[str, Any] = {}
        if where is not None:
            start = me.point
            set_position(me, where)
            went = {"to": [float(where.x), float(where.y)]}
            if start is not None:
                went |= {"from": [float(start.x), float(start.y)],
                         "distance_m": float(round(space.distance(start, where), 2))}
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_MOVE if move else KIND_OTHER, now=now,
            user=ctx.user, actor=me.character,
            summary={"encounter": ctx.encounter.pk, "round": ctx.encounter.round,
                     "name": label, "costs_action": costs, "combatant": me.name, **went})

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=costs, turn=turn, now=now)


def initiative(combatant, rng: RandomSource) -> hooks.Initiative:
    """The rolled order, when the GM cannot set one (seed, "Rounds et initiative": "Si un ordre
    ne peut pas être déterminé de cette façon, les personnages pourront lancer des dés pour
    l'initiative"): 1d100, higher first; ties broken by the higher Perception (our choices, the
    seed names no die). A combatant without a sheet rolls with Perception 0."""
    r = dice.roll(INITIATIVE_DIE, rng)
    sheet = getattr(combatant.character, "homebrew", None) if combatant.character else None
    perception = sheet.perception if sheet is not None else 0
    return hooks.Initiative(score=r.total, tiebreak=perception,
                            rolls=(roll_row(label="initiative", roll=r,
                                            actor=combatant.character),))


def map_move(view, me):
    """The encounter map's move (encounters.hooks.MapMove) for ``me``: the move step
    (``encounter_other`` with ``move``), anywhere (the seed sets no distance, the GM judges:
    free, unless the GM marks a long one as the action), its cost said in words."""
    from django.urls import reverse
    from django.utils.translation import gettext as _

    return hooks.MapMove(url=reverse("homebrew:encounter_other", args=[view.encounter.pk]),
                         fields=(("move", "1"),), note=_(
                             "A move is free; the game master may count a long one as your "
                             "action."))


def token_gauge(sheet):
    """The map token's bar (encounters.ground.Gauge): HP of the maximum, as the roster's
    gauges show it (below 0 the bar is empty)."""
    from django.utils.translation import gettext as _

    from encounters.ground import Gauge

    return Gauge(value=sheet.hp, maximum=sheet.hp_max, label=_("HP"))


def register() -> None:
    hooks.register_initiative("homebrew", initiative)
    hooks.register_token_gauge("homebrew", token_gauge)
    # What the homebrew play journals in an encounter's log (the posture: homebrew.services
    # with the encounter's context).
    hooks.register_journal_kinds("homebrew", (KIND_ATTACK, KIND_POSTURE, KIND_MOVE, KIND_OTHER))
    hooks.register_map_move("homebrew", map_move)
    hooks.register_templates("homebrew", hooks.EncounterTemplates(
        actions="homebrew/_turn.html", reaction="homebrew/_reaction.html"))
