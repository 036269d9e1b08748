"""Eclipse Phase played on the shared encounter (issue 12, items 3, 4, 7): actions in turn with
their quick/complex accounting, the attack and its defence prompt, full defence, reload, stand
up, move, aim, another action, and the end of the action turn (bleeding, stun).

Every action goes through ``encounters.services.encounter_act`` (the encounter locked, its turn
checked, the user playing the combatant). A turn of the encounter is one action phase (the
encounter plays SPD turns a round: eclipse.encounter); its actions are counted in
``Encounter.turn_actions`` as quick + 10 x complex and checked by
``gamerules.eclipse_phase.turn.PhaseActions`` (three quick, or one quick and one complex;
automatic actions free). The encounter's own one-action count is not used
(``costs_action=False``).

States that last: full defence, aiming and running are EncounterEffects borne by the combatant
(the encounter shows them and expires them at the start of its turn next round); full defence
also ends at the combatant's first action of a later phase ("until its next turn"), aiming when
an attack uses it.

Source: 001_e6266c120d4801b4.txt, "Actions", "Combat", "Défense", "Options & Complications";
the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from campaigns.journal import record_action
from eclipse import environment, positions, tacnet
from eclipse.context import AttackContext, attack_context
from eclipse.defence import (BRACED, DODGE, FULL_DEFENCE, KIND_ATTACK, MELEE_SKILLS, MOXIE_SUFFIX,
                             QUICK_OWED, QUICK_PREFIX, RESOLVER, defence_choice,
                             answer_flags, defence_options, held_by, params_of, resolve,
                             test_json, test_row)
from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve, WeaponState
from eclipse.play_errors import (BadChoice, CannotAct, GameMasterOnly, NoSheet, NotATarget,
                                 NotCarried, PlayError, TurnEndDone, WeaponUnusable)
from eclipse.selectors import (SHEET_RELATED, Armed, Loaded, health_of, loaded_sheets,
                               lock_sheets, morph_of, rules_of)
from encounters.models import EncounterEffect
from encounters.services import Ask, TurnContext, encounter_act, encounter_changed, is_gm
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.gear import BlastKind, DamageType, FiringMode, RangeBand
from gamerules.eclipse_phase.health import can_act, condition, end_of_turn, stand_up
from gamerules.eclipse_phase.manoeuvres import Pace, movement, weapons_modifiers
from gamerules.eclipse_phase.turn import ActionKind, PhaseActions
from gamerules.eclipse_phase.volley import (AttackOrder, Beam, Fighter, Placement, ShotOrder,
                                            blast_hits, order_from_json, order_to_json)
from gamerules.encounter import clock
from gamerules.modifiers import Modifier

KIND_ACTION, KIND_MOVE, KIND_RELOAD = "eclipse_action", "eclipse_move", "eclipse_reload"
KIND_TURN_END = "eclipse_turn_end"
# Effects' names, stored in English; marked for the catalogue (their pages translate them).
RUNNING, AIM_QUICK, AIM_COMPLEX = N_("Running (-10)"), N_("Aimed (+10)"), N_("Aimed (+30)")
ACTION_NAME_MAX = 120
COMPLEX_WEIGHT = 10


# --- action accounting ----------------------------------------------------------------------

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


def _effect(ctx: TurnContext, name: str) -> EncounterEffect:
    e = ctx.encounter
    return EncounterEffect.objects.create(
        encounter=e, name=name, bearer=ctx.combatant, anchor=ctx.combatant,
        edge=clock.Edge.START, rounds=1, created_round=e.round,
        expires_round=clock.expires_round(e.round, 1))


def _mine(ctx: TurnContext, *names: str) -> list[EncounterEffect]:
    return list(EncounterEffect.objects.filter(encounter=ctx.encounter, bearer=ctx.combatant,
                                               name__in=names, expired_round__isnull=True))


def _expire(effects: list[EncounterEffect], round_: int) -> None:
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


def attack_flags(actor) -> tuple[str, ...]:
    """The effects an attack by ``actor`` reads (eclipse.context's flags, read with the
    sheets): the actor's full defence, bracing and surprised defence owed (ending at its
    action), its aim and its run; the targets' as their answer reads them."""
    return (*answer_flags(actor), AIM_QUICK, AIM_COMPLEX, RUNNING)


def _loaded(combatant) -> Loaded:
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


def _begin(ctx: TurnContext, kind: ActionKind, context: AttackContext | None = None
           ) -> Loaded:
    """The acting combatant's sheet, checked able to act; full defence ends at its first
    action of a later phase; ``kind`` counted. ``context``: what an attack loaded already
    (eclipse.context)."""
    me = _loaded(ctx.combatant) if context is None else context.of(ctx.combatant)
    if me is None:
        raise NoSheet(name=ctx.combatant.name)
    _able(ctx, me)
    if ctx.encounter.turn_actions == 0:
        names = (FULL_DEFENCE, BRACED, QUICK_OWED)
        ending = _mine(ctx, *names) if context is None else context.borne(ctx.combatant,
                                                                           *names)
        if any(f.name == QUICK_OWED for f in ending):
            spend(ctx, ActionKind.QUICK)  # a surprised defence spent a quick action of it
        _expire(ending, ctx.encounter.round)
    spend(ctx, kind)
    return me


def _context(ctx: TurnContext, **more) -> dict[str, Any]:
    spent = phase_actions(ctx.encounter)
    return {"encounter": ctx.encounter.pk, "round": ctx.encounter.round,
            "phase": ctx.encounter.current_phase + 1, "combatant": ctx.combatant.name,
            "quick": spent.quick, "complex": spent.complex, **more}


# --- the attack -----------------------------------------------------------------------------

@dataclass(frozen=True)
class AttackStep:
    """What an attack in turn did: the pending reaction (None when resolved at once, then
    ``action_id`` is its journal entry) and the stored payload."""

    payload: dict[str, Any]
    reaction: Any = None
    action_id: int | None = None
    order: AttackOrder | None = None


def _target(ctx: TurnContext, target_id: int):
    """A combatant named as a target. A hidden one does not exist for the players (as in
    encounters.services): the same refusal as a wrong id."""
    target = ctx.combatants.get(target_id)
    if target is None or target.removed or target.character_id is None \
            or target.pk == ctx.combatant.pk \
            or (target.hidden and not is_gm(ctx.user, ctx.encounter)):
        raise NotATarget()
    return target


def _armed(me: Loaded, weapon_id: int) -> Armed:
    armed = next((a for a in me.weapons if a.row.pk == weapon_id), None)
    if armed is None:
        raise NotCarried()
    if armed.row.state in (WeaponState.JAMMED, WeaponState.DESTROYED):
        raise WeaponUnusable(weapon=armed.weapon.name, state=armed.row.get_state_display())
    return armed


def volley(armed: Armed, mode: str, shots: int, *, concentrate: str, targets: list[int],
           params) -> firing.Volley:
    """The volley of one complex action at ``targets`` (the first the prompted one): SA one
    shot each (a second target at -20), BF every burst at them all and FA the one attack at
    them all (two, three within 1 m: the attacker declares them so, positions to check), or
    every shot at the one target. Raises FiringRefused (mode not offered, too few rounds,
    too many targets: nothing spent), BadChoice."""
    weapon, magazine = armed.weapon, armed.magazine
    try:
        fm = FiringMode(mode) if mode else min(weapon.modes, key=list(FiringMode).index)
        conc = firing.Concentrate(concentrate) if concentrate else None
    except ValueError:
        raise BadChoice(value=mode or concentrate) from None
    spacing = (float(params.spread_m),) * (len(targets) - 1)
    if shots > 1 and fm not in (FiringMode.SA, FiringMode.BF):
        raise BadChoice(value=f"{fm.value} x{shots}")  # only SA and BF fire twice an action
    if fm is FiringMode.SS:
        if len(targets) > 1:
            raise BadChoice(value=mode)
        return firing.single_shot(weapon, magazine, targets[0])
    if fm is FiringMode.SA:
        return firing.semi_auto(weapon, magazine, targets if len(targets) > 1
                                else targets * max(1, shots), params)
    if fm is FiringMode.BF:
        burst = firing.Burst(tuple(targets), spacing, concentrate=conc)
        return firing.burst_fire(weapon, magazine, [burst] * max(1, shots), params)
    return firing.full_auto(weapon, magazine, firing.Burst(tuple(targets), spacing,
                                                           concentrate=conc), params)


def _mods(mods) -> list[dict[str, Any]]:
    return [m.as_record() for m in mods]


@dataclass(frozen=True)
class AttackChoices:
    """What the attacker chose, as the form and the API give it (ids and codes, checked by
    ``declare`` into an AttackOrder): the carried weapon (``weapon_id``), firing ``mode``
    ("": the weapon's first), ``shots`` (SA, BF: 1 or 2), ``concentrate`` ("bonus",
    "damage"), ``range_band``, the table's ``situations`` {code: count}, ``charge``,
    ``called_shot``, a ``second_weapon_id`` in the off hand, ``one_handed``, a ``moxie``
    flip, ``description``, ``subdue``, ``beam`` ("sweep", "concentrate"), ``indirect`` fire
    with a declared ``spotter`` or a TACNet ``spotter_id``, a called shot's
    ``precise_effect``, the volley's other targets (``other_target_ids``, combatants)."""

    weapon_id: int
    mode: str = ""
    shots: int = 1
    concentrate: str = ""
    range_band: str = ""
    situations: Mapping[str, int] | None = None
    charge: bool = False
    called_shot: str = ""
    second_weapon_id: int | None = None
    one_handed: bool = False
    moxie: bool = False
    description: str = ""
    subdue: bool = False
    beam: str = ""
    indirect: bool = False
    spotter: bool = False
    precise_effect: str = ""
    spotter_id: int | None = None
    other_target_ids: Sequence[int] = ()


def declare(ctx: TurnContext, me: Loaded, target, choices: AttackChoices, *,
            others: tuple[Any, ...] = (), spend_rounds: bool = True,
            context: AttackContext | None = None) -> AttackOrder:
    """The attack's order (gamerules.eclipse_phase.volley.AttackOrder) of ``choices``, every
    choice checked by the pure rules (plan_attack, firing's beam and indirect-fire checks)
    before any die; the rounds spent (``spend_rounds``). ``others`` the volley's other
    targets; blind fire is the "blind" row with a ranged weapon (the perception test is
    rolled with the attack); indirect fire's spotter is ``spotter_id`` (a fellow member
    perceiving the target when the attacker is in a TACNet: eclipse.tacnet.spotting) or the
    table's declared ``spotter``. ``context``: what the attack loaded (eclipse.context; None:
    read here). Raises what plan_attack, firing and spotting raise."""
    c = choices
    params = params_of(ctx.encounter)
    armed = _armed(me, c.weapon_id)
    weapon = armed.weapon
    chosen, aims, running = _situations(ctx, c, weapon, context)
    extra = _declared_modifiers(ctx, me, armed, running, second_weapon_id=c.second_weapon_id,
                                params=params, context=context)
    blind_fire = not weapon.melee and bool(chosen.pop("blind", 0))
    spotter, spotted_by = c.spotter, ""
    if c.indirect:
        spotter, spotted_by = tacnet.spotting(ctx, target, spotter=spotter,
                                              spotter_id=c.spotter_id)
        extra += firing.indirect_fire_modifiers(weapon, spotter=spotter, params=params)
    band, called = _band_and_called_shot(c, weapon)
    placed = positions.attack_range(ctx.combatant, target, weapon)  # None: the pick stays
    if placed is not None:
        band = placed.band
    shot_orders, rounds, mode_used = _shots(armed, c, [target.pk, *(o.pk for o in others)],
                                            params=params, spend_rounds=spend_rounds)
    them = _loaded(target) if context is None else context.of(target)
    if them is None:
        raise NoSheet(name=target.name)
    order = AttackOrder(
        weapon=armed.row.pk, weapon_name=weapon.name, mode=mode_used, rounds=rounds,
        range_band=band, situations=chosen, charge=c.charge, called_shot=called,
        one_handed=c.one_handed, extra=tuple(extra), shots=shot_orders, moxie=c.moxie,
        melee=weapon.melee, psi=weapon.damage_type is DamageType.PSI,
        description=c.description.strip()[:300], subdue=c.subdue,
        beam=Beam(c.beam) if c.beam in {b.value for b in Beam} else Beam.NONE,
        blind_fire=blind_fire, indirect=c.indirect, spotter=spotter and c.indirect,
        spotter_name=spotted_by,
        precise_effect=c.precise_effect.strip()[:300] if c.called_shot == "precise" else "",
        others=tuple(o.pk for o in others),
        placement=None if placed is None else Placement(
            distance_m=placed.record()["distance_m"], range_from="positions",
            reach_m=placed.reach_m),
        defender_moxie=them.sheet.moxie > 0,
        defender_helpless=not can_act(them.health, them.character.morph, params))
    attacker = rules.Combatant(me.character, me.health.wounds, me.mind.traumas)
    defender = rules.Combatant(them.character, them.health.wounds, them.mind.traumas,
                               them.health.knocked_down)
    rules.plan_attack(attacker, defender, weapon, params, options=order.options(shot_orders[0]),
                      defence=defence_choice(DODGE, surprised=False, full_defence=False))
    if aims and not weapon.melee and spend_rounds:
        _expire(aims, ctx.encounter.round)
    return order


def _situations(ctx: TurnContext, c: AttackChoices, weapon,
                context: AttackContext | None) -> tuple[dict[str, int], list[Any], list[Any]]:
    """The table's rows chosen ({code: count}, an aim borne adding its row to a ranged attack
    unless one is chosen), the aims and the running the attacker bears (effects)."""
    chosen = {str(k): int(v) for k, v in (c.situations or {}).items() if v}
    aims = (_mine(ctx, AIM_QUICK, AIM_COMPLEX) if context is None
            else context.borne(ctx.combatant, AIM_QUICK, AIM_COMPLEX))
    running = (_mine(ctx, RUNNING) if context is None
               else context.borne(ctx.combatant, RUNNING))
    if aims and not weapon.melee and not any(k.startswith("aim_") for k in chosen):
        chosen["aim_complex" if any(a.name == AIM_COMPLEX for a in aims) else "aim_quick"] = 1
    return chosen, aims, running


def _band_and_called_shot(c: AttackChoices, weapon
                          ) -> tuple[RangeBand | None, rules.CalledShot | None]:
    """The chosen range band (none for melee) and called shot. Raises BadChoice."""
    try:
        band = RangeBand(c.range_band) if c.range_band and not weapon.melee else None
        called = rules.CalledShot(c.called_shot) if c.called_shot else None
    except ValueError:
        raise BadChoice(value=c.range_band or c.called_shot) from None
    return band, called


def _shots(armed: Armed, c: AttackChoices, targets: list[int], *, params, spend_rounds: bool
           ) -> tuple[tuple[ShotOrder, ...], int, str]:
    """A ranged attack's shots at ``targets`` (combatant ids, the prompted one first), the
    rounds it spends and its firing mode; the magazine written when ``spend_rounds``. A melee
    attack: one shot, no round, no mode. Raises FiringRefused, ManoeuvreRefused, BadChoice."""
    if armed.weapon.melee:
        return (ShotOrder(),), 0, ""
    v = volley(armed, c.mode, c.shots, concentrate=c.concentrate, targets=targets,
               params=params)
    shot_orders = tuple(ShotOrder(tuple(s.modifiers), s.extra_d10, int(str(s.target)))
                        for s in v.shots)  # (the targets are combatant ids)
    if c.beam:
        _beam_check(armed, v, c.beam, params)
    if spend_rounds:
        CarriedWeapon.objects.filter(pk=armed.row.pk).update(loaded=v.magazine.loaded)
    return shot_orders, v.rounds, v.mode.value


def _declared_modifiers(ctx: TurnContext, me: Loaded, armed: Armed, running: list[Any], *,
                        second_weapon_id: int | None, params,
                        context: AttackContext | None = None) -> list[Modifier]:
    """The attack's modifiers from the attacker's state: running, the encounter's high
    gravity (item 7), a second weapon in the off hand. Raises NotCarried, WeaponUnusable,
    BadChoice (the same weapon twice)."""
    extra: list[Modifier] = []
    if running:
        extra += movement(Pace.RUN, params).modifiers
    extra += (environment.gravity(ctx.encounter).modifiers if context is None
              else context.gravity)
    if second_weapon_id:
        second = _armed(me, second_weapon_id)
        if second.row.pk == armed.row.pk:
            raise BadChoice(value=second_weapon_id)
        extra += weapons_modifiers(me.character.morph, 2, off_hand=True, params=params)
    return extra


# A beam's sweep or concentration: two shots or bursts, at the one target.
BEAM_SHOTS = 2


def _beam_check(armed: Armed, v: firing.Volley, beam: str, params) -> None:
    """A sweep or a concentration needs a beam, SA or BF, and two shots or bursts at the one
    target. Raises ManoeuvreRefused, BadChoice."""
    if beam == "sweep":
        firing.sweep_modifier(armed.weapon, v.mode, False, params)
    elif beam == "concentrate":
        firing.check_concentration(armed.weapon, v.mode, True)
    else:
        raise BadChoice(value=beam)
    if len(v.shots) != BEAM_SHOTS or len({s.target for s in v.shots}) != 1:
        raise BadChoice(value=beam)


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
        target = _target(ctx, target_id)
        others = tuple(_target(ctx, t) for t in dict.fromkeys(picked.other_target_ids)
                       if t != target_id)
        context = attack_context(ctx.encounter, ctx.combatant, [target, *others],
                                 flags=attack_flags(ctx.combatant))
        me = _begin(ctx, ActionKind.COMPLEX, context)
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


NONE_KEY = "none"


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


KIND_SUPPRESSIVE = "eclipse_suppressive"


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
        targets = [_target(ctx, t) for t in dict.fromkeys(fire.target_ids)]
        aim = _target(ctx, fire.aim_id) if fire.aim_id else None
        if not targets and aim is None:
            raise NotATarget()
        me = _begin(ctx, ActionKind.COMPLEX)
        armed = _armed(me, weapon_id)
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
        _expire(_mine(ctx, ZONE), ctx.encounter.round)  # a new fire replaces the old zone
        zone = _effect(ctx, ZONE)
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_SUPPRESSIVE, now=now, user=ctx.user,
            actor=ctx.combatant.character,
            summary=_context(ctx, weapon=armed.weapon.name, weapon_id=armed.row.pk,
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


ZONE = "Suppressive fire zone"


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


MISHAPS = (WeaponState.DAMAGED, WeaponState.JAMMED, WeaponState.DESTROYED)


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


KIND_EXPLOSION = "eclipse_explosion"


@dataclass(frozen=True)
class BlastAim:
    """Where an explosive goes off: ``targets`` (combatant id, metres from the centre; for a
    cone, from the weapon, with its ``range_band``), as the table places them without
    positions; with positions, the blast centred on a combatant (``centre_id``) or a point
    (``centre``: x, y in metres), a cone from the attacker."""

    targets: Sequence[tuple[int, float]] = ()
    range_band: str = ""
    centre_id: int | None = None
    centre: tuple[Any, Any] | None = None


def encounter_explode(*, user, encounter_id: int, combatant_id: int, weapon_id: int,
                      aim: BlastAim, turn: int | None = None, rng: RandomSource | None = None,
                      now: datetime | None = None):
    """An explosive goes off (a complex action; one round of its magazine when it has one)
    where ``aim`` (BlastAim) says. The DV is rolled once (explosives.explode: -2 per metre of
    a blast, the same in a uniform blast's radius, the cone's d10), then each target takes it
    through its armour (health.take_hit). *Choice*: no attack test (throwing and scatter are
    the table's call). ONE journal entry."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()

    def act(ctx: TurnContext):
        from campaigns.journal import roll_row
        from gamerules.eclipse_phase.explosives import explode

        params = params_of(ctx.encounter)
        placed = [(_target(ctx, t), float(d)) for t, d in dict(aim.targets).items()]
        if any(d < 0 for _t, d in placed):
            raise NotATarget()
        me = _begin(ctx, ActionKind.COMPLEX)
        armed = _armed(me, weapon_id)
        placed, band, where = _blast_reach(ctx, armed, aim, placed, params)
        if not placed:
            raise NotATarget()
        if armed.weapon.magazine:
            after = armed.magazine.spend(1)
            CarriedWeapon.objects.filter(pk=armed.row.pk).update(loaded=after.loaded)
        boom = explode(armed.weapon, [(t.pk, d) for t, d in placed], rng, params, band=band)
        rolls = [roll_row(label="explosion", roll=boom.roll, actor=ctx.combatant.character)]
        if boom.cone_roll is not None:
            rolls.append(roll_row(label="cone", roll=boom.cone_roll,
                                  actor=ctx.combatant.character))
        about: list[int | None] = [None] * len(rolls)  # the DV: everyone's
        context = attack_context(ctx.encounter, ctx.combatant,
                                 [t for t, _d in placed if t.pk != ctx.combatant.pk],
                                 flags=(FULL_DEFENCE,))
        lines, more, whom = _blast_damage(context, armed, boom, placed, rng=rng, params=params)
        rolls += more
        about += whom
        context.changes.write()
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_EXPLOSION, now=now, user=ctx.user,
            actor=ctx.combatant.character,
            summary=_context(ctx, weapon=armed.weapon.name, blast=armed.weapon.blast.value
                             if armed.weapon.blast else "", dv=boom.dv, targets=lines,
                             roll_about=about, **where),
            rolls=rolls)

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now, rng=rng)


def _blast_reach(ctx: TurnContext, armed: Armed, aim: BlastAim, placed: list[Any], params
                 ) -> tuple[list[Any], RangeBand | None, dict[str, Any]]:
    """Whom the blast reaches and how far: (combatant, metres) pairs, the cone's range band
    and what the summary says of where it went. A cone from the attacker and a centred blast
    read the positions when they have them; otherwise the table's ``placed``. Raises
    BadChoice (an unknown range band)."""
    try:
        band = RangeBand(aim.range_band) if aim.range_band else None
    except ValueError:
        raise BadChoice(value=aim.range_band) from None
    where: dict[str, Any] = {}
    if armed.weapon.blast is BlastKind.CONE:  # from the attacker: positions when all have
        cone = positions.cone_distances(ctx.combatant, [t for t, _d in placed], armed.weapon)
        if cone is not None:
            placed, band = cone
            where = {"range_band": band.value, "range_from": "positions"}
    elif aim.centre_id or aim.centre is not None:  # the blast's reach from positions
        point, where = positions.blast_centre(
            ctx.combatant, _centre(ctx, aim.centre_id) if aim.centre_id else aim.centre,
            armed.weapon)
        placed = positions.blast_targets(point, armed.weapon, [
            c for c in ctx.combatants.values() if not c.removed and c.character_id], params)
    return placed, band, where


def _blast_damage(context: AttackContext, armed: Armed, boom, placed: list[Any], *,
                  rng: RandomSource, params
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int | None]]:
    """The rolled DV (``boom``: explosives.explode's) through each target's armour, kept in
    ``context`` (health, defeats) for the one write. Returns (one line per target, the SOM
    tests' rolls, whom each is about)."""
    from gamerules.eclipse_phase.health import Condition

    by_pk = {t.pk: t for t, _d in placed}
    fighters = {pk: Fighter(them.character, them.health, them.mind.traumas)
                for pk, t in by_pk.items()
                if (them := context.of(t)) is not None and them.sleeved}
    lines, rolls, about = [], [], []
    for blast in blast_hits(armed.weapon, [(int(str(w)), d, dv) for w, d, dv
                                           in boom.by_target], fighters, rng, params):
        target, hit = by_pk[blast.who], blast.hit
        if hit.som_test is not None:
            rolls.append(test_row(hit.som_test, target.character))
            about.append(target.pk)
        context.set_health(target.character_id or 0, hit.after)
        if hit.condition is not Condition.ACTIVE:
            context.defeat(target)
        lines.append({"target": target.name, "distance_m": blast.distance, "dv": blast.dv,
                      "armour_effective": hit.armour.effective, "damage": hit.damage,
                      "new_wounds": hit.new_wounds, "som_test": test_json(hit.som_test),
                      "knocked_down": hit.knocked_down, "stunned": hit.stunned,
                      "condition": hit.condition.value})
    return lines, rolls, about


def _centre(ctx: TurnContext, centre_id: int):
    """The combatant a blast is centred on; a hidden one does not exist for the players (the
    same refusal as a wrong id: no centre)."""
    centre = ctx.combatants.get(centre_id)
    if centre is not None and centre.hidden and not is_gm(ctx.user, ctx.encounter):
        return None
    return centre


# --- the other actions ----------------------------------------------------------------------

def _act(user, encounter_id, combatant_id, *, turn, now, fn):
    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=fn, costs_action=False, turn=turn, now=now or timezone.now())


def _journal(ctx: TurnContext, kind: str, rolls=(), **summary):
    return record_action(campaign=ctx.encounter.campaign, kind=kind, now=ctx.now, user=ctx.user,
                         actor=ctx.combatant.character, summary=_context(ctx, **summary),
                         rolls=list(rolls))


def encounter_full_defence(*, user, encounter_id: int, combatant_id: int,
                           turn: int | None = None, now: datetime | None = None):
    """Full defence (a complex action): +30 to every defence until the combatant's next
    action phase (seed, "Défense totale : esquive +30 (action complexe)")."""
    def act(ctx: TurnContext):
        _begin(ctx, ActionKind.COMPLEX)
        if not _mine(ctx, FULL_DEFENCE):
            _effect(ctx, FULL_DEFENCE)
        return _journal(ctx, KIND_ACTION, action="full_defence", cost="complex",
                        bonus=params_of(ctx.encounter).full_defence_bonus)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_brace(*, user, encounter_id: int, combatant_id: int,
                    turn: int | None = None, now: datetime | None = None):
    """Wait for a charge (a complex action: the phase's action delayed to prepare): +20 to
    the defence against a charge until the combatant's next action phase (seed, "Recevoir
    une charge : bonus de 20 à la défense si on a retardé son action")."""
    def act(ctx: TurnContext):
        _begin(ctx, ActionKind.COMPLEX)
        if not _mine(ctx, BRACED):
            _effect(ctx, BRACED)
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
        me = _begin(ctx, ActionKind.COMPLEX)
        holder = ctx.combatants[hold.anchor_id]
        them = _loaded(holder)
        out = escape(me.character, them.character, way, rng,
                     params_of(ctx.encounter), held_wounds=me.health.wounds,
                     holder_wounds=them.health.wounds)
        rolls = [test_row(out.test, ctx.combatant.character)]
        if out.opposed is not None:
            rolls.append(test_row(out.opposed.second, holder.character))
        if out.free:
            _expire([hold], ctx.encounter.round)
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_ACTION, now=ctx.now, user=ctx.user,
            actor=ctx.combatant.character, target=holder.character,
            summary=_context(ctx, action="escape", cost="complex", how=how, free=out.free,
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
        me = _begin(ctx, ActionKind.COMPLEX)
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
        me = _loaded(ctx.combatant)
        if not me.health.knocked_down:
            raise PlayError("ep_not_knocked_down", code="ep_not_knocked_down",
                            name=ctx.combatant.name)
        _begin(ctx, ActionKind.QUICK)
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
        me = _begin(ctx, ActionKind.QUICK)
        went = positions.move(ctx.combatant, me, chosen, params_of(ctx.encounter), x=to.x,
                              y=to.y, extension=to.extension, rng=rng or random.SystemRandom())
        moved = went.movement
        if chosen is Pace.RUN and not _mine(ctx, RUNNING):
            _effect(ctx, RUNNING)
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
        _begin(ctx, cost)
        _expire(_mine(ctx, AIM_QUICK, AIM_COMPLEX), ctx.encounter.round)
        _effect(ctx, AIM_QUICK if cost is ActionKind.QUICK else AIM_COMPLEX)
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
        _begin(ctx, cost)
        return _journal(ctx, KIND_ACTION, action="other", name=label, cost=cost.value)
    return _act(user, encounter_id, combatant_id, turn=turn, now=now, fn=act)


def encounter_turn_end(*, user, encounter_id: int, now: datetime | None = None):
    """The end of the action turn (the GM, once a round): each combatant's sleeve bleeds
    (beyond DUR with a wound) and counts one turn of stun down (health.end_of_turn); those
    now out of the fight are marked defeated. One journal entry. Raises GameMasterOnly,
    NotEclipse (another system's encounter), TurnEndDone (this round's was applied)."""
    from django.db import transaction

    from campaigns.models import ActionRecord
    from encounters.models import Combatant as CombatantRow

    now = now or timezone.now()
    with transaction.atomic():
        # another system's encounter: nothing bleeds, no entry
        e, combatants = environment.lock_for_gm_with_combatants(user, encounter_id,
                                                                GameMasterOnly)
        if ActionRecord.objects.filter(campaign=e.campaign, kind=KIND_TURN_END,
                                       summary__encounter=e.pk,
                                       summary__round=e.round).exists():
            raise TurnEndDone()
        params = params_of(e)
        playing = [c for c in combatants.values() if not c.removed and c.character_id]
        # the sheets locked, then read with their sleeves: the bleeding reads only the
        # sleeve's health and morph (no weapon, no armour: two queries fewer)
        ids = lock_sheets([c.character_id for c in playing if c.character_id])
        sheets = {s.pk: s for s in EclipseSheet.objects.filter(pk__in=ids)
                  .select_related(*SHEET_RELATED)}
        changed, lines, down = [], [], []
        for c in playing:
            sheet = sheets.get(c.character_id or 0)
            if sheet is None or sheet.sleeve is None:
                continue
            end = end_of_turn(health_of(sheet.sleeve), morph_of(sheet.sleeve), params)
            if end.after != end.before:
                s = sheet.sleeve
                s.damage, s.stunned = end.after.damage, end.after.stunned
                changed.append(s)
                lines.append({"name": c.name, "bled": end.bled, "damage": end.after.damage,
                              "stunned": end.after.stunned, "condition": end.condition.value})
            if end.condition.value != "active" and not c.defeated:
                down.append(c.pk)
        if changed:
            Sleeve.objects.bulk_update(changed, ["damage", "stunned"])
        if down:
            CombatantRow.objects.filter(pk__in=down).update(defeated=True)
        encounter_changed(e)
        return record_action(campaign=e.campaign, kind=KIND_TURN_END, now=now, user=user,
                             summary={"encounter": e.pk, "round": e.round, "lines": lines})


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


LABELS_KEYS = (DODGE, NONE_KEY, *(f"melee:{s}" for s in MELEE_SKILLS))


def register() -> None:
    """The resolver, the actions partial, and the labels of the defence options and the
    journal's kinds (added to the spec's ``action_labels``)."""
    from django.utils.text import format_lazy
    from django.utils.translation import gettext_lazy as _

    from campaigns import rule_systems
    from eclipse import defence
    from encounters import hooks

    defence.register()
    from eclipse.ambush import KIND_AMBUSH

    hooks.register_journal_kinds("eclipse_phase", (
        KIND_ATTACK, KIND_ACTION, KIND_MOVE, KIND_RELOAD, KIND_TURN_END, KIND_SUPPRESSIVE,
        KIND_EXPLOSION, KIND_AMBUSH, environment.KIND_GRAVITY))
    hooks.register_map_move("eclipse_phase", map_move)
    hooks.register_templates("eclipse_phase", hooks.EncounterTemplates(
        actions="eclipse/encounter/_turn.html", reaction="eclipse/encounter/_reaction.html",
        panel="eclipse/encounter/_tacnet.html"))
    spec = rule_systems.get("eclipse_phase")
    labels = spec.action_labels if spec is not None else None
    if isinstance(labels, dict):  # the spec's own dict: a new spec would be another helper's
        base = {DODGE: _("Dodge"), "melee:blades": _("Parry (blades)"),
                "melee:clubs": _("Parry (clubs)"),
                "melee:unarmed_combat": _("Parry (unarmed combat)")}
        for key, label in base.items():
            labels[key] = label
            labels[key + MOXIE_SUFFIX] = format_lazy(_("{}, Moxie flip if it fails"), label)
            labels[QUICK_PREFIX + key] = format_lazy(_("{} (surprised: a quick action)"),
                                                     label)
            labels[QUICK_PREFIX + key + MOXIE_SUFFIX] = format_lazy(
                _("{} (surprised: a quick action), Moxie flip if it fails"), label)
        labels.update({
            NONE_KEY: _("No defence"),
            KIND_ATTACK: _("Attack"), KIND_ACTION: _("Action"), KIND_MOVE: _("Move"),
            KIND_TURN_END: _("End of the action turn"),
            KIND_SUPPRESSIVE: _("Suppressive fire"), KIND_EXPLOSION: _("Explosion"),
            # The effects' names (stored in English), as the shared encounter lists them,
            # with the campaign's numbers (encounters.selectors.EncounterView.label).
            RUNNING: _("Running (-%(running_malus)s)"),
            AIM_QUICK: _("Aimed (+%(aim_quick_bonus)s)"),
            AIM_COMPLEX: _("Aimed (+%(aim_complex_bonus)s)"), ZONE: _("Suppressive fire zone"),
            defence.FULL_DEFENCE: _("Full defence (+%(full_defence_bonus)s)"),
            defence.BRACED: _("Braced for a charge (+%(receive_charge_bonus)s)"),
            defence.QUICK_OWED: _("Defended while surprised (quick action)")})


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
