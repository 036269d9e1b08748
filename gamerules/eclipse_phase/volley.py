"""An Eclipse Phase attack in the encounter, as typed values: the order the attacker gives
(``AttackOrder``, stored with the defence prompt by ONE schema: ``order_to_json`` and
``order_from_json``), the defender's answer read into ``attack.DefenceChoice``, and the whole
volley at one target rolled by ``resolve_volley``, which returns a ``VolleyOutcome`` that says
what happened: each roll in order, each shot's tests, margins, modifiers, DV, armour, wounds,
knockdown and stun, the Moxie spent, the target's health and condition after.

Source: 001_e6266c120d4801b4.txt, "Combat", "Défense", "Options & Complications" (each attack of
a volley "est un jet séparé"). The steps of one shot are ``attack.plan_attack``,
``checks.skill_test`` and ``checks.settle`` (the opposed test), ``attack.roll_damage`` and
``health.take_hit``; the choices are in docs/rules/eclipse-phase.md ("The encounter"): a
volley stops at the first jam (the defender's winning critical); a beam's sweep gives the
second shot +20 after a missed first, its concentration doubles the first hit's DV and forgoes
the second; blind fire rolls the attacker's perception first (failed: no attack); a disarming
called shot rolls the defender's SOMx3. No Django here: the app loads, locks, calls and writes
(eclipse.context, eclipse.defence).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from gamerules.dice import RandomSource
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.checks import SkillTest, Strain, skill_test, spend_moxie
from gamerules.eclipse_phase.errors import ManoeuvreRefused
from gamerules.eclipse_phase.gear import FiringMode, RangeBand, Weapon
from gamerules.eclipse_phase.health import (Condition, Health, HitResult, Incoming, can_act,
                                            take_hit)
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Character
from gamerules.modifiers import Modifier

# --- the defender's answer --------------------------------------------------------------------

DODGE, NONE = "dodge", "none"
MELEE_SKILLS = ("blades", "clubs", "unarmed_combat")
MOXIE_SUFFIX, QUICK_PREFIX = "+moxie", "quick:"


def defence_options(melee: bool, *, moxie: bool = False, surprised: bool = False) -> list[str]:
    """What the target may answer: dodge, and a melee skill against a melee attack; each also
    with "+moxie" (flip a failed defence roll, from the defender's pool) when ``moxie``; a
    ``surprised`` target defends only by spending a quick action ("quick:" before each)."""
    base = [DODGE, *(f"melee:{s}" for s in MELEE_SKILLS)] if melee else [DODGE]
    keys = [k for b in base for k in ((b, b + MOXIE_SUFFIX) if moxie else (b,))]
    return [NONE, *((QUICK_PREFIX + k for k in keys) if surprised else keys)]


@dataclass(frozen=True)
class Answer:
    """A defence answer read: ``base`` ("none", "dodge", "melee:<skill>"), ``moxie`` the
    defender flips a failed defence roll, ``quick`` a surprised defender spends a quick
    action to defend."""

    base: str
    moxie: bool = False
    quick: bool = False


def read_answer(choice: str) -> Answer:
    quick = choice.startswith(QUICK_PREFIX)
    rest = choice[len(QUICK_PREFIX):] if quick else choice
    moxie = rest.endswith(MOXIE_SUFFIX)
    return Answer(rest[:-len(MOXIE_SUFFIX)] if moxie else rest, moxie, quick)


def defence_choice(choice: str, *, surprised: bool, full_defence: bool,
                   situations: Mapping[str, int] | None = None,
                   braced: bool = False, extra: tuple[Modifier, ...] = ()
                   ) -> rules.DefenceChoice:
    """The pure DefenceChoice of an answer ("none", "dodge", "melee:<skill>", with "+moxie"
    and "quick:": read_answer). A surprised target defends only with "quick:" (spend_quick);
    ``braced`` it delayed its action to receive a charge; ``extra`` the surroundings'
    modifiers (the encounter's high gravity)."""
    answer = read_answer(choice)
    if surprised and not answer.quick:
        return rules.DefenceChoice(kind=rules.Defence.NONE, surprised=True)
    full = full_defence and not surprised
    if answer.base.startswith("melee:"):
        return rules.DefenceChoice(kind=rules.Defence.MELEE_SKILL, skill=answer.base[6:],
                                   full_defence=full, surprised=surprised,
                                   spend_quick=surprised, delayed_for_charge=braced,
                                   situations=situations or {}, extra=extra)
    kind = rules.Defence.DODGE if answer.base == DODGE else rules.Defence.NONE
    active = kind is not rules.Defence.NONE
    return rules.DefenceChoice(kind=kind, full_defence=full and active,
                               surprised=surprised and active, spend_quick=surprised,
                               delayed_for_charge=braced, situations=situations or {},
                               extra=extra)


# --- the order and its one schema -------------------------------------------------------------

ORDER_VERSION = 2  # 1: the untyped payload before issue 20 (no "version" key), read the same


class Beam(StrEnum):
    NONE = ""
    SWEEP = "sweep"
    CONCENTRATE = "concentrate"


@dataclass(frozen=True)
class ShotOrder:
    """One shot (or burst) of a volley: its firing mode's ``modifiers``, ``extra_d10`` (a
    concentrated burst, full auto), ``target`` the combatant it is aimed at (None: the
    prompted target)."""

    modifiers: tuple[Modifier, ...] = ()
    extra_d10: int = 0
    target: int | None = None


@dataclass(frozen=True)
class Placement:
    """Where the target stood when positions say it (``range_from`` "positions"):
    ``distance_m``, a melee ``reach_m``; ``range_band_picked`` the band the attacker picked
    before the GM corrected it (None: not corrected)."""

    distance_m: float | None = None
    range_from: str = ""
    reach_m: int = 0
    range_band_picked: str | None = None


@dataclass(frozen=True)
class AttackOrder:
    """Everything an attack in the encounter declared, checked before any die and stored with
    the defence prompt: ``weapon`` the carried weapon's id; ``mode`` the firing mode ("":
    melee), ``rounds`` spent; the attack's options (``range_band``, ``situations``,
    ``charge``, ``called_shot``, ``one_handed``, ``subdue``, ``extra`` modifiers: movement,
    gravity, second weapon, indirect fire); ``shots`` the volley; ``moxie`` the attacker flips
    a failed attack; ``beam``; ``blind_fire``; indirect fire with its spotter; ``others`` the
    volley's other targets (combatant ids); what the defender could do (``defender_moxie``,
    ``defender_helpless``) and ``surprised`` (round 1)."""

    weapon: int
    weapon_name: str = ""
    mode: str = ""
    rounds: int = 0
    range_band: RangeBand | None = None
    situations: Mapping[str, int] = field(default_factory=dict)
    charge: bool = False
    called_shot: rules.CalledShot | None = None
    one_handed: bool = False
    extra: tuple[Modifier, ...] = ()
    shots: tuple[ShotOrder, ...] = (ShotOrder(),)
    moxie: bool = False
    melee: bool = False
    psi: bool = False
    description: str = ""
    subdue: bool = False
    beam: Beam = Beam.NONE
    blind_fire: bool = False
    indirect: bool = False
    spotter: bool = False
    spotter_name: str = ""
    precise_effect: str = ""
    others: tuple[int, ...] = ()
    placement: Placement | None = None
    defender_moxie: bool = False
    defender_helpless: bool = False
    surprised: bool = False

    @property
    def firing_mode(self) -> FiringMode | None:
        return FiringMode(self.mode) if self.mode else None

    def shots_at(self, target: int) -> tuple[ShotOrder, ...]:
        """The shots aimed at ``target`` (a shot without a target: the prompted one's)."""
        return tuple(s for s in self.shots if s.target in (None, target))

    def options(self, shot: ShotOrder) -> rules.AttackOptions:
        """The pure AttackOptions of one shot."""
        return rules.AttackOptions(
            situations=dict(self.situations), range_band=self.range_band, charge=self.charge,
            called_shot=self.called_shot, one_handed=self.one_handed, subdue=self.subdue,
            extra=self.extra + shot.modifiers)


def _modifiers_json(mods: Sequence[Modifier]) -> list[dict[str, str | int]]:
    return [m.as_record() for m in mods]


def _modifiers_read(rows: Any) -> tuple[Modifier, ...]:
    return tuple(Modifier(str(r["label"]), int(r["value"]), str(r.get("source", "")))
                 for r in rows or ())


def order_to_json(order: AttackOrder) -> dict[str, Any]:
    """The stored form of an order (PendingReaction.payload, the journal's prompt): the keys
    the pages and the journal read, and ``version``."""
    data: dict[str, Any] = {
        "version": ORDER_VERSION, "weapon": order.weapon, "weapon_name": order.weapon_name,
        "mode": order.mode, "rounds": order.rounds,
        "range_band": order.range_band.value if order.range_band else "",
        "situations": dict(order.situations), "charge": order.charge,
        "called_shot": order.called_shot.value if order.called_shot else "",
        "one_handed": order.one_handed, "extra": _modifiers_json(order.extra),
        "shots": [{"modifiers": _modifiers_json(s.modifiers), "extra_d10": s.extra_d10,
                   **({"target": s.target} if s.target is not None else {})}
                  for s in order.shots],
        "moxie": order.moxie, "melee": order.melee, "psi": order.psi,
        "description": order.description, "subdue": order.subdue, "beam": order.beam.value,
        "blind_fire": order.blind_fire, "indirect": order.indirect, "spotter": order.spotter,
        "spotter_name": order.spotter_name, "precise_effect": order.precise_effect,
        "others": list(order.others), "defender_moxie": order.defender_moxie,
        "defender_helpless": order.defender_helpless, "surprised": order.surprised}
    p = order.placement
    if p is not None:
        if p.range_from:
            data.update({"distance_m": p.distance_m, "range_from": p.range_from})
            if p.reach_m:
                data["reach_m"] = p.reach_m
        if p.range_band_picked is not None:
            data["range_band_picked"] = p.range_band_picked
    return data


class OrderUnreadable(ValueError):
    """A stored order of a version this code does not know."""


def order_from_json(data: Mapping[str, Any]) -> AttackOrder:
    """The order of a stored payload: this version's, or version 1 (the untyped dict stored
    before, the same keys without ``version``; a key it lacks takes its default). Raises
    OrderUnreadable for a later version."""
    version = int(data.get("version", 1))
    if version > ORDER_VERSION:
        raise OrderUnreadable(f"attack order version {version}")
    band, called = data.get("range_band") or "", data.get("called_shot") or ""
    placement = None
    if data.get("range_from") or "range_band_picked" in data:
        distance = data.get("distance_m")
        placement = Placement(distance_m=float(distance) if distance is not None else None,
                              range_from=str(data.get("range_from") or ""),
                              reach_m=int(data.get("reach_m") or 0),
                              range_band_picked=data.get("range_band_picked"))
    shots = tuple(ShotOrder(_modifiers_read(s.get("modifiers")), int(s.get("extra_d10") or 0),
                            int(s["target"]) if s.get("target") is not None else None)
                  for s in data.get("shots") or [{}])
    return AttackOrder(
        weapon=int(data["weapon"]), weapon_name=str(data.get("weapon_name") or ""),
        mode=str(data.get("mode") or ""), rounds=int(data.get("rounds") or 0),
        range_band=RangeBand(band) if band else None,
        situations={str(k): int(v) for k, v in (data.get("situations") or {}).items()},
        charge=bool(data.get("charge")),
        called_shot=rules.CalledShot(called) if called else None,
        one_handed=bool(data.get("one_handed")), extra=_modifiers_read(data.get("extra")),
        shots=shots, moxie=bool(data.get("moxie")), melee=bool(data.get("melee")),
        psi=bool(data.get("psi")), description=str(data.get("description") or ""),
        subdue=bool(data.get("subdue")), beam=Beam(data.get("beam") or ""),
        blind_fire=bool(data.get("blind_fire")), indirect=bool(data.get("indirect")),
        spotter=bool(data.get("spotter")), spotter_name=str(data.get("spotter_name") or ""),
        precise_effect=str(data.get("precise_effect") or ""),
        others=tuple(int(o) for o in data.get("others") or ()), placement=placement,
        defender_moxie=bool(data.get("defender_moxie")),
        defender_helpless=bool(data.get("defender_helpless")),
        surprised=bool(data.get("surprised")))


# --- one volley at one target -----------------------------------------------------------------

@dataclass(frozen=True)
class Fighter:
    """One side of a volley as the rules read it: the character, its sleeve's health, its
    traumas, and the Moxie points it offers for flips (0: none)."""

    character: Character
    health: Health = field(default_factory=Health)
    traumas: int = 0
    moxie: int = 0

    def combatant(self, health: Health | None = None) -> rules.Combatant:
        h = health if health is not None else self.health
        return rules.Combatant(self.character, h.wounds, self.traumas, h.knocked_down)


class Side(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class Roll:
    """One roll of the volley, in the order rolled: a test (``test``) or the damage
    (``damage``), by the attacker or the defender."""

    side: Side
    test: SkillTest | None = None
    damage: rules.DamageRoll | None = None


@dataclass(frozen=True)
class Shot:
    """One shot's outcome: the attack and defence (``result``: tests, margins, modifiers,
    hit, critical, DV bonus), the DV (``damage``) and what it did (``hit``: armour, wounds,
    SOMx3, knockdown, stun, condition), a disarming shot's SOMx3 (``disarm``), the jam."""

    result: rules.AttackResult
    damage: rules.DamageRoll | None = None
    hit: HitResult | None = None
    disarm: SkillTest | None = None
    mishap: bool = False

    @property
    def disarmed(self) -> bool:
        return self.disarm is not None and not self.disarm.success


@dataclass(frozen=True)
class VolleyOutcome:
    """What a volley did at one target: ``perception`` the blind fire's test (None: not
    blind; failed: no shot); ``shots``; ``rolls`` every roll in order; ``health`` the
    target's after (``before`` its before); ``condition`` after its last hit (ACTIVE without
    one); both Moxie pools left; ``mishap`` a shot jammed the weapon (the volley stopped);
    ``concentrated``/``forgone`` a beam's concentration and the second shot it gave up;
    ``subdued`` a subdue attack got its hold."""

    defence: rules.DefenceChoice
    shots: tuple[Shot, ...]
    rolls: tuple[Roll, ...]
    before: Health
    health: Health
    condition: Condition
    attacker_moxie: int
    defender_moxie: int
    perception: SkillTest | None = None
    mishap: bool = False
    concentrated: bool = False
    forgone: bool = False

    @property
    def fired(self) -> bool:
        return self.perception is None or self.perception.success

    @property
    def subdued(self) -> bool:
        return any(s.result.subdue and s.result.subdued for s in self.shots)

    @property
    def hits(self) -> int:
        return sum(1 for s in self.shots if s.result.hit)


@dataclass(frozen=True)
class MoxiePools:
    """The Moxie points each side offers to flip a failed test of the volley: the
    ``attacker``'s (its attack tests) and the ``defender``'s (its defence tests)."""

    attacker: int = 0
    defender: int = 0


def opposed_shot(attacker: rules.Combatant, defender: rules.Combatant, weapon: Weapon,
                 rng: RandomSource, params: EclipsePhaseParameters, *,
                 options: rules.AttackOptions, defence: rules.DefenceChoice,
                 moxie: MoxiePools = MoxiePools()) -> tuple[rules.AttackResult, MoxiePools]:
    """One shot: the attack test, then (when it succeeds and a defence is allowed) the
    defence, settled as an opposed test, with the Moxie flips: the attacker's of a failed
    attack test when ``moxie.attacker`` points are offered, the defender's of a failed defence
    test when ``moxie.defender`` are (each flip spends one point, and only when it turns the
    failure into a success: checks.spend_moxie). Returns the result and both pools left.
    Raises as ``attack.plan_attack``."""
    plan = rules.plan_attack(attacker, defender, weapon, params, options=options,
                             defence=defence)
    test = skill_test(plan.attack_base, rng, params, label=plan.attack_label,
                      modifiers=plan.attack_modifiers)
    test, attacker_moxie = _flip(test, moxie.attacker, params)
    against = None
    defender_moxie = moxie.defender
    if test.success and plan.defence_kind is not rules.Defence.NONE:
        against = skill_test(plan.defence_base, rng, params, label=plan.defence_label,
                             modifiers=plan.defence_modifiers)
        against, defender_moxie = _flip(against, defender_moxie, params)
    result = rules._result(weapon, test, against, plan, options=options, defender=defender,
                           params=params)
    return result, MoxiePools(attacker_moxie, defender_moxie)


def _flip(test: SkillTest, pool: int, params: EclipsePhaseParameters) -> tuple[SkillTest, int]:
    """A failed test flipped for a Moxie point when that makes it a success."""
    if test.success or pool <= 0:
        return test, pool
    flipped, left = spend_moxie(test, pool, params)
    return (flipped, left) if flipped.success else (test, pool)


def blind_perception(attacker: Fighter, rng: RandomSource, params: EclipsePhaseParameters
                     ) -> SkillTest:
    """Blind fire's perception test, rolled before the attack."""
    return skill_test(attacker.character.skill("perception", params), rng, params,
                      label="perception (blind fire)",
                      strain=Strain(wounds=attacker.health.wounds, traumas=attacker.traumas))


def sweep_bonus(weapon: Weapon, order: AttackOrder, first: Shot | None,
                params: EclipsePhaseParameters) -> tuple[Modifier, ...]:
    """A beam's sweep: +20 on the second shot after a missed first (none after a hit)."""
    mode = order.firing_mode
    if order.beam is not Beam.SWEEP or mode is None or first is None:
        return ()
    try:
        return (firing.sweep_modifier(weapon, mode, first.result.hit, params),)
    except ManoeuvreRefused:
        return ()  # the first shot hit: no sweep bonus


@dataclass
class _Running:
    """The volley's state between shots (resolve_volley's only mutable value)."""

    health: Health
    condition: Condition
    attacker_moxie: int
    defender_moxie: int
    rolls: list[Roll] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    concentrated: bool = False


def damage_of(result: rules.AttackResult, attacker: Fighter, defender: Fighter,
              health: Health, shot: ShotOrder, *, rng: RandomSource,
              params: EclipsePhaseParameters, concentrate: bool = False
              ) -> tuple[rules.DamageRoll, HitResult, SkillTest | None]:
    """A hit's DV through the target's armour and AP, its wounds, the SOMx3 against
    knockdown or stun, and a disarming called shot's SOMx3 (None for another shot)."""
    dmg = rules.roll_damage(result, attacker.character, rng, params,
                            extra_d10=shot.extra_d10, concentrate=concentrate)
    hit = take_hit(defender.character, health,
                   Incoming(dmg.dv, dmg.damage_type, dmg.ap, ignore_armour=dmg.ignore_armour),
                   rng, params, traumas=defender.traumas)
    keep = None
    if result.called_effect is rules.CalledShot.DISARM:
        keep = rules.disarm_test(rules.Combatant(defender.character, hit.after.wounds,
                                                 defender.traumas), rng, params)
    return dmg, hit, keep


@dataclass(frozen=True)
class _Setting:
    """What every shot of one target's volley shares (resolve_volley's arguments): who fires
    ``weapon`` at whom, the ``order``, the ``defence`` put up, blind fire's ``extra``
    modifiers, the ``aimed`` shots at this target, the dice and the parameters."""

    attacker: Fighter
    defender: Fighter
    weapon: Weapon
    order: AttackOrder
    defence: rules.DefenceChoice
    extra: tuple[Modifier, ...]
    aimed: int
    rng: RandomSource
    params: EclipsePhaseParameters


def _one_shot(index: int, shot: ShotOrder, run: _Running, setting: _Setting) -> Shot:
    """The ``index``-th shot of the volley: the opposed attack and defence (with a beam's
    sweep bonus on the second), then a hit's damage, wounds and tests; ``run`` follows."""
    attacker, defender, weapon, order = (setting.attacker, setting.defender, setting.weapon,
                                         setting.order)
    rng, params, aimed = setting.rng, setting.params, setting.aimed
    first = run.shots[0] if index == 1 and run.shots else None
    more = (setting.extra + sweep_bonus(weapon, order, first, params) if index == 1
            else setting.extra)
    options = order.options(shot)
    if more:
        options = replace(options, extra=options.extra + more)
    result, pools = opposed_shot(
        attacker.combatant(), defender.combatant(run.health), weapon, rng, params,
        options=options, defence=setting.defence,
        moxie=MoxiePools(run.attacker_moxie, run.defender_moxie))
    run.attacker_moxie, run.defender_moxie = pools.attacker, pools.defender
    run.rolls.append(Roll(Side.ATTACKER, result.attack))
    if result.defence is not None:
        run.rolls.append(Roll(Side.DEFENDER, result.defence))
    if not result.hit or result.subdue:
        return Shot(result, mishap=result.weapon_mishap)
    mode = order.firing_mode
    concentrate = (index == 0 and order.beam is Beam.CONCENTRATE and mode is not None
                   and aimed > 1)
    if concentrate and mode is not None:  # (mode: narrowed for mypy)
        firing.check_concentration(weapon, mode, True)
        run.concentrated = True
    dmg, hit, keep = damage_of(result, attacker, defender, run.health, shot, rng=rng,
                               params=params, concentrate=concentrate)
    run.rolls.append(Roll(Side.ATTACKER, damage=dmg))
    if hit.som_test is not None:
        run.rolls.append(Roll(Side.DEFENDER, hit.som_test))
    if keep is not None:
        run.rolls.append(Roll(Side.DEFENDER, keep))
    run.health, run.condition = hit.after, hit.condition
    return Shot(result, dmg, hit, keep, result.weapon_mishap)


def resolve_volley(attacker: Fighter, defender: Fighter, weapon: Weapon, order: AttackOrder, *,
                   shots: Sequence[ShotOrder], defence: rules.DefenceChoice,
                   rng: RandomSource, params: EclipsePhaseParameters) -> VolleyOutcome:
    """Roll every shot of ``shots`` (the order's shots aimed at this target) against
    ``defender`` defending with ``defence``, each a separate roll: blind fire's perception
    first (failed: no shot, -30 on each after a success), then for each shot the opposed
    attack and defence with their Moxie flips, the margin's DV bonus, a critical ignoring
    armour, the DV through armour and AP, wounds, knockdown and stun; a beam's sweep and
    concentration; a disarming shot's SOMx3. Stops at the first jam (the defender's winning
    critical). Raises what ``attack.plan_attack`` raises."""
    run = _Running(defender.health, Condition.ACTIVE, attacker.moxie, defender.moxie)
    perception = None
    extra: tuple[Modifier, ...] = ()
    if order.blind_fire:
        perception = blind_perception(attacker, rng, params)
        run.rolls.append(Roll(Side.ATTACKER, perception))
        if perception.success:
            extra = (firing.blind_fire_modifier(perception, params),)
    setting = _Setting(attacker, defender, weapon, order, defence, extra, len(shots), rng, params)
    forgone = mishap = False
    for index, shot in enumerate(shots if perception is None or perception.success else ()):
        if index == 1 and run.concentrated:
            forgone = True
            break
        done = _one_shot(index, shot, run, setting)
        run.shots.append(done)
        if done.mishap:
            mishap = True
            break
    return VolleyOutcome(defence, tuple(run.shots), tuple(run.rolls), defender.health,
                         run.health, run.condition, run.attacker_moxie, run.defender_moxie,
                         perception, mishap, run.concentrated, forgone)


def defence_of(order: AttackOrder, choice: str, defender: Fighter,
               params: EclipsePhaseParameters, *, surprised: bool, full_defence: bool,
               braced: bool, extra: tuple[Modifier, ...]) -> tuple[str, Answer,
                                                                  rules.DefenceChoice]:
    """The defence a target puts up: its ``choice`` (read_answer), none when it cannot act
    (unconscious, stunned, dead: defending is automatic); full defence, bracing for a charge
    (``braced``, only against a charge) and the surroundings' ``extra``. Returns the choice
    read, its answer and the DefenceChoice."""
    if not can_act(defender.health, defender.character.morph, params):
        choice = NONE
    return choice, read_answer(choice), defence_choice(
        choice, surprised=surprised, full_defence=full_defence,
        braced=braced and order.charge, extra=extra)


# --- an explosion's targets -------------------------------------------------------------------

@dataclass(frozen=True)
class BlastHit:
    """One target of an explosion: ``who`` (the caller's key), its ``distance`` and DV, what
    the hit did (``hit``: armour, damage, wounds, the SOMx3, knockdown, stun, condition)."""

    who: int
    distance: float
    dv: int
    hit: HitResult


def blast_hits(weapon: Weapon, by_target: Sequence[tuple[int, float, int]],
               fighters: Mapping[int, Fighter], rng: RandomSource,
               params: EclipsePhaseParameters) -> tuple[BlastHit, ...]:
    """Each target of an explosion (``by_target``: explosives.Explosion.by_target, who,
    metres, DV) takes its DV through its armour and the weapon's AP (health.take_hit), in
    order; a target without a sleeve (absent from ``fighters``) is left out."""
    hits = []
    for who, distance, dv in by_target:
        f = fighters.get(who)
        if f is not None:
            hits.append(BlastHit(who, distance, dv, take_hit(
                f.character, f.health, Incoming(dv, weapon.damage_type, weapon.ap), rng, params,
                traumas=f.traumas)))
    return tuple(hits)
