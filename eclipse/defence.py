"""The Eclipse Phase attack's defence and its resolution, as the shared encounter resolves it
(issue 12, items 4, 5, 7, 8).

``eclipse.play.encounter_attack`` declares an attack (the rounds are spent then), stores what
the resolver needs in the prompt's payload and prompts the target: "dodge" (fray; halved against
ranged attacks), "melee:<skill>" (a melee skill, against melee attacks), or "none". Once answered
or defaulted (the default is "dodge": defending is an automatic action), ``reaction_resolver``
rolls each shot of the volley (each a separate roll: seed, "chaque attaque est un jet séparé")
with the pure rules: the attack test (a Moxie flip of a failed attack when the attacker asked
for it), the defence when the attack succeeds, the margin's DV bonus, a critical ignoring
armour, a defender's winning critical jamming the weapon, the DV through armour and AP, wounds,
the SOMx3 test against knockdown or stun, unconsciousness and death. The target's sleeve, the
attacker's weapon and Moxie are written here; the encounter writes the ONE journal entry
(prompt, answer, this summary and every roll). A target in full defence (declared before,
eclipse.play.encounter_full_defence) takes +30; a surprised one (round 1) cannot defend and a
psi attack is resisted with WIL x2: those are resolved at once, in one entry of the same shape.

Choices (docs/rules/eclipse-phase.md, "The encounter"): the GM picks what a defender's
critical does to the weapon; until then it is "jammed" (the mildest that stops it firing);
a volley stops at the first jam; every shot goes at the one target.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from campaigns.journal import roll_row
from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve, WeaponState
from eclipse.selectors import loaded_sheets, rules_of
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase.checks import SkillTest, settle, skill_test, spend_moxie
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.health import Condition, take_hit
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.modifiers import Modifier

RESOLVER = "eclipse.attack"
KIND_ATTACK = "eclipse_attack"
DODGE, NONE = "dodge", "none"
MELEE_SKILLS = ("blades", "clubs", "unarmed_combat")
MISHAP_DEFAULT = WeaponState.JAMMED


def params_of(encounter) -> EclipsePhaseParameters:
    params = encounter.campaign.parameters
    return params if isinstance(params, EclipsePhaseParameters) else EclipsePhaseParameters()


def defence_options(melee: bool) -> list[str]:
    """What the target may answer: dodge, and a melee skill against a melee attack."""
    return [NONE, DODGE, *(f"melee:{s}" for s in MELEE_SKILLS)] if melee else [NONE, DODGE]


def defence_choice(choice: str, *, surprised: bool, full_defence: bool,
                   situations: dict[str, int] | None = None) -> rules.DefenceChoice:
    """The pure DefenceChoice of an answer ("none", "dodge", "melee:<skill>")."""
    if surprised:
        return rules.DefenceChoice(kind=rules.Defence.NONE, surprised=True)
    if choice.startswith("melee:"):
        return rules.DefenceChoice(kind=rules.Defence.MELEE_SKILL, skill=choice[6:],
                                   full_defence=full_defence, situations=situations or {})
    kind = rules.Defence.DODGE if choice == DODGE else rules.Defence.NONE
    return rules.DefenceChoice(kind=kind, full_defence=full_defence and kind is not
                               rules.Defence.NONE, situations=situations or {})


def _modifiers(rows: list[dict[str, Any]]) -> tuple[Modifier, ...]:
    return tuple(Modifier(r["label"], int(r["value"]), r.get("source", "")) for r in rows)


def options_of(payload: dict[str, Any], shot: dict[str, Any]) -> rules.AttackOptions:
    """The pure AttackOptions of one shot of the stored payload."""
    band = payload.get("range_band") or None
    called = payload.get("called_shot") or None
    return rules.AttackOptions(
        situations=dict(payload.get("situations") or {}),
        range_band=RangeBand(band) if band else None, charge=bool(payload.get("charge")),
        called_shot=rules.CalledShot(called) if called else None,
        one_handed=bool(payload.get("one_handed")),
        extra=_modifiers(payload.get("extra") or []) + _modifiers(shot.get("modifiers") or []))


def test_json(t: SkillTest | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"label": t.label, "reading": t.reading, "target": t.target, "grade": t.grade.value,
            "margin": t.margin, "flipped_from": t.flipped_from,
            "modifiers": [m.as_record() for m in t.modifiers]}


def test_row(t: SkillTest, actor) -> dict[str, Any]:
    return roll_row(label=t.label if t.flipped_from is None else f"{t.label} (Moxie flip "
                    f"{t.flipped_from:02d} -> {t.reading:02d})", roll=t.result.roll, actor=actor,
                    target_score=t.target, grade=t.grade, modifiers=t.modifiers)


def roll_shot(attacker: rules.Combatant, defender: rules.Combatant, weapon, rng: RandomSource,
              params: EclipsePhaseParameters, *, options: rules.AttackOptions,
              defence: rules.DefenceChoice, moxie: int = 0
              ) -> tuple[rules.AttackResult, int]:
    """``attack.resolve_attack`` with the attacker's Moxie flip of a failed attack test when
    ``moxie`` points are offered (the flip spends one: checks.spend_moxie). Returns the result
    and the Moxie left. Raises as ``attack.plan_attack``."""
    plan = rules.plan_attack(attacker, defender, weapon, params, options=options,
                             defence=defence)
    test = skill_test(plan.attack_base, rng, params, label=plan.attack_label,
                      modifiers=plan.attack_modifiers)
    if not test.success and moxie > 0:
        flipped, left = spend_moxie(test, moxie, params)
        if flipped.success:
            test, moxie = flipped, left
    against = None
    hit, tie = test.success, False
    if test.success and plan.defence_kind is not rules.Defence.NONE:
        against = skill_test(plan.defence_base, rng, params, label=plan.defence_label,
                             modifiers=plan.defence_modifiers)
        won = settle((test.grade, test.reading), (against.grade, against.reading), params)
        tie = won is None
        hit = won == "first" or (tie and not params.combat_tie_to_defender)
    result = rules._result(weapon, test, against, plan, hit, tie, options, defender, params)
    return result, moxie


def resolve(encounter, actor, target, payload: dict[str, Any], choice: str,
            rng: RandomSource, now: datetime, *, surprised: bool = False
            ) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """Roll every shot of the declared attack against ``target`` defending with ``choice``;
    write the target's sleeve, the weapon's state, the attacker's Moxie and ``defeated``.
    Returns (summary, rolls). Call under the encounter's lock."""
    from encounters.models import Combatant as CombatantRow
    from encounters.models import EncounterEffect

    params = params_of(encounter)
    sheets = loaded_sheets([actor.character_id, target.character_id])
    mine, theirs = rules_of(sheets[actor.character_id]), rules_of(sheets[target.character_id])
    armed = next((a for a in mine.weapons if a.row.pk == payload["weapon"]), None)
    if armed is None:  # dropped between the prompt and the answer: nothing to resolve
        return {"cancelled": True}, ()
    full_defence = EncounterEffect.objects.filter(
        encounter=encounter, bearer=target, name=FULL_DEFENCE, expired_round__isnull=True
    ).exists()
    defence = defence_choice(choice, surprised=surprised, full_defence=full_defence)
    attacker = rules.Combatant(mine.character, mine.health.wounds, mine.mind.traumas,
                               mine.health.knocked_down)
    health = theirs.health
    moxie = mine.sheet.moxie if payload.get("moxie") else 0
    moxie_before = moxie
    shots, rolls = [], []
    mishap = None
    state = Condition.ACTIVE
    for shot in payload["shots"]:
        defender = rules.Combatant(theirs.character, health.wounds, theirs.mind.traumas,
                                   health.knocked_down)
        result, moxie = roll_shot(attacker, defender, armed.weapon, rng, params,
                                  options=options_of(payload, shot), defence=defence,
                                  moxie=moxie)
        rolls.append(test_row(result.attack, actor.character))
        if result.defence is not None:
            rolls.append(test_row(result.defence, target.character))
        line: dict[str, Any] = {
            "attack": test_json(result.attack), "defence": test_json(result.defence),
            "defence_kind": result.defence_kind.value, "hit": result.hit, "tie": result.tie,
            "critical": result.critical, "dv_bonus": result.dv_bonus,
            "ignore_armour": result.ignore_armour,
            "called_effect": result.called_effect.value if result.called_effect else None}
        if result.hit and not result.subdue:
            dmg = rules.roll_damage(result, mine.character, rng, params,
                                    extra_d10=int(shot.get("extra_d10") or 0))
            rolls.append(roll_row(label="damage", roll=dmg.roll, actor=actor.character,
                                  modifiers=dmg.modifiers))
            hit = take_hit(theirs.character, health, dmg.dv, dmg.damage_type, dmg.ap, rng,
                           params, ignore_armour=dmg.ignore_armour, traumas=theirs.mind.traumas)
            if hit.som_test is not None:
                rolls.append(test_row(hit.som_test, target.character))
            health, state = hit.after, hit.condition
            line.update({
                "dv": dmg.dv, "dv_modifiers": [m.as_record() for m in dmg.modifiers],
                "armour": hit.armour.armour, "ap": hit.armour.ap,
                "armour_effective": hit.armour.effective, "damage": hit.damage,
                "new_wounds": hit.new_wounds, "som_test": test_json(hit.som_test),
                "knocked_down": hit.knocked_down, "stunned": hit.stunned,
                "condition": hit.condition.value})
        shots.append(line)
        if result.weapon_mishap:
            mishap = MISHAP_DEFAULT
            line["weapon_mishap"] = mishap.value
            break
    before = theirs.health
    if health != before and theirs.sheet.sleeve_id is not None:
        Sleeve.objects.filter(pk=theirs.sheet.sleeve_id).update(
            damage=health.damage, wounds=health.wounds, knocked_down=health.knocked_down,
            stunned=health.stunned)
    if mishap is not None:
        CarriedWeapon.objects.filter(pk=armed.row.pk).update(state=mishap.value)
    if moxie != moxie_before:
        EclipseSheet.objects.filter(pk=mine.sheet.pk).update(moxie=moxie)
    if state is not Condition.ACTIVE and not target.defeated:
        target.defeated = True
        CombatantRow.objects.filter(pk=target.pk).update(defeated=True)
    summary = {
        "weapon": armed.weapon.name, "mode": payload.get("mode", ""),
        "defence": choice, "full_defence": defence.full_defence, "surprised": surprised,
        "shots": shots, "hits": sum(1 for s in shots if s["hit"]),
        "damage": sum(s.get("damage", 0) for s in shots),
        "new_wounds": sum(s.get("new_wounds", 0) for s in shots),
        "before": {"damage": before.damage, "wounds": before.wounds},
        "after": {"damage": health.damage, "wounds": health.wounds,
                  "knocked_down": health.knocked_down, "stunned": health.stunned},
        "condition": state.value, "moxie_spent": moxie_before - moxie,
        "weapon_mishap": mishap.value if mishap else None}
    return summary, tuple(rolls)


FULL_DEFENCE = "Full defence (+30)"


def reaction_resolver(ctx):
    """encounters.hooks.Resolver."""
    from encounters import hooks

    summary, rolls = resolve(ctx.encounter, ctx.actor, ctx.target, ctx.reaction.payload,
                             ctx.choice or NONE, ctx.rng, ctx.now)
    return hooks.ReactionOutcome(kind=KIND_ATTACK, summary=summary, rolls=rolls)


def register() -> None:
    from encounters import hooks

    hooks.register_resolver(RESOLVER, reaction_resolver)

