"""Damage, armour, wounds, knockdown and stun, unconsciousness, bleeding, death.

Source: 001_e6266c120d4801b4.txt, "Dommages": "VD de l'arme – (Armure du personnage –
Pénétration d'Armure (PA) de l'arme utilisée)"; "Armures protègent contre énergie/cinétique";
"Chaque morph possède un Seuil de Blessure (~7-10+) (SB). Si la VD de l'attaque est supérieure à
ce seuil, le personnage subit, en plus des dommages, une Blessure. (Si VD > (SBx2) = 2
blessures, si VD > (SBx3) = 3 blessures, etc.)"; "Lorsqu'un personnage subit une blessure, il
doit réussir un jet de SOMx3 (les malus s'appliquent) ou être projeté au sol (+10 aux attaques
des adversaires, action rapide pour se relever.)"; "Lorsqu'un personnage subit deux blessures (ou
plus) il doit réussir un jet de SOMx3 (les malus s'appliquent) ou être assommé (impossible
d'agir)"; "Lorsque les dommages subis par un personnage atteignent son score de DUR, il tombe
inconscient ou inopérant"; "Lorsque les dommages subis par un personnage dépassent son score de
DUR et qu'il a subi une ou plusieurs blessures, il subit un dommage supplémentaire à chaque tour
(hémorragie, fracture, court-circuit, dysfonctionnement, etc.)"; "Lorsque les dommages subis par
un personnage atteignent DURx1.5, il meurt (pour un biomorph) ; si les dommages atteignent DURx2
(pour un synthémorph), il est détruit."

Choices (docs/rules/eclipse-phase.md): damage = max(0, DV - max(0, armour - AP)) (AP never adds
damage; a critical success ignores armour; psi has no armour); wounds are counted on the damage
after armour, strictly above each multiple of the wound threshold (``wound_inclusive`` off:
WT gives none, WT+1 one, 2xWT one, 2xWT+1 two); the SOMx3 test takes every wound malus, the new
ones included, and traumas; no knockdown or stun test for someone the hit leaves unconscious
or dead; a stunned character cannot act for ``stun_turns`` action turns; bleeding is
``bleeding_dv`` per action turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from gamerules.dice import RandomSource
from gamerules.eclipse_phase.checks import SkillTest, Strain, skill_test
from gamerules.eclipse_phase.errors import InvalidSheet
from gamerules.eclipse_phase.gear import DamageType
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character, Morph


@dataclass(frozen=True)
class ArmourStep:
    """``dv`` before armour; ``armour`` of the matching type; ``ap``; ``effective`` =
    max(0, armour - AP) (0 when ``ignored``); ``damage`` = max(0, dv - effective)."""

    dv: int
    damage_type: DamageType
    armour: int
    ap: int
    ignored: bool
    effective: int
    damage: int


def through_armour(dv: int, damage_type: DamageType, armour: int, ap: int, *,
                   ignore_armour: bool = False) -> ArmourStep:
    """The damage left after armour. Psi meets no armour."""
    armour = 0 if damage_type is DamageType.PSI else max(0, armour)
    ap = abs(ap)
    effective = 0 if ignore_armour else max(0, armour - ap)
    return ArmourStep(dv, damage_type, armour, ap, ignore_armour, effective,
                      max(0, dv - effective))


def wounds_from(damage: int, wound_threshold: int, params: EclipsePhaseParameters) -> int:
    """Wounds of one hit: one per multiple of the threshold the damage exceeds (or reaches,
    with ``wound_inclusive``)."""
    if damage <= 0:
        return 0
    if params.wound_inclusive:
        return damage // wound_threshold
    return (damage - 1) // wound_threshold


class Condition(StrEnum):
    ACTIVE = "active"
    UNCONSCIOUS = "unconscious"  # or "inopérant" for a synthmorph
    DEAD = "dead"  # biomorphs and pods
    DESTROYED = "destroyed"  # synthmorphs


@dataclass(frozen=True)
class Health:
    """A morph's state: ``damage`` taken, ``wounds``, ``knocked_down``, ``stunned`` action turns
    left unable to act."""

    damage: int = 0
    wounds: int = 0
    knocked_down: bool = False
    stunned: int = 0

    def __post_init__(self) -> None:
        if self.damage < 0 or self.wounds < 0 or self.stunned < 0:
            raise InvalidSheet("damage_wounds_stun")


def condition(health: Health, morph: Morph, params: EclipsePhaseParameters) -> Condition:
    if health.damage >= morph.dr(params):
        return Condition.DESTROYED if morph.kind.synthetic else Condition.DEAD
    if health.damage >= morph.durability:
        return Condition.UNCONSCIOUS
    return Condition.ACTIVE


def bleeding(health: Health, morph: Morph, params: EclipsePhaseParameters) -> bool:
    """Beyond DUR (strictly) with at least one wound, and not dead yet."""
    return (health.damage > morph.durability and health.wounds >= 1
            and condition(health, morph, params) is Condition.UNCONSCIOUS)


def can_act(health: Health, morph: Morph, params: EclipsePhaseParameters) -> bool:
    return condition(health, morph, params) is Condition.ACTIVE and health.stunned == 0


@dataclass(frozen=True)
class HitResult:
    """What one hit did: ``armour`` the armour step; ``new_wounds``; ``before``/``after`` the
    health; ``som_test`` the SOMx3 test (None: no new wound, or out of the fight);
    ``knocked_down``/``stunned`` what that test caused; ``condition`` after the hit."""

    armour: ArmourStep
    wound_threshold: int
    new_wounds: int
    before: Health
    after: Health
    som_test: SkillTest | None
    knocked_down: bool
    stunned: bool
    condition: Condition

    @property
    def damage(self) -> int:
        return self.armour.damage


@dataclass(frozen=True)
class Incoming:
    """A hit about to land: its ``dv``, its ``damage_type`` (which armour stops it), the
    weapon's ``ap`` (armour penetration, either sign), ``ignore_armour`` (a critical or a
    called shot past the armour)."""

    dv: int
    damage_type: DamageType
    ap: int = 0
    ignore_armour: bool = False


def take_hit(character: Character, health: Health, incoming: Incoming, rng: RandomSource,
             params: EclipsePhaseParameters, *, traumas: int = 0) -> HitResult:
    """Apply one ``incoming`` hit to ``character``: armour, damage, wounds, and the SOMx3 test
    against knockdown (one new wound) or stun (two or more)."""
    damage_type = incoming.damage_type
    step = through_armour(incoming.dv, damage_type, character.armour(damage_type.value),
                          incoming.ap, ignore_armour=incoming.ignore_armour)
    wt = character.morph.wt(params)
    new = wounds_from(step.damage, wt, params)
    after = replace(health, damage=health.damage + step.damage, wounds=health.wounds + new)
    state = condition(after, character.morph, params)
    som_test = None
    knocked = stunned = False
    if new and state is Condition.ACTIVE:
        som = character.aptitude(Aptitude.SOM, params) * params.knockdown_som_multiplier
        x = params.knockdown_som_multiplier  # the label says the campaign's multiplier
        label = f"SOMx{x} against knockdown" if new == 1 else f"SOMx{x} against stun"
        som_test = skill_test(som, rng, params, label=label,
                              strain=Strain(wounds=after.wounds, traumas=traumas,
                                            pain_filter=character.pain_filter))
        if not som_test.success:
            if new == 1:
                knocked = True
                after = replace(after, knocked_down=True)
            else:
                stunned = True
                after = replace(after, stunned=max(after.stunned, params.stun_turns))
    return HitResult(step, wt, new, health, after, som_test, knocked, stunned, state)


@dataclass(frozen=True)
class TurnEnd:
    """The end of an action turn for one morph: ``bled`` damage added, stun counted down."""

    before: Health
    after: Health
    bled: int
    condition: Condition


def end_of_turn(health: Health, morph: Morph, params: EclipsePhaseParameters) -> TurnEnd:
    """Bleeding (beyond DUR with a wound: ``bleeding_dv``) and one turn of stun less."""
    bled = params.bleeding_dv if bleeding(health, morph, params) else 0
    after = replace(health, damage=health.damage + bled, stunned=max(0, health.stunned - 1))
    return TurnEnd(health, after, bled, condition(after, morph, params))


def stand_up(health: Health) -> Health:
    """Standing up (a quick action: turn.ActionKind.QUICK) ends the knockdown."""
    return replace(health, knocked_down=False)


def heal(health: Health, *, damage: int = 0, wounds: int = 0) -> Health:
    """The GM heals ``damage`` and ``wounds`` (never below 0)."""
    if damage < 0 or wounds < 0:
        raise InvalidSheet("healing_never_negative", damage=damage, wounds=wounds)
    return replace(health, damage=max(0, health.damage - damage),
                   wounds=max(0, health.wounds - wounds))
