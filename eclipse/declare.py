"""Declaring an Eclipse Phase attack: what the attacker chose (``AttackChoices``: ids and codes,
as the form and the API give them) checked into the attack's order
(``gamerules.eclipse_phase.volley.AttackOrder``) before any die: the weapon and its firing
mode's volley, the range band (the positions' when placed), the situations table's rows, an
aim or a run borne, a second weapon, a beam's sweep or concentration, blind and indirect fire.
The attack in turn (eclipse.attack) declares with it and the odds shown before it
(eclipse.play_selectors) read it without writing.

Source: 001_e6266c120d4801b4.txt, "Combat" ("Attaque"), "Options & Complications" (firing
modes, "Viser", "Armes à Rayons", "Tir en aveugle", "Tir indirect", "Coups améliorés", "Deux
Armes"), "Modificateurs de Combat généraux"; the choices are in docs/rules/eclipse-phase.md
("The encounter").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eclipse import environment, positions, tacnet
from eclipse.acting import AIM_COMPLEX, AIM_QUICK, RUNNING, armed_of, borne, expire, loaded_of
from eclipse.context import AttackContext
from eclipse.defence import DODGE, defence_choice
from eclipse.models import CarriedWeapon
from eclipse.play_errors import BadChoice, NoSheet
from eclipse.selectors import Armed, Loaded, params_of
from encounters.services import TurnContext
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.gear import DamageType, FiringMode, RangeBand
from gamerules.eclipse_phase.health import can_act
from gamerules.eclipse_phase.manoeuvres import Pace, movement, weapons_modifiers
from gamerules.eclipse_phase.volley import AttackOrder, Beam, Placement, ShotOrder
from gamerules.modifiers import Modifier

# A beam's sweep or concentration: two shots or bursts, at the one target.
BEAM_SHOTS = 2


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
    armed = armed_of(me, c.weapon_id)
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
    them = loaded_of(target) if context is None else context.of(target)
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
        expire(aims, ctx.encounter.round)
    return order


def _situations(ctx: TurnContext, c: AttackChoices, weapon,
                context: AttackContext | None) -> tuple[dict[str, int], list[Any], list[Any]]:
    """The table's rows chosen ({code: count}, an aim borne adding its row to a ranged attack
    unless one is chosen), the aims and the running the attacker bears (effects)."""
    chosen = {str(k): int(v) for k, v in (c.situations or {}).items() if v}
    aims = (borne(ctx, AIM_QUICK, AIM_COMPLEX) if context is None
            else context.borne(ctx.combatant, AIM_QUICK, AIM_COMPLEX))
    running = (borne(ctx, RUNNING) if context is None
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
        second = armed_of(me, second_weapon_id)
        if second.row.pk == armed.row.pk:
            raise BadChoice(value=second_weapon_id)
        extra += weapons_modifiers(me.character.morph, 2, off_hand=True, params=params)
    return extra


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

