"""An Eclipse Phase attack in turn on the shared encounter: declared (eclipse.declare, the
rounds spent), then every target prompted to defend (dodge, a melee skill against melee, each
with its own Moxie flip; surprised in round 1: only by spending a quick action) and resolved by
eclipse.defence once all have answered, or resolved at once when there is no defence to ask
for (psi, a helpless target); and the GM's word on an attack: the weapon mishap a defender's
critical caused, the range band corrected while the defence is pending.

Source: 001_e6266c120d4801b4.txt, "Combat" ("Défense", "Attaque": "Succès critique : arme de
l'attaquant détruite, coincée, enrayée"), "Options & Complications" ("Surprise & embuscade");
the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaigns.journal import record_action
from eclipse import environment
from eclipse.acting import AIM_COMPLEX, AIM_QUICK, RUNNING, begin, target_of
from eclipse.context import AttackContext, attack_context
from eclipse.declare import AttackChoices, declare
from eclipse.defence import (DODGE, KIND_ATTACK, RESOLVER, answer_flags, defence_options, hits_of,
                             resolve)
from eclipse.models import CarriedWeapon, WeaponState
from eclipse.play_errors import BadChoice, GameMasterOnly, PlayError
from encounters import notices
from encounters.services import Ask, TurnContext, encounter_act, encounter_changed
from gamerules.dice import RandomSource
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.eclipse_phase.volley import (AttackOrder, Placement, order_from_json,
                                            order_to_json)

NONE_KEY = "none"
MISHAPS = (WeaponState.DAMAGED, WeaponState.JAMMED, WeaponState.DESTROYED)


@dataclass(frozen=True)
class AttackStep:
    """What an attack in turn did: the pending reaction (None when resolved at once, then
    ``action_id`` is its journal entry) and the stored payload."""

    payload: dict[str, Any]
    reaction: Any = None
    action_id: int | None = None
    order: AttackOrder | None = None


def attack_flags(actor) -> tuple[str, ...]:
    """The effects an attack by ``actor`` reads (eclipse.context's flags, read with the
    sheets): the actor's full defence, bracing and surprised defence owed (ending at its
    action), its aim and its run; the targets' as their answer reads them."""
    return (*answer_flags(actor), AIM_QUICK, AIM_COMPLEX, RUNNING)


def encounter_attack(*, user, encounter_id: int, combatant_id: int, target_id: int,
                     choices: AttackChoices | None = None, turn: int | None = None,
                     rng: RandomSource | None = None, now: datetime | None = None,
                     **chosen: Any) -> AttackStep:
    """``combatant_id`` attacks ``target_id`` (a complex action) with a carried weapon: the
    rounds of the firing mode are spent, then the target is prompted to defend (dodge, a melee
    skill against melee, each with its own Moxie flip; surprised in round 1: only by spending
    a quick action), or, against psi, the attack is resolved at once. The volley's other
    targets (``choices.other_target_ids``) are prompted with it, each defending with its own answer,
    in the same entry. ``choices`` the attacker's (AttackChoices; or its fields given as
    keywords, ``chosen``). Raises TypeError for a keyword AttackChoices lacks, what
    encounter_act raises, PlayError, and the pure rules' refusals (ActionsSpent,
    FiringRefused, InvalidModifier, ManoeuvreRefused): nothing is kept then."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()
    picked = choices if choices is not None else AttackChoices(**chosen)

    def act(ctx: TurnContext) -> AttackStep:
        target = target_of(ctx, target_id)
        others = tuple(target_of(ctx, t) for t in dict.fromkeys(picked.other_target_ids)
                       if t != target_id)
        context = attack_context(ctx.encounter, ctx.combatant, [target, *others],
                                 flags=attack_flags(ctx.combatant))
        me = begin(ctx, ActionKind.COMPLEX, context)
        order = declare(ctx, me, target, picked, others=others, context=context)
        surprised = target.surprised and ctx.encounter.round == 1
        order = replace(order, surprised=surprised)
        if order.psi or order.defender_helpless:  # no defence to ask for
            return _at_once(ctx, context, target, order, others=others, rng=rng)
        options = defence_options(order.melee, moxie=order.defender_moxie,
                                  surprised=surprised)
        payload = order_to_json(order)
        lead = Ask(target, options, payload, NONE_KEY if surprised else DODGE)
        reaction = ctx.request_reactions([lead, *_others_asked(ctx, context, order, others)],
                                         resolver=RESOLVER)[0]
        return AttackStep(payload, reaction, order=order)

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now, rng=rng)


def _at_once(ctx: TurnContext, context: AttackContext, target, order: AttackOrder, *,
             others: tuple[Any, ...], rng: RandomSource) -> AttackStep:
    """An attack with no defence to ask for (psi, a helpless target): the volley rolled now
    with what the attack loaded, written once, journaled once."""
    summary, rolls = resolve(context, ctx.combatant, target, order, choice=NONE_KEY, rng=rng,
                             surprised=order.surprised)
    about: list[int] = []
    if others:
        from eclipse.defence import resolve_others

        more, extra, whom = resolve_others(context, ctx.combatant, order,
                                           {o.pk: o for o in others}, rng=rng)
        about = [target.pk] * len(rolls) + whom
        summary, rolls = {**summary, "others": more}, rolls + extra
    context.changes.write()
    payload = order_to_json(order)
    action = _immediate(ctx, target, payload, summary=summary, rolls=rolls, about=about)
    return AttackStep(payload, None, action.pk, order=order)


def _others_asked(ctx: TurnContext, context: AttackContext, order: AttackOrder,
                  others) -> list[Ask]:
    """What every other target of the volley is asked, prompted with the first (each its own
    options: its Moxie, surprised in round 1 or not), all pending at once; the resolver rolls
    the volley once all have answered or defaulted (encounters.services.request_reactions:
    one INSERT for them all)."""
    asks = []
    for other in others:
        surprised = other.surprised and ctx.encounter.round == 1
        them = context.of(other)
        asks.append(Ask(
            other, defence_options(order.melee, moxie=them is not None and them.sheet.moxie > 0,
                                   surprised=surprised),
            {"surprised": surprised}, NONE_KEY if surprised else DODGE))
    return asks


def _immediate(ctx: TurnContext, target, payload, *, summary, rolls, about=()):
    """The one journal entry of an attack with no defence to ask for, in the shape the
    encounter gives an answered prompt (``about``: whom each roll is about, for a volley)."""
    e = ctx.encounter
    notices.harmed(e, ctx.combatant, ctx.combatants.values(),
                   hits_of(ctx.combatants.values(), summary))
    return record_action(
        campaign=e.campaign, kind=KIND_ATTACK, now=ctx.now, user=ctx.user,
        actor=ctx.combatant.character, target=target.character,
        summary={"encounter": e.pk, "round": e.round,
                 "prompt": {"actor": ctx.combatant.name, "target": target.name,
                            "payload": payload, "options": [NONE_KEY], "default": NONE_KEY},
                 "answer": {"choice": NONE_KEY, "defaulted": False,
                            "by": getattr(ctx.user, "pk", None), "immediate": True},
                 "result": summary, **({"roll_about": list(about)} if about else {})},
        rolls=rolls)


def attack_mishap_choose(*, user, action_id: int, state: str,
                         encounter_id: int | None = None):
    """The GM picks what a defender's winning critical did to the attacker's weapon (damaged,
    jammed or destroyed; "jammed" until then): the carried weapon's state is set and the
    attack's journal entry says it (``weapon_mishap``, the default kept in
    ``weapon_mishap_default``). ``encounter_id`` when given must be the entry's. Raises
    GameMasterOnly, BadChoice, PlayError (no mishap in that entry, the encounter over)."""
    from django.db import transaction

    from campaigns.models import ActionRecord

    try:
        chosen = WeaponState(state)
    except ValueError:
        raise BadChoice(value=state) from None
    if chosen not in MISHAPS:
        raise BadChoice(value=state)
    entry = ActionRecord.objects.filter(pk=action_id, kind=KIND_ATTACK).first()
    of = (entry.summary or {}).get("encounter") if entry is not None else None
    if not of or (encounter_id is not None and of != encounter_id):
        raise PlayError()
    encounter_id = of
    with transaction.atomic():
        e = environment.lock_for_gm(user, encounter_id, GameMasterOnly)
        entry = ActionRecord.objects.select_for_update().get(pk=action_id)
        result = dict(entry.summary.get("result") or {})
        if not result.get("weapon_mishap") or e.state == "ended":
            raise PlayError()
        weapon_id = entry.summary["prompt"]["payload"]["weapon"]
        result.setdefault("weapon_mishap_default", result["weapon_mishap"])
        result["weapon_mishap"] = chosen.value
        result["weapon_mishap_by"] = user.pk
        entry.summary = {**entry.summary, "result": result}
        entry.save(update_fields=["summary"])
        CarriedWeapon.objects.filter(pk=weapon_id).update(state=chosen.value)
        encounter_changed(e)
        return entry


def reaction_range_correct(*, user, reaction_id: int, range_band: str):
    """The GM corrects the range band the attacker picked while the target's defence is
    pending (no positions: "the attacker picks, the GM may correct"). The old band is kept in
    the payload (``range_band_picked``). Raises GameMasterOnly, BadChoice, PlayError
    ("ep_play_refused": not pending, not an Eclipse Phase ranged attack, the prompt of a
    volley's other target: the band is the attack's, corrected on its first prompt)."""
    from django.db import transaction

    from encounters.models import PendingReaction
    from gamerules.encounter.reactions import Status

    try:
        band = RangeBand(range_band)
    except ValueError:
        raise BadChoice(value=range_band) from None
    encounter_id = (PendingReaction.objects.filter(pk=reaction_id)
                    .values_list("encounter_id", flat=True).first())
    if encounter_id is None:
        raise PlayError()
    with transaction.atomic():
        e = environment.lock_for_gm(user, encounter_id, GameMasterOnly)
        reaction = PendingReaction.objects.get(pk=reaction_id)
        if reaction.status != Status.PENDING or reaction.resolver != RESOLVER \
                or reaction.payload.get("melee") or reaction.lead_id is not None:
            raise PlayError()
        order = order_from_json(reaction.payload)
        placement = order.placement or Placement()
        if placement.range_band_picked is None:  # the first correction keeps the pick
            placement = replace(placement, range_band_picked=(
                order.range_band.value if order.range_band else ""))
        reaction.payload = order_to_json(replace(order, range_band=band, placement=placement))
        reaction.save(update_fields=["payload"])
        encounter_changed(e)
        return reaction

