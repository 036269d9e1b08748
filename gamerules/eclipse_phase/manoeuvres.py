"""Movement and gravity, subduing and escaping, surprise and ambush, several weapons.

Source: 001_e6266c120d4801b4.txt, "Options & Complications": "Mouvement : les morphs basiques
peuvent se déplacer de 4m à chaque tour en marchant ou de 20m en courant (-10 aux compétences).
En course, un jet réussi de Freeruning ou de Freefall (en apesanteur ou micrograv) peut augmenter
la distance parcourue. Faible gravité (<0.6g) :distance saut x2. Forte gravité (>1.2g) : 1
blessure/0.2g"; "Maîtriser : [...] Pour se libérer, la cible doit réussir un jet opposé de Combat
à mains nues ou SOMx3 (-30)"; "Surprise & embuscade : les cibles font un jet de perception à -20
contre un jet d'infiltration de l'attaquant. Si la cible échoue, l'attaquant bénéficie d'une
attaque gratuite (la cible peut dépenser une action rapide pour se défendre). Si la cible et
l'attaquant réussissent, la cible subit un malus de 30 à l'initiative et peut se défendre. Si la
cible obtient une marge de succès de 30+, elle peut se défendre sans malus"; "Deux Armes (ou
plus) : -20 pour la mauvaise main, annulé par le trait ambidextre. Les octomorphes ou certains
synthémorphes avec 6-10+ membres, peuvent utiliser de nombreuses armes sans malus. Chaque arme
supplémentaire offre un bonus de 10 (max. +30)."

Choices (docs/rules/eclipse-phase.md): distances are per action turn; a successful Freerunning
(or Freefall in microgravity) test adds 1 m per full 10 of margin (``freerun_m_per_10_margin``);
high gravity counts one wound's malus per full 0.2 g above 1.2 g (strictly above: 1.2 g none,
1.4 g one), as a modifier, not as wounds taken; the escape is either an opposed unarmed combat
test (the holder defends with its own unarmed combat) or a SOMx3 -30 test, the escaper's choice;
an ambush whose attacker fails infiltration surprises no one, and a target's margin 30+ cancels
the surprise even when the attacker succeeds; several weapons on one target make one attack with
+10 per weapon beyond the first (at most +30) and the off-hand malus unless the morph is
ambidextrous or has extra limbs.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Literal

from gamerules.dice import RandomSource
from gamerules.eclipse_phase.checks import Opposed, SkillTest, Strain, opposed_test, skill_test
from gamerules.eclipse_phase.errors import ManoeuvreRefused
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character, Morph
from gamerules.eclipse_phase.situations import modifier
from gamerules.modifiers import Modifier


class Pace(StrEnum):
    STILL = "still"
    WALK = "walk"
    RUN = "run"


@dataclass(frozen=True)
class Movement:
    """``metres`` allowed this action turn; ``modifiers`` on every test meanwhile (running)."""

    pace: Pace
    metres: int
    modifiers: tuple[Modifier, ...]
    extension_test: SkillTest | None = None


def movement(pace: Pace, params: EclipsePhaseParameters, *,
             extension: SkillTest | None = None) -> Movement:
    """The distance of a walk or run, with the running malus; ``extension`` a Freerunning or
    Freefall test made while running (its margin adds metres on a success)."""
    if pace is Pace.STILL:
        return Movement(pace, 0, ())
    if pace is Pace.WALK:
        if extension is not None:
            raise ManoeuvreRefused("freerunning_extends_run")
        return Movement(pace, params.walk_m, ())
    extra = 0
    if extension is not None and extension.success:
        extra = extension.margin // 10 * params.freerun_m_per_10_margin
    return Movement(pace, params.run_m + extra,
                    (Modifier("running", -params.running_malus, "movement"),), extension)


def jump_multiplier(gravity_g: Decimal, params: EclipsePhaseParameters) -> int:
    """x2 jump distance under 0.6 g, else x1."""
    return params.low_gravity_jump_multiplier if gravity_g < params.low_gravity_g else 1


def gravity_wounds(gravity_g: Decimal, params: EclipsePhaseParameters) -> int:
    """One wound's malus per full 0.2 g above 1.2 g."""
    if gravity_g <= params.high_gravity_g:
        return 0
    return int((gravity_g - params.high_gravity_g) // params.high_gravity_step_g)


def gravity_modifiers(gravity_g: Decimal, params: EclipsePhaseParameters) -> tuple[Modifier, ...]:
    n = gravity_wounds(gravity_g, params)
    return (Modifier(f"high gravity {gravity_g} g ({n} wound malus)", -n * params.wound_malus,
                     "gravity"),) if n else ()


# --- subduing ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Escape:
    """An escape from a hold: ``how`` "opposed" (``opposed`` the two unarmed tests) or
    "somx3" (``test``); ``free``."""

    how: Literal["opposed", "somx3"]
    free: bool
    test: SkillTest
    opposed: Opposed | None = None


def escape(held: Character, holder: Character, how: Literal["opposed", "somx3"],
           rng: RandomSource, params: EclipsePhaseParameters, *, held_wounds: int = 0,
           holder_wounds: int = 0) -> Escape:
    """The subdued target's escape, a complex action: opposed unarmed combat, or SOMx3 -30."""
    if how == "somx3":
        som = held.aptitude(Aptitude.SOM, params) * params.subdue_escape_som_multiplier
        test = skill_test(som, rng, params, label=f"SOMx{params.subdue_escape_som_multiplier} to escape",
                          strain=Strain(wounds=held_wounds, pain_filter=held.pain_filter),
                          modifiers=(Modifier("escape", -params.subdue_escape_malus, "subdue"),))
        return Escape(how, test.success, test)
    mine = skill_test(held.skill("unarmed_combat", params), rng, params, label="unarmed combat",
                      strain=Strain(wounds=held_wounds, pain_filter=held.pain_filter))
    theirs = skill_test(holder.skill("unarmed_combat", params), rng, params,
                        label="unarmed combat",
                        strain=Strain(wounds=holder_wounds, pain_filter=holder.pain_filter))
    result = opposed_test(mine, theirs, params)
    return Escape(how, result.winner == "first", mine, result)


# --- surprise ---------------------------------------------------------------------------------

class Surprise(StrEnum):
    NONE = "none"  # the ambush failed, or the target's margin 30+
    INITIATIVE = "initiative"  # both succeeded: -30 initiative, the target defends
    FREE_ATTACK = "free_attack"  # the target failed: a free attack, defended with a quick action


@dataclass(frozen=True)
class Ambush:
    perception: SkillTest
    infiltration: SkillTest
    outcome: Surprise
    initiative_modifiers: tuple[Modifier, ...]


def ambush(target: Character, attacker: Character, rng: RandomSource,
           params: EclipsePhaseParameters, *, target_wounds: int = 0, attacker_wounds: int = 0
           ) -> Ambush:
    """The target's perception -20 against the attacker's infiltration."""
    perception = skill_test(target.skill("perception", params), rng, params, label="perception",
                            strain=Strain(wounds=target_wounds, pain_filter=target.pain_filter),
                            modifiers=(Modifier("ambush", -params.surprise_perception_malus,
                                                "surprise"),))
    infiltration = skill_test(attacker.skill("infiltration", params), rng, params,
                              label="infiltration",
                              strain=Strain(wounds=attacker_wounds, pain_filter=attacker.pain_filter))
    if not infiltration.success or (perception.success
                                    and perception.margin >= params.surprise_margin):
        outcome = Surprise.NONE
    elif perception.success:
        outcome = Surprise.INITIATIVE
    else:
        outcome = Surprise.FREE_ATTACK
    mods = ((Modifier("surprised", -params.surprise_initiative_malus, "surprise"),)
            if outcome is Surprise.INITIATIVE else ())
    return Ambush(perception, infiltration, outcome, mods)


# --- several weapons --------------------------------------------------------------------------

def weapons_modifiers(morph: Morph, weapons: int, *, off_hand: bool,
                      params: EclipsePhaseParameters) -> tuple[Modifier, ...]:
    """An attack with ``weapons`` weapons on one target (``off_hand``: one is in the off hand).
    Raises ManoeuvreRefused for more weapons than the morph has limbs."""
    if weapons < 1 or weapons > max(morph.limbs, 1):
        raise ManoeuvreRefused("weapons_limbs", weapons=weapons, limbs=morph.limbs)
    mods = []
    if off_hand and not morph.ambidextrous and not morph.extra_limbs:
        mods.append(modifier("off_hand", params))
    if weapons > 1:
        bonus = min(params.extra_weapon_bonus * (weapons - 1), params.extra_weapon_bonus_max)
        mods.append(Modifier(f"{weapons} weapons", bonus, "weapons"))
    return tuple(mods)
