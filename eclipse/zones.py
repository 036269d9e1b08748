"""Suppressive fire in Eclipse Phase on the shared encounter: the fire opened into a zone (a
complex action, full auto, 20 rounds) with a free attack at each target in it, and the zone
lasting until the attacker's next action phase (an encounter effect) with a free attack at
whoever enters or acts in it (the GM's call).

Source: 001_e6266c120d4801b4.txt, "Options & Complications" ("Tir de suppression (TA)"); the
choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaigns.journal import record_action
from eclipse import environment, positions
from eclipse.acting import add_effect, armed_of, begin, borne, expire, phase_summary, target_of
from eclipse.context import AttackContext, attack_context
from eclipse.defence import DODGE, FULL_DEFENCE, answer_flags, resolve
from eclipse.models import CarriedWeapon
from eclipse.play_errors import GameMasterOnly, NotATarget, PlayError
from eclipse.selectors import Armed, params_of
from encounters.models import EncounterEffect
from encounters.services import TurnContext, encounter_act, encounter_changed
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.eclipse_phase.volley import AttackOrder

KIND_SUPPRESSIVE = "eclipse_suppressive"
ZONE = "Suppressive fire zone"


@dataclass(frozen=True)
class FireZone:
    """Where a suppressive fire goes. Without positions the attacker names who is in the zone
    (``target_ids``, combatants) and who is in cover (``in_cover_ids``, spared), as the table
    sees it; with positions the zone is drawn towards ``aim_id`` (a combatant) and says who
    is in it (those named and unplaced with them)."""

    target_ids: Sequence[int] = ()
    in_cover_ids: tuple[int, ...] = ()
    aim_id: int | None = None


def encounter_suppressive_fire(*, user, encounter_id: int, combatant_id: int, weapon_id: int,
                               fire: FireZone, turn: int | None = None,
                               rng: RandomSource | None = None, now: datetime | None = None):
    """Suppressive fire (a complex action, FA, 20 rounds; refused with a smaller magazine or
    fewer loaded: firing.suppressive_fire) into the zone of ``fire`` (FireZone).
    *Choice*: the free attacks ("sans modificateur": short range, no table row; the
    attacker's wounds count) are rolled when the fire opens, each target dodging (dodge/2),
    those in full defence spared (``suppressive_spares_full_defence``); ONE journal entry."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()

    def act(ctx: TurnContext):
        params = params_of(ctx.encounter)
        targets = [target_of(ctx, t) for t in dict.fromkeys(fire.target_ids)]
        aim = target_of(ctx, fire.aim_id) if fire.aim_id else None
        if not targets and aim is None:
            raise NotATarget()
        me = begin(ctx, ActionKind.COMPLEX)
        armed = armed_of(me, weapon_id)
        targets, after = _in_the_zone(ctx, armed, aim, targets, params)
        CarriedWeapon.objects.filter(pk=armed.row.pk).update(loaded=after.loaded)
        context = attack_context(ctx.encounter, ctx.combatant, targets,
                                 flags=answer_flags(ctx.combatant))
        order = AttackOrder(weapon=armed.row.pk, weapon_name=armed.weapon.name, mode="FA",
                            rounds=params.suppressive_rounds, range_band=RangeBand.SHORT)
        results, rolls, about = _free_attacks(ctx, context, order, targets,
                                              in_cover_ids=fire.in_cover_ids, rng=rng,
                                              params=params)
        context.changes.write()
        expire(borne(ctx, ZONE), ctx.encounter.round)  # a new fire replaces the old zone
        zone = add_effect(ctx, ZONE)
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_SUPPRESSIVE, now=now, user=ctx.user,
            actor=ctx.combatant.character,
            summary=phase_summary(ctx, weapon=armed.weapon.name, weapon_id=armed.row.pk,
                                  zone=zone.pk, rounds=params.suppressive_rounds,
                                  loaded=after.loaded, targets=results, roll_about=about),
            rolls=rolls)

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now, rng=rng)


def _in_the_zone(ctx: TurnContext, armed: Armed, aim, targets: list[Any], params):
    """Who a suppressive fire reaches and the magazine after it: with positions the zone
    aimed at ``aim`` says who (with those of ``targets`` not placed), without them
    ``targets``, as named. Raises FiringRefused (firing.suppressive_fire)."""
    aimed = positions.suppressive_zone(ctx.combatant, aim, armed.weapon, armed.magazine,
                                       params)  # with positions the zone says who
    if aimed is None:
        _zone, after = firing.suppressive_fire(armed.weapon, armed.magazine, ctx.combatant.pk,
                                               origin=(0.0, 0.0), heading=(1.0, 0.0),
                                               params=params)
        return targets, after
    zone, after = aimed
    named = [t for t in targets if t.point is None]  # the table's, for the unplaced
    return named + [t for t in positions.in_zone(zone, ctx.combatants.values())
                    if not t.removed and t.character_id and t not in named], after


def _free_attacks(ctx: TurnContext, context: AttackContext, order: AttackOrder,
                  targets: list[Any], *, in_cover_ids: tuple[int, ...], rng: RandomSource,
                  params) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """A suppressive fire's free attack at each of ``targets``, each dodging, those in cover or
    (``suppressive_spares_full_defence``) in full defence spared. Returns (one line per
    target, rolls, whom each roll is about: encounters.visibility)."""
    defending = {t.pk for t in targets if context.bears(t, FULL_DEFENCE)}
    results: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    about: list[int] = []
    for t in targets:
        if t.pk in in_cover_ids or (t.pk in defending
                                    and params.suppressive_spares_full_defence):
            results.append({"target": t.name, "spared": "cover" if t.pk in in_cover_ids
                            else "full_defence"})
            continue
        surprised = t.surprised and ctx.encounter.round == 1
        summary, more = resolve(context, ctx.combatant, t, order, choice=DODGE, rng=rng,
                                surprised=surprised)
        results.append({"target": t.name, **summary})
        rolls += more
        about += [t.pk] * len(more)
    return results, rolls, about


def encounter_zone_attack(*, user, encounter_id: int, zone_id: int, target_id: int,
                          in_cover: bool = False, rng: RandomSource | None = None,
                          now: datetime | None = None):
    """Someone enters or acts inside a suppressive fire's zone while it lasts (until the
    attacker's next action phase: the zone is an encounter effect borne and anchored by the
    attacker): the free attack, no round spent, the target dodging (dodge/2), spared when in
    cover (at the start of its action phase, as the table says) or in full defence. The GM
    calls it (no positions: the table says who enters), in anyone's turn. ONE journal entry.
    Raises GameMasterOnly, NotATarget, PlayError ("ep_play_refused": no such zone, over)."""
    from django.db import transaction

    from campaigns.models import ActionRecord
    from encounters.services import combatants_of

    rng, now = rng or random.SystemRandom(), now or timezone.now()
    with transaction.atomic():
        e = environment.lock_for_gm(user, encounter_id, GameMasterOnly)
        zone = EncounterEffect.objects.filter(pk=zone_id, encounter=e, name=ZONE,
                                              expired_round__isnull=True).first()
        opened = (ActionRecord.objects.filter(campaign=e.campaign, kind=KIND_SUPPRESSIVE,
                                              summary__zone=zone_id).first()
                  if zone is not None else None)
        if zone is None or opened is None or e.state != "running":
            raise PlayError()
        combatants = combatants_of(e)
        attacker, target = combatants.get(zone.anchor_id), combatants.get(target_id)
        if attacker is None or target is None or target.removed \
                or target.character_id is None or target.pk == attacker.pk:
            raise NotATarget()
        params = params_of(e)
        full = EncounterEffect.objects.filter(encounter=e, bearer=target, name=FULL_DEFENCE,
                                              expired_round__isnull=True).exists()
        line: dict[str, Any] = {"target": target.name, "zone": zone.pk, "free_attack": True,
                                "in_cover": in_cover}
        rolls: tuple[dict[str, Any], ...] = ()
        if in_cover or (full and params.suppressive_spares_full_defence):
            line["spared"] = "cover" if in_cover else "full_defence"
        else:
            order = AttackOrder(weapon=int(opened.summary["weapon_id"]), mode="FA",
                                range_band=RangeBand.SHORT)
            surprised = target.surprised and e.round == 1
            context = attack_context(e, attacker, [target], flags=answer_flags(attacker))
            summary, rolls = resolve(context, attacker, target, order, choice=DODGE, rng=rng,
                                     surprised=surprised)
            context.changes.write()
            line.update(summary)
        encounter_changed(e)
        return record_action(
            campaign=e.campaign, kind=KIND_SUPPRESSIVE, now=now, user=user,
            actor=attacker.character, target=target.character,
            summary={"encounter": e.pk, "round": e.round, "combatant": attacker.name,
                     "weapon": opened.summary.get("weapon", ""), "targets": [line]},
            rolls=rolls)

