"""The other Eclipse Phase actions in turn on the shared encounter, each one step: full
defence, bracing for a charge, escaping a hold, reloading (or clearing a jam), standing up,
moving (the map's move too), aiming and another action the table names.

Source: 001_e6266c120d4801b4.txt, "Actions" (quick and complex actions), "Combat"
("Défense totale"), "Options & Complications" ("Mouvement", "Recevoir une charge",
"Maîtriser", "Viser"); the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.utils import timezone

from campaigns.journal import record_action
from eclipse import environment, positions
from eclipse.acting import (AIM_COMPLEX, AIM_QUICK, RUNNING, add_effect, begin, borne, expire,
                            loaded_of, phase_summary)
from eclipse.defence import BRACED, FULL_DEFENCE, held_by, test_json, test_row
from eclipse.models import CarriedWeapon, Sleeve, WeaponState
from eclipse.play_errors import BadChoice, NotCarried, PlayError, WeaponUnusable
from eclipse.selectors import params_of
from encounters.models import EncounterEffect
from encounters.services import TurnContext, encounter_act
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.health import stand_up
from gamerules.eclipse_phase.manoeuvres import Pace, movement
from gamerules.eclipse_phase.turn import ActionKind

KIND_ACTION, KIND_MOVE, KIND_RELOAD = "eclipse_action", "eclipse_move", "eclipse_reload"
ACTION_NAME_MAX = 120


def _act(user, encounter_id, combatant_id, *, turn, now, fn):
    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=fn, costs_action=False, turn=turn, now=now or timezone.now())


def _journal(ctx: TurnContext, kind: str, rolls=(), **summary):
    return record_action(campaign=ctx.encounter.campaign, kind=kind, now=ctx.now, user=ctx.user,
                         actor=ctx.combatant.character, summary=phase_summary(ctx, **summary),
                         rolls=list(rolls))


def _mods(mods) -> list[dict[str, Any]]:
    return [m.as_record() for m in mods]


def encounter_full_defence(*, user, encounter_id: int, combatant_id: int,
                           turn: int | None = None, now: datetime | None = None):
    """Full defence (a complex action): +30 to every defence until the combatant's next
    action phase (seed, "Défense totale : esquive +30 (action complexe)")."""
    def act(ctx: TurnContext):
        begin(ctx, ActionKind.COMPLEX)
        if not borne(ctx, FULL_DEFENCE):
            add_effect(ctx, FULL_DEFENCE)
        return _journal(ctx, KIND_ACTION, action="full_defence", cost="complex",
                        bonus=params_of(ctx.encounter).full_defence_bonus)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_brace(*, user, encounter_id: int, combatant_id: int,
                    turn: int | None = None, now: datetime | None = None):
    """Wait for a charge (a complex action: the phase's action delayed to prepare): +20 to
    the defence against a charge until the combatant's next action phase (seed, "Recevoir
    une charge : bonus de 20 à la défense si on a retardé son action")."""
    def act(ctx: TurnContext):
        begin(ctx, ActionKind.COMPLEX)
        if not borne(ctx, BRACED):
            add_effect(ctx, BRACED)
        return _journal(ctx, KIND_ACTION, action="brace", cost="complex",
                        bonus=params_of(ctx.encounter).receive_charge_bonus)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


# The ways out of a hold, as the rule (manoeuvres.escape) types them.
ESCAPES: dict[str, Literal["opposed", "somx3"]] = {"opposed": "opposed", "somx3": "somx3"}


def encounter_escape(*, user, encounter_id: int, combatant_id: int, how: str,
                     turn: int | None = None, rng: RandomSource | None = None,
                     now: datetime | None = None):
    """Escape a hold (a complex action, manoeuvres.escape): an opposed unarmed combat test
    against the holder, or SOMx3 -30; free on a win, the hold (an effect anchored on the
    holder) ends. Raises PlayError ("ep_not_held"), BadChoice."""
    from gamerules.eclipse_phase.manoeuvres import escape

    way = ESCAPES.get(how)
    if way is None:
        raise BadChoice(value=how)
    rng = rng or random.SystemRandom()

    def act(ctx: TurnContext):
        holds = list(EncounterEffect.objects.filter(
            encounter=ctx.encounter, bearer=ctx.combatant, name__startswith="Subdued by ",
            expired_round__isnull=True))
        hold = next((h for h in holds if h.anchor_id in ctx.combatants
                     and h.name == held_by(ctx.combatants[h.anchor_id].name)), None)
        if hold is None:
            raise PlayError("ep_not_held", code="ep_not_held", name=ctx.combatant.name)
        me = begin(ctx, ActionKind.COMPLEX)
        holder = ctx.combatants[hold.anchor_id]
        them = loaded_of(holder)
        out = escape(me.character, them.character, way, rng,
                     params_of(ctx.encounter), held_wounds=me.health.wounds,
                     holder_wounds=them.health.wounds)
        rolls = [test_row(out.test, ctx.combatant.character)]
        if out.opposed is not None:
            rolls.append(test_row(out.opposed.second, holder.character))
        if out.free:
            expire([hold], ctx.encounter.round)
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_ACTION, now=ctx.now, user=ctx.user,
            actor=ctx.combatant.character, target=holder.character,
            summary=phase_summary(ctx, action="escape", cost="complex", how=how, free=out.free,
                                  holder=holder.name, test=test_json(out.test),
                                  against=test_json(out.opposed.second) if out.opposed else None,
                                  roll_about=[ctx.combatant.pk, holder.pk][:len(rolls)]),
            rolls=rolls)
    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now or timezone.now(),
                         rng=rng)


def encounter_reload(*, user, encounter_id: int, combatant_id: int, weapon_id: int,
                     turn: int | None = None, now: datetime | None = None):
    """Reload (a complex action): a full magazine from the spares (firing.reload); on a
    jammed weapon the action clears the jam instead (the magazine kept: our choice, the seed
    is silent on clearing). Raises OutOfAmmo without a spare, NotCarried, WeaponUnusable for
    a destroyed weapon (nothing spent)."""
    def act(ctx: TurnContext):
        me = begin(ctx, ActionKind.COMPLEX)
        armed = next((a for a in me.weapons if a.row.pk == weapon_id), None)
        if armed is None:
            raise NotCarried()
        if armed.row.state == WeaponState.DESTROYED:
            raise WeaponUnusable(weapon=armed.weapon.name, state=armed.row.get_state_display())
        if armed.row.state == WeaponState.JAMMED:
            CarriedWeapon.objects.filter(pk=armed.row.pk).update(state=WeaponState.WORKING)
            return _journal(ctx, KIND_RELOAD, action="unjam", cost="complex",
                            weapon=armed.weapon.name, loaded=armed.magazine.loaded,
                            spares=armed.magazine.spares)
        after = firing.reload(armed.magazine)
        CarriedWeapon.objects.filter(pk=armed.row.pk).update(loaded=after.loaded,
                                                             spares=after.spares)
        return _journal(ctx, KIND_RELOAD, action="reload", cost="complex",
                        weapon=armed.weapon.name, loaded=after.loaded, spares=after.spares)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_stand_up(*, user, encounter_id: int, combatant_id: int,
                       turn: int | None = None, now: datetime | None = None):
    """Stand up (a quick action): the knockdown ends. Raises PlayError when standing."""
    def act(ctx: TurnContext):
        me = loaded_of(ctx.combatant)
        if not me.health.knocked_down:
            raise PlayError("ep_not_knocked_down", code="ep_not_knocked_down",
                            name=ctx.combatant.name)
        begin(ctx, ActionKind.QUICK)
        after = stand_up(me.health)
        Sleeve.objects.filter(pk=me.sheet.sleeve_id or 0).update(
            knocked_down=after.knocked_down)
        return _journal(ctx, KIND_ACTION, action="stand_up", cost="quick")
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


@dataclass(frozen=True)
class Destination:
    """Where a move goes: the point (``x``, ``y``: metres as the form or the API give them;
    None or "": the position stays), ``name`` the table's words for it (at most
    ACTION_NAME_MAX characters kept), a run extended by a Freerunning or Freefall
    ``extension`` test ("": none)."""

    x: Any = None
    y: Any = None
    name: str = ""
    extension: str = ""


def encounter_move(*, user, encounter_id: int, combatant_id: int, pace: str,
                   to: Destination = Destination(), turn: int | None = None,
                   now: datetime | None = None, rng: RandomSource | None = None):
    """Move (a quick action): walk 4 m or run 20 m; running gives -10 to every test until the
    start of the combatant's next turn (manoeuvres.movement). With a destination (``to``'s
    ``x``, ``y``) the combatant's position moves there, at most that far
    (eclipse.positions.move; a run extended by a Freerunning or Freefall ``extension`` test).
    Raises BadChoice, PositionRefused, PositionError."""
    try:
        chosen = Pace(pace)
    except ValueError:
        raise BadChoice(value=pace) from None
    if chosen is Pace.STILL:
        raise BadChoice(value=pace)

    def act(ctx: TurnContext):
        me = begin(ctx, ActionKind.QUICK)
        went = positions.move(ctx.combatant, me, chosen, params_of(ctx.encounter), x=to.x,
                              y=to.y, extension=to.extension, rng=rng or random.SystemRandom())
        moved = went.movement
        if chosen is Pace.RUN and not borne(ctx, RUNNING):
            add_effect(ctx, RUNNING)
        return _journal(ctx, KIND_MOVE, action="move", cost="quick", pace=chosen.value,
                        metres=moved.metres, where=to.name.strip()[:ACTION_NAME_MAX],
                        modifiers=_mods(moved.modifiers), **went.summary,
                        **environment.gravity(ctx.encounter).record(),
                        **({"extension": test_json(went.test)} if went.test else {}),
                        rolls=[test_row(went.test, ctx.combatant.character)] if went.test
                        else ())
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_aim(*, user, encounter_id: int, combatant_id: int, kind: str,
                  turn: int | None = None, now: datetime | None = None):
    """Aim (quick: +10, complex: +30) for the next ranged attack (seed, "Viser")."""
    try:
        cost = ActionKind(kind)
    except ValueError:
        raise BadChoice(value=kind) from None
    if cost is ActionKind.AUTOMATIC:
        raise BadChoice(value=kind)

    def act(ctx: TurnContext):
        begin(ctx, cost)
        expire(borne(ctx, AIM_QUICK, AIM_COMPLEX), ctx.encounter.round)
        add_effect(ctx, AIM_QUICK if cost is ActionKind.QUICK else AIM_COMPLEX)
        return _journal(ctx, KIND_ACTION, action="aim", cost=cost.value)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_other(*, user, encounter_id: int, combatant_id: int, name: str, kind: str,
                    turn: int | None = None, now: datetime | None = None):
    """Another action the table names (draw, activate an implant...), quick, complex or
    automatic, journaled. Raises PlayError ("ep_bad_choice") without a name."""
    label = (name or "").strip()[:ACTION_NAME_MAX]
    try:
        cost = ActionKind(kind)
    except ValueError:
        raise BadChoice(value=kind) from None
    if not label:
        raise BadChoice(value=name)

    def act(ctx: TurnContext):
        begin(ctx, cost)
        return _journal(ctx, KIND_ACTION, action="other", name=label, cost=cost.value)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def map_move(view, me):
    """The encounter map's move (encounters.hooks.MapMove) for ``me``: the move step, walking
    or running at most the metres manoeuvres.movement gives (the step checks them again,
    eclipse.positions.move), each pace's cost in words."""
    from django.urls import reverse
    from django.utils.translation import gettext as _

    from encounters import hooks

    params = params_of(view.encounter)
    walk, run = movement(Pace.WALK, params).metres, movement(Pace.RUN, params).metres
    return hooks.MapMove(url=reverse("eclipse_play:move", args=[view.encounter.pk]), paces=(
        hooks.MapPace("walk", walk, _("walk %(m)s m, a quick action") % {"m": walk}),
        hooks.MapPace("run", run, _("run %(m)s m, a quick action; -%(n)s to every test "
                                    "until your next turn") % {"m": run,
                                                               "n": params.running_malus})))

