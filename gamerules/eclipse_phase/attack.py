"""An attack and its defence, then the damage value (DV) it deals.

Source: 001_e6266c120d4801b4.txt, "Combat", "Défense": "contre une attaque de mêlée : jet
d'esquive. contre une attaque à distance : jet d' (esquive/2). Défense totale : esquive +30
(action complexe). En cas de surprise, soit le personnage ne peut se défendre, soit il doit
utiliser une action rapide pour le faire (au lieu d'une action automatique). Succès critique :
arme de l'attaquant détruite, coincée, enrayée, etc."; "Attaque": "Le jet le plus haut qui est
un succès l'emporte. Marge de succès 30+ : +5 à la Valeur de Dommages (VD). Marge de succès 60+ :
+10 [...] Succès critique : ignore l'armure de l'adversaire"; "Dommages psi résistés grâce à
VOL"; "Charge : attaque -10 (course), VD +10"; "Recevoir une charge : bonus de 20 à la défense si
on a retardé son action pour se préparer à la charge"; "Maîtriser : [...] une attaque avec une
Marge de Succès requise égale à la DUR de son adversaire"; "Coups améliorés : [...] il attaque
avec un malus de 10 et doit obtenir une Marge de Succès de 30+ ; il peut alors choisir un des
effets suivants : Ignorer armure [...] Désarmer l'adversaire (VD/2, jet de SOMx3 pour garder son
arme) [...] Cible précise"; "Attaque de contact : [...] Attaque de mêlée avec un bonus de 20";
"Arme à deux mains dans une seule main : -20".

Steps: ``resolve_attack`` rolls the attack test, then (on a success) the defence, and says
whether it hits; ``roll_damage`` rolls the DV of a hit (the beam concentration is announced
there, before damage); ``health.take_hit`` applies it. Choices (docs/rules/eclipse-phase.md):
the defence is rolled only after a successful attack; a tie goes to the defence
(``combat_tie_to_defender``); the defender's critical success damages the weapon only when the
defence wins; melee DV gets SOM / 10 (``melee_damage_bonus_divisor``); a psi attack is opposed
by WIL x2 whatever the surprise; a called shot that hits under margin 30 is a plain hit; a
subdue attack deals no damage; the beam concentration doubles the whole DV, bonuses included;
disarming halves it rounding down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from gamerules.dice import DiceRoll, RandomSource, roll
from gamerules.eclipse_phase.checks import (SkillTest, Strain, condition_modifiers, difficulty,
                                           settle, skill_test)
from gamerules.eclipse_phase.errors import DefenceRefused, ManoeuvreRefused
from gamerules.eclipse_phase.gear import DamageType, RangeBand, Weapon
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character
from gamerules.eclipse_phase.situations import modifier, modifiers_for
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.d100 import Grade
from gamerules.modifiers import Modifier, total

RANGE_CODES = {RangeBand.POINT_BLANK: "point_blank", RangeBand.SHORT: "short_range",
               RangeBand.MEDIUM: "medium_range", RangeBand.LONG: "long_range",
               RangeBand.EXTREME: "extreme_range"}


class Defence(StrEnum):
    NONE = "none"
    DODGE = "dodge"  # fray; halved against ranged attacks
    MELEE_SKILL = "melee_skill"  # a melee skill, against melee attacks only
    WILLPOWER = "willpower"  # against psi: WIL x2


class CalledShot(StrEnum):
    IGNORE_ARMOUR = "ignore_armour"
    DISARM = "disarm"
    PRECISE = "precise"  # the effect the GM describes


@dataclass(frozen=True)
class Combatant:
    """One side of an attack: the character and its state."""

    character: Character
    wounds: int = 0
    traumas: int = 0
    knocked_down: bool = False


@dataclass(frozen=True)
class DefenceChoice:
    """``kind``; ``skill`` the melee skill for MELEE_SKILL; ``full_defence`` declared earlier with
    a complex action; ``surprised`` (then only ``spend_quick`` allows a defence);
    ``delayed_for_charge`` the defender delayed its action (receiving a charge +20);
    ``situations`` defence-side table rows {code: count}; ``extra`` modifiers of the defender's
    surroundings (high gravity: manoeuvres.gravity_modifiers), on any defence but psi's."""

    kind: Defence = Defence.DODGE
    skill: str = ""
    full_defence: bool = False
    surprised: bool = False
    spend_quick: bool = False
    delayed_for_charge: bool = False
    situations: Mapping[str, int] = field(default_factory=dict)
    extra: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class AttackOptions:
    """What the attacker chose. ``situations`` attack-side table rows {code: count};
    ``range_band`` for a ranged attack (None: short range); ``charge``;
    ``called_shot``; ``subdue``; ``one_handed`` a two-handed weapon held in one hand;
    ``extra`` other modifiers (firing modes, movement, several weapons)."""

    situations: Mapping[str, int] = field(default_factory=dict)
    range_band: RangeBand | None = None
    charge: bool = False
    called_shot: CalledShot | None = None
    subdue: bool = False
    one_handed: bool = False
    difficulty: int = 0
    extra: tuple[Modifier, ...] = ()


def attack_modifiers(attacker: Combatant, defender: Combatant, weapon: Weapon,
                     options: AttackOptions, params: EclipsePhaseParameters
                     ) -> tuple[Modifier, ...]:
    """Every modifier of the attack test but the difficulty and the attacker's wounds."""
    kind: Literal["melee", "ranged"] = "melee" if weapon.melee else "ranged"
    if weapon.melee and options.range_band is not None:
        raise ManoeuvreRefused("melee_attack_no")
    mods = list(modifiers_for(options.situations, attack=kind, side="attack", params=params))
    if not weapon.melee:
        mods.append(modifier(RANGE_CODES[options.range_band or RangeBand.SHORT], params))
    if options.charge:
        if not weapon.melee:
            raise ManoeuvreRefused("only_melee_attack")
        mods.append(modifier("charging", params))
    if options.called_shot is not None:
        mods.append(modifier("called_shot", params))
    if weapon.touch:
        mods.append(modifier("touch", params))
    if options.one_handed and weapon.two_handed:
        mods.append(modifier("two_handed_one_hand", params))
    if defender.knocked_down:
        mods.append(modifier("target_knocked_down", params))
    return tuple(mods) + tuple(options.extra)


def defence_base(defender: Combatant, weapon: Weapon, choice: DefenceChoice,
                 params: EclipsePhaseParameters) -> tuple[int, str]:
    """(the defence's base value, its label). Raises DefenceRefused for a melee skill against a
    ranged attack or anything but WIL against psi."""
    c = defender.character
    if weapon.damage_type is DamageType.PSI:
        x = params.psi_resist_multiplier
        return c.aptitude(Aptitude.WIL, params) * x, f"WILx{x} against psi"
    if choice.kind is Defence.WILLPOWER:
        raise DefenceRefused("willpower_resists_psi")
    if choice.kind is Defence.MELEE_SKILL:
        if not weapon.melee:
            raise DefenceRefused("melee_skill_defends")
        if not choice.skill:
            raise DefenceRefused("name_melee_skill")
        return c.skill(choice.skill, params), choice.skill
    fray = c.skill("fray", params)
    if weapon.melee:
        return fray, "dodge"
    return fray // params.ranged_dodge_divisor, f"dodge/{params.ranged_dodge_divisor}"


@dataclass(frozen=True)
class AttackResult:
    """``attack`` the attack test; ``defence`` the defence test (None: no defence rolled, see
    ``defence_kind``); ``defence_cost`` the action the defence cost (automatic, quick when
    surprised; None without one); ``hit``; ``tie`` both succeeded with the same grade and
    roll; ``weapon_mishap`` the defender's winning critical (the GM picks damaged, jammed or
    destroyed); ``dv_bonus`` from the margin; ``ignore_armour`` a critical hit or a called
    shot's effect; ``called_effect`` the called shot effect obtained; ``subdued``."""

    weapon: Weapon
    attack: SkillTest
    defence: SkillTest | None
    defence_kind: Defence
    defence_cost: ActionKind | None
    hit: bool
    tie: bool
    weapon_mishap: bool
    dv_bonus: int
    ignore_armour: bool
    called_effect: CalledShot | None
    subdued: bool
    charge: bool
    subdue: bool = False

    @property
    def critical(self) -> bool:
        return self.hit and self.attack.grade is Grade.CRITICAL_SUCCESS


def margin_dv_bonus(margin: int, params: EclipsePhaseParameters) -> int:
    """+10 DV at margin 60+, +5 at 30+, else 0."""
    if margin >= params.superb_margin:
        return params.superb_dv
    if margin >= params.excellent_margin:
        return params.excellent_dv
    return 0


@dataclass(frozen=True)
class Plan:
    """Everything an attack will roll against, before any die: the attack's base skill and
    modifiers (difficulty, wounds and traumas included), and the defence's (``defence_kind``
    NONE: none). ``resolve_attack`` rolls it; ``odds.attack_odds`` computes its chances."""

    attack_label: str
    attack_base: int
    attack_modifiers: tuple[Modifier, ...]
    defence_kind: Defence
    defence_label: str
    defence_base: int
    defence_modifiers: tuple[Modifier, ...]
    defence_cost: ActionKind | None

    @property
    def attack_target(self) -> int:
        return self.attack_base + total(self.attack_modifiers)

    @property
    def defence_target(self) -> int | None:
        if self.defence_kind is Defence.NONE:
            return None
        return self.defence_base + total(self.defence_modifiers)


def plan_attack(attacker: Combatant, defender: Combatant, weapon: Weapon,
                params: EclipsePhaseParameters, *, options: AttackOptions | None = None,
                defence: DefenceChoice | None = None) -> Plan:
    """The targets of an attack and its defence. Raises DefenceRefused (a defence that is not
    allowed), ManoeuvreRefused (a charge or a subdue with a gun), InvalidModifier (bad rows, a
    difficulty beyond 30)."""
    options = options or AttackOptions()
    defence = defence or DefenceChoice()
    if options.subdue and not weapon.melee:
        raise ManoeuvreRefused("subduing_melee_attack")
    if defence.full_defence and defence.surprised:
        raise DefenceRefused("surprised_character_not")
    psi = weapon.damage_type is DamageType.PSI
    kind = Defence.WILLPOWER if psi else defence.kind
    if defence.surprised and not defence.spend_quick and not psi:
        kind = Defence.NONE
    base, label = (0, "none") if kind is Defence.NONE else defence_base(defender, weapon,
                                                                         defence, params)
    def_mods: list[Modifier] = []
    if kind is not Defence.NONE:
        def_mods += condition_modifiers(params, wounds=defender.wounds, traumas=defender.traumas,
                                        pain_filter=defender.character.pain_filter)
    if kind is not Defence.NONE and not psi:
        def_mods += modifiers_for(defence.situations, attack="melee" if weapon.melee else "ranged",
                                  side="defence", params=params)
        if defence.full_defence:
            def_mods.append(Modifier("full defence", params.full_defence_bonus, "full_defence"))
        if options.charge and defence.delayed_for_charge:
            def_mods.append(modifier("receiving_charge", params))
        def_mods += defence.extra
    mods = (difficulty(options.difficulty, params)
            + condition_modifiers(params, wounds=attacker.wounds, traumas=attacker.traumas,
                                  pain_filter=attacker.character.pain_filter)
            + attack_modifiers(attacker, defender, weapon, options, params))
    cost = None if kind is Defence.NONE else (ActionKind.QUICK if defence.surprised
                                              else ActionKind.AUTOMATIC)
    return Plan(weapon.skill, attacker.character.skill(weapon.skill, params), mods, kind, label,
                base, tuple(def_mods), cost)


def resolve_attack(attacker: Combatant, defender: Combatant, weapon: Weapon, rng: RandomSource,
                   params: EclipsePhaseParameters, *, options: AttackOptions | None = None,
                   defence: DefenceChoice | None = None) -> AttackResult:
    """Roll the attack, then (when it succeeds) the defence; say whether it hits. Raises as
    ``plan_attack`` (nothing is rolled then)."""
    options = options or AttackOptions()
    plan = plan_attack(attacker, defender, weapon, params, options=options, defence=defence)
    attack = skill_test(plan.attack_base, rng, params, label=plan.attack_label,
                        modifiers=plan.attack_modifiers)
    test = None
    if attack.success and plan.defence_kind is not Defence.NONE:
        test = skill_test(plan.defence_base, rng, params, label=plan.defence_label,
                          modifiers=plan.defence_modifiers)
    return _result(weapon, attack, test, plan, options=options, defender=defender, params=params)


def _hit_and_tie(attack: SkillTest, test: SkillTest | None, params: EclipsePhaseParameters
                 ) -> tuple[bool, bool]:
    """(hit, tie) of the ``attack`` test against the defence ``test`` (None: none rolled, the
    attack's success decides): an opposed test (``settle``), a tie to the defender when
    ``combat_tie_to_defender``."""
    if test is None:
        return attack.success, False
    won = settle((attack.grade, attack.reading), (test.grade, test.reading), params)
    tie = won is None
    return won == "first" or (tie and not params.combat_tie_to_defender), tie


def _result(weapon: Weapon, attack: SkillTest, test: SkillTest | None, plan: Plan, *,
            options: AttackOptions, defender: Combatant,
            params: EclipsePhaseParameters) -> AttackResult:
    """The AttackResult of the ``attack`` test and the defence ``test`` (None: none rolled):
    hit or tie, the defender's mishap, the margin's DV bonus, a called shot's effect, armour
    ignored, a subdue's hold."""
    hit, tie = _hit_and_tie(attack, test, params)
    mishap = test is not None and not hit and test.grade is Grade.CRITICAL_SUCCESS
    called = None
    if hit and options.called_shot is not None and attack.margin >= params.called_shot_margin:
        called = options.called_shot
    ignore = hit and ((attack.grade is Grade.CRITICAL_SUCCESS and params.critical_ignores_armour)
                      or called is CalledShot.IGNORE_ARMOUR)
    subdued = hit and options.subdue and attack.margin >= defender.character.morph.durability
    return AttackResult(weapon, attack, test, plan.defence_kind, plan.defence_cost, hit, tie,
                        mishap, margin_dv_bonus(attack.margin, params) if hit else 0, ignore,
                        called, subdued, options.charge, options.subdue)


@dataclass(frozen=True)
class DamageRoll:
    """The DV of a hit: ``roll`` the dice (the weapon's, plus extra d10s of a concentrated
    burst or full auto); ``modifiers`` the flat DV bonuses (margin, charge, SOM); ``multiplier``
    the beam concentration (1 without); ``halved`` a disarming shot; ``dv`` the total, never
    below 0; ``ignore_armour``, ``ap`` and ``damage_type`` for health.take_hit."""

    expression: str
    roll: DiceRoll
    modifiers: tuple[Modifier, ...]
    multiplier: int
    halved: bool
    dv: int
    ignore_armour: bool
    ap: int
    damage_type: DamageType


def damage_expression(weapon: Weapon, extra_d10: int) -> str:
    return weapon.dv + (f"+{extra_d10}d10" if extra_d10 else "")


def dv_modifiers(result: AttackResult, attacker: Character, params: EclipsePhaseParameters
                 ) -> tuple[Modifier, ...]:
    mods = []
    if result.dv_bonus:
        mods.append(Modifier(f"margin of success {result.attack.margin}", result.dv_bonus,
                             "margin"))
    if result.charge:
        mods.append(Modifier("charge", params.charge_dv, "charge"))
    if result.weapon.melee and params.melee_damage_bonus_divisor \
            and result.weapon.damage_type is not DamageType.PSI:
        bonus = attacker.aptitude(Aptitude.SOM, params) // params.melee_damage_bonus_divisor
        if bonus:
            mods.append(Modifier("SOM damage bonus", bonus, "som"))
    return tuple(mods)


def roll_damage(result: AttackResult, attacker: Character, rng: RandomSource,
                params: EclipsePhaseParameters, *, extra_d10: int = 0, concentrate: bool = False,
                extra: Sequence[Modifier] = ()) -> DamageRoll:
    """Roll the DV of a hit. ``extra_d10`` from a concentrated burst (1) or full auto (3);
    ``concentrate`` a beam's concentration (x2, announced before this roll; firing.beam_...
    checks when it is allowed). Raises ManoeuvreRefused for a miss or a subdue attack."""
    if not result.hit:
        raise ManoeuvreRefused("miss_deals_no")
    if result.subdue:
        raise ManoeuvreRefused("subduing_deals_no")
    if concentrate and not result.weapon.beam:
        raise ManoeuvreRefused("only_beam_weapon_concentrates")
    expression = damage_expression(result.weapon, extra_d10)
    thrown = roll(expression, rng)
    mods = dv_modifiers(result, attacker, params) + tuple(extra)
    multiplier = params.beam_concentration_multiplier if concentrate else 1
    dv = (thrown.total + sum(m.value for m in mods)) * multiplier
    halved = result.called_effect is CalledShot.DISARM
    if halved:
        dv //= 2
    return DamageRoll(expression, thrown, mods, multiplier, halved, max(0, dv),
                      result.ignore_armour, result.weapon.ap, result.weapon.damage_type)


def disarm_test(defender: Combatant, rng: RandomSource, params: EclipsePhaseParameters
                ) -> SkillTest:
    """A disarming called shot: the defender keeps its weapon on a SOM x ``disarm_som_multiplier``
    success (the seed's SOMx3)."""
    som = defender.character.aptitude(Aptitude.SOM, params) * params.disarm_som_multiplier
    return skill_test(som, rng, params, label=f"SOMx{params.disarm_som_multiplier} to keep the weapon",
                      strain=Strain(wounds=defender.wounds, traumas=defender.traumas,
                                    pain_filter=defender.character.pain_filter))
