"""What every Eclipse Phase action in turn on the shared encounter shares: the phase's
accounting, the acting combatant checked able to act, the effects an action leaves, a target
and a weapon named, the journal summary's common part.

Every action goes through ``encounters.services.encounter_act`` (the encounter locked, its turn
checked, the user playing the combatant). A turn of the encounter is one action phase (the
encounter plays SPD turns a round: eclipse.encounter); its actions are counted in
``Encounter.turn_actions`` as quick + 10 x complex and checked by
``gamerules.eclipse_phase.turn.PhaseActions`` (three quick, or one quick and one complex;
automatic actions free). The encounter's own one-action count is not used
(``costs_action=False``).

States that last: full defence, aiming and running are EncounterEffects borne by the combatant
(the encounter shows them and expires them at the start of its turn next round); full defence
also ends at the combatant's first action of a later phase ("until its next turn", ``begin``),
aiming when an attack uses it (eclipse.declare).

The actions themselves: eclipse.declare and eclipse.attack (the attack), eclipse.zones
(suppressive fire), eclipse.blasts (explosives), eclipse.actions (the others),
eclipse.turn_end (the end of the action turn); eclipse.turn_hooks plugs them into the
encounter.

Source: 001_e6266c120d4801b4.txt, "Actions" (automatic, quick and complex actions, the action
phases); the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_noop as N_

from eclipse.context import AttackContext
from eclipse.defence import BRACED, FULL_DEFENCE, QUICK_OWED
from eclipse.models import WeaponState
from eclipse.play_errors import CannotAct, NoSheet, NotATarget, NotCarried, WeaponUnusable
from eclipse.selectors import Armed, Loaded, loaded_sheets, params_of, rules_of
from encounters.models import EncounterEffect
from encounters.services import TurnContext, is_gm
from gamerules.eclipse_phase.health import can_act, condition
from gamerules.eclipse_phase.turn import ActionKind, PhaseActions
from gamerules.encounter import clock

# Effects' names, stored in English; marked for the catalogue (their pages translate them).
RUNNING, AIM_QUICK, AIM_COMPLEX = N_("Running (-10)"), N_("Aimed (+10)"), N_("Aimed (+30)")
COMPLEX_WEIGHT = 10


def phase_actions(encounter) -> PhaseActions:
    """What the current combatant used in this action phase (Encounter.turn_actions)."""
    n = encounter.turn_actions
    return PhaseActions(quick=n % COMPLEX_WEIGHT, complex=n // COMPLEX_WEIGHT)


def spend(ctx: TurnContext, kind: ActionKind) -> PhaseActions:
    """Count ``kind`` in the phase. Raises ActionsSpent ("no_action_left") when it does not
    fit."""
    after = phase_actions(ctx.encounter).spend(kind, params_of(ctx.encounter))
    ctx.encounter.turn_actions = after.quick + COMPLEX_WEIGHT * after.complex
    return after


def add_effect(ctx: TurnContext, name: str) -> EncounterEffect:
    """An effect the acting combatant bears (and anchors) until the start of its turn next
    round."""
    e = ctx.encounter
    return EncounterEffect.objects.create(
        encounter=e, name=name, bearer=ctx.combatant, anchor=ctx.combatant,
        edge=clock.Edge.START, rounds=1, created_round=e.round,
        expires_round=clock.expires_round(e.round, 1))


def borne(ctx: TurnContext, *names: str) -> list[EncounterEffect]:
    """The acting combatant's effects of ``names`` still lasting: one query."""
    return list(EncounterEffect.objects.filter(encounter=ctx.encounter, bearer=ctx.combatant,
                                               name__in=names, expired_round__isnull=True))


def expire(effects: list[EncounterEffect], round_: int) -> None:
    """End ``effects`` at ``round_``: one UPDATE (none for no effect). An effect read as an
    attack's flag (eclipse.context: its name borne, no id) is found by its bearer and name:
    every active one of that name, as reading them would have listed."""
    if not effects:
        return
    found = Q(pk__in=[f.pk for f in effects if f.pk is not None])
    for f in effects:
        if f.pk is None:
            found |= Q(encounter_id=f.encounter_id, bearer_id=f.bearer_id, name=f.name,
                       expired_round__isnull=True)
    EncounterEffect.objects.filter(found).update(expired_round=round_)


def loaded_of(combatant) -> Loaded:
    """``combatant``'s sheet loaded for the rules (eclipse.selectors.rules_of). Raises NoSheet."""
    if combatant.character is None:
        raise NoSheet(name=combatant.name)
    sheets = loaded_sheets([combatant.character_id])
    if combatant.character_id not in sheets:
        raise NoSheet(name=combatant.name)
    return rules_of(sheets[combatant.character_id])


def _able(ctx: TurnContext, me: Loaded) -> None:
    params = params_of(ctx.encounter)
    if not can_act(me.health, me.character.morph, params):
        state = condition(me.health, me.character.morph, params).value
        raise CannotAct(name=ctx.combatant.name,
                        state="stunned" if state == "active" else state)


def begin(ctx: TurnContext, kind: ActionKind, context: AttackContext | None = None
          ) -> Loaded:
    """The acting combatant's sheet, checked able to act; full defence ends at its first
    action of a later phase; ``kind`` counted. ``context``: what an attack loaded already
    (eclipse.context)."""
    me = loaded_of(ctx.combatant) if context is None else context.of(ctx.combatant)
    if me is None:
        raise NoSheet(name=ctx.combatant.name)
    _able(ctx, me)
    if ctx.encounter.turn_actions == 0:
        names = (FULL_DEFENCE, BRACED, QUICK_OWED)
        ending = borne(ctx, *names) if context is None else context.borne(ctx.combatant,
                                                                           *names)
        if any(f.name == QUICK_OWED for f in ending):
            spend(ctx, ActionKind.QUICK)  # a surprised defence spent a quick action of it
        expire(ending, ctx.encounter.round)
    spend(ctx, kind)
    return me


def phase_summary(ctx: TurnContext, **more) -> dict[str, Any]:
    """A journal entry's summary of an action in the phase: the encounter, the round, the phase,
    the combatant and what it spent in the phase so far, then ``more``."""
    spent = phase_actions(ctx.encounter)
    return {"encounter": ctx.encounter.pk, "round": ctx.encounter.round,
            "phase": ctx.encounter.current_phase + 1, "combatant": ctx.combatant.name,
            "quick": spent.quick, "complex": spent.complex, **more}


def target_of(ctx: TurnContext, target_id: int):
    """A combatant named as a target. A hidden one does not exist for the players (as in
    encounters.services): the same refusal as a wrong id."""
    target = ctx.combatants.get(target_id)
    if target is None or target.removed or target.character_id is None \
            or target.pk == ctx.combatant.pk \
            or (target.hidden and not is_gm(ctx.user, ctx.encounter)):
        raise NotATarget()
    return target


def armed_of(me: Loaded, weapon_id: int) -> Armed:
    """``me``'s carried weapon ``weapon_id``. Raises NotCarried, WeaponUnusable (jammed,
    destroyed)."""
    armed = next((a for a in me.weapons if a.row.pk == weapon_id), None)
    if armed is None:
        raise NotCarried()
    if armed.row.state in (WeaponState.JAMMED, WeaponState.DESTROYED):
        raise WeaponUnusable(weapon=armed.weapon.name, state=armed.row.get_state_display())
    return armed

