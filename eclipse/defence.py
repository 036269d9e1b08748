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

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from campaigns.journal import roll_row
from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve, WeaponState
from eclipse.selectors import locked_sheets, rules_of
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase.checks import SkillTest, settle, skill_test, spend_moxie
from gamerules.eclipse_phase.gear import RangeBand
from gamerules.eclipse_phase.health import Condition, can_act, take_hit
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
                   situations: dict[str, int] | None = None,
                   braced: bool = False, extra: tuple[Modifier, ...] = ()
                   ) -> rules.DefenceChoice:
    """The pure DefenceChoice of an answer ("none", "dodge", "melee:<skill>", with "+moxie"
    and "quick:": read_answer). A surprised target defends only with "quick:" (spend_quick);
    ``braced`` it delayed its action to receive a charge; ``extra`` the surroundings'
    modifiers (the encounter's high gravity: eclipse.environment)."""
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
    return rules.DefenceChoice(kind=kind, full_defence=full and kind is not
                               rules.Defence.NONE, surprised=surprised and kind is not
                               rules.Defence.NONE, spend_quick=surprised,
                               delayed_for_charge=braced, situations=situations or {},
                               extra=extra)


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
        one_handed=bool(payload.get("one_handed")), subdue=bool(payload.get("subdue")),
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
              defence: rules.DefenceChoice, moxie: int = 0, defence_moxie: int = 0
              ) -> tuple[rules.AttackResult, int, int]:
    """``attack.resolve_attack`` with the Moxie flips: the attacker's of a failed attack test
    when ``moxie`` points are offered, the defender's of a failed defence test when
    ``defence_moxie`` are (each flip spends one point, and only when it turns the failure into
    a success: checks.spend_moxie). Returns the result and both pools left. Raises as
    ``attack.plan_attack``."""
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
        if not against.success and defence_moxie > 0:
            flipped, left = spend_moxie(against, defence_moxie, params)
            if flipped.success:
                against, defence_moxie = flipped, left
        won = settle((test.grade, test.reading), (against.grade, against.reading), params)
        tie = won is None
        hit = won == "first" or (tie and not params.combat_tie_to_defender)
    result = rules._result(weapon, test, against, plan, hit, tie, options, defender, params)
    return result, moxie, defence_moxie


def _bearing(encounter, target, name: str) -> bool:
    from encounters.models import EncounterEffect

    return EncounterEffect.objects.filter(encounter=encounter, bearer=target, name=name,
                                          expired_round__isnull=True).exists()


def _effect_on(encounter, bearer, anchor, name: str, rounds: int) -> None:
    from encounters.models import EncounterEffect
    from gamerules.encounter import clock

    EncounterEffect.objects.create(
        encounter=encounter, name=name[:80], bearer=bearer, anchor=anchor,
        edge=clock.Edge.START, rounds=rounds, created_round=encounter.round,
        expires_round=clock.expires_round(encounter.round, rounds))


def resolve(encounter, actor, target, payload: dict[str, Any], choice: str,
            rng: RandomSource, now: datetime, *, surprised: bool = False
            ) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """Roll every shot of the declared attack at ``target`` (the payload's shots aimed at it)
    defending with ``choice`` (read_answer); write the target's sleeve, the weapon's state,
    both Moxie pools, the hold of a subdue and ``defeated``. Blind fire rolls the attacker's
    perception first (failed: no attack); a beam's sweep gives the second shot +20 after a
    missed first, its concentration doubles the first hit's DV and forgoes the second; a
    disarming called shot rolls the defender's SOMx3. Returns (summary, rolls). Call under
    the encounter's lock."""
    from encounters.models import Combatant as CombatantRow

    from gamerules.eclipse_phase import firing
    from gamerules.eclipse_phase.errors import ManoeuvreRefused
    from gamerules.eclipse_phase.gear import FiringMode

    params = params_of(encounter)
    # Locked before they are read, or the GM's healing made meanwhile would be lost.
    sheets = locked_sheets([actor.character_id, target.character_id])
    mine, theirs = rules_of(sheets[actor.character_id]), rules_of(sheets[target.character_id])
    armed = next((a for a in mine.weapons if a.row.pk == payload["weapon"]), None)
    if armed is None:  # dropped between the prompt and the answer: nothing to resolve
        return {"cancelled": True}, ()
    if not can_act(theirs.health, theirs.character.morph, params):
        choice = NONE  # unconscious, stunned or dead: no defence (an automatic action)
    answer = read_answer(choice)
    surprised = surprised or bool(payload.get("surprised"))
    full_defence = _bearing(encounter, target, FULL_DEFENCE)
    braced = bool(payload.get("charge")) and _bearing(encounter, target, BRACED)
    from eclipse import environment  # (it reads this module's params_of)

    defence = defence_choice(choice, surprised=surprised, full_defence=full_defence,
                             braced=braced, extra=environment.gravity(encounter).modifiers)
    attacker = rules.Combatant(mine.character, mine.health.wounds, mine.mind.traumas,
                               mine.health.knocked_down)
    health = theirs.health
    moxie = mine.sheet.moxie if payload.get("moxie") else 0
    theirs_moxie = theirs.sheet.moxie if answer.moxie else 0
    moxie_before, theirs_before = moxie, theirs_moxie
    shots: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    mishap = None
    state = Condition.ACTIVE
    blind: dict[str, Any] | None = None
    blind_mods: tuple[Modifier, ...] = ()
    if payload.get("blind_fire"):
        perception = skill_test(mine.character.skill("perception", params), rng, params,
                                label="perception (blind fire)", wounds=mine.health.wounds,
                                traumas=mine.mind.traumas)
        rolls.append(test_row(perception, actor.character))
        blind = {"perception": test_json(perception), "fired": perception.success}
        if perception.success:
            blind_mods = (firing.blind_fire_modifier(perception, params),)
    beam = payload.get("beam") or ""
    mode = FiringMode(payload["mode"]) if payload.get("mode") else None
    aimed = [s for s in payload["shots"] if s.get("target", target.pk) == target.pk]
    concentrated = forgone = False
    for index, shot in enumerate(aimed if blind is None or blind["fired"] else []):
        if index == 1 and concentrated:
            forgone = True
            break
        options = options_of(payload, shot)
        extra = blind_mods
        if index == 1 and beam == "sweep" and mode is not None and shots:
            try:
                extra += (firing.sweep_modifier(armed.weapon, mode, shots[0]["hit"], params),)
            except ManoeuvreRefused:
                pass  # the first shot hit: no sweep bonus
        if extra:
            options = replace(options, extra=options.extra + extra)
        defender = rules.Combatant(theirs.character, health.wounds, theirs.mind.traumas,
                                   health.knocked_down)
        result, moxie, theirs_moxie = roll_shot(
            attacker, defender, armed.weapon, rng, params, options=options, defence=defence,
            moxie=moxie, defence_moxie=theirs_moxie)
        rolls.append(test_row(result.attack, actor.character))
        if result.defence is not None:
            rolls.append(test_row(result.defence, target.character))
        line: dict[str, Any] = {
            "attack": test_json(result.attack), "defence": test_json(result.defence),
            "defence_kind": result.defence_kind.value, "hit": result.hit, "tie": result.tie,
            "critical": result.critical, "dv_bonus": result.dv_bonus,
            "ignore_armour": result.ignore_armour,
            "called_effect": result.called_effect.value if result.called_effect else None,
            "defence_cost": result.defence_cost.value if result.defence_cost else None}
        if result.called_effect is rules.CalledShot.PRECISE:
            line["precise_effect"] = payload.get("precise_effect", "")
        if result.subdue:
            line["subdued"] = result.subdued
            if result.subdued and not _bearing(encounter, target, held_by(actor.name)):
                _effect_on(encounter, target, actor, held_by(actor.name), HOLD_ROUNDS)
        if result.hit and not result.subdue:
            concentrate = (index == 0 and beam == "concentrate" and mode is not None
                           and len(aimed) > 1)
            if concentrate and mode is not None:  # (mode: narrowed for mypy)
                firing.check_concentration(armed.weapon, mode, True)
                concentrated = True
            dmg = rules.roll_damage(result, mine.character, rng, params,
                                    extra_d10=int(shot.get("extra_d10") or 0),
                                    concentrate=concentrate)
            rolls.append(roll_row(label="damage", roll=dmg.roll, actor=actor.character,
                                  modifiers=dmg.modifiers))
            hit = take_hit(theirs.character, health, dmg.dv, dmg.damage_type, dmg.ap, rng,
                           params, ignore_armour=dmg.ignore_armour, traumas=theirs.mind.traumas)
            if hit.som_test is not None:
                rolls.append(test_row(hit.som_test, target.character))
            health, state = hit.after, hit.condition
            line.update({
                "dv": dmg.dv, "dv_modifiers": [m.as_record() for m in dmg.modifiers],
                "dv_multiplier": dmg.multiplier, "dv_halved": dmg.halved,
                "armour": hit.armour.armour, "ap": hit.armour.ap,
                "armour_effective": hit.armour.effective, "damage": hit.damage,
                "new_wounds": hit.new_wounds, "som_test": test_json(hit.som_test),
                "knocked_down": hit.knocked_down, "stunned": hit.stunned,
                "condition": hit.condition.value})
            if result.called_effect is rules.CalledShot.DISARM:
                keep = rules.disarm_test(rules.Combatant(theirs.character, health.wounds,
                                                         theirs.mind.traumas), rng, params)
                rolls.append(test_row(keep, target.character))
                line.update({"disarm_test": test_json(keep), "disarmed": not keep.success})
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
    if theirs_moxie != theirs_before:
        EclipseSheet.objects.filter(pk=theirs.sheet.pk).update(moxie=theirs_moxie)
    if surprised and answer.quick and defence.kind is not rules.Defence.NONE \
            and not payload["psi"] and not _bearing(encounter, target, QUICK_OWED):
        _effect_on(encounter, target, target, QUICK_OWED, 1)
    if state is not Condition.ACTIVE and not target.defeated:
        target.defeated = True
        CombatantRow.objects.filter(pk=target.pk).update(defeated=True)
    summary = {
        "weapon": armed.weapon.name, "mode": payload.get("mode", ""), "target": target.name,
        "defence": choice, "full_defence": defence.full_defence, "surprised": surprised,
        "spend_quick": bool(surprised and answer.quick), "braced": braced,
        "shots": shots, "hits": sum(1 for s in shots if s["hit"]),
        "damage": sum(s.get("damage", 0) for s in shots),
        "new_wounds": sum(s.get("new_wounds", 0) for s in shots),
        "before": {"damage": before.damage, "wounds": before.wounds},
        "after": {"damage": health.damage, "wounds": health.wounds,
                  "knocked_down": health.knocked_down, "stunned": health.stunned},
        "condition": state.value, "moxie_spent": moxie_before - moxie,
        "defence_moxie_spent": theirs_before - theirs_moxie,
        "blind_fire": blind, "beam": beam, "concentrated": concentrated, "forgone": forgone,
        "weapon_mishap": mishap.value if mishap else None}
    return summary, tuple(rolls)


def resolve_others(encounter, actor, payload: dict[str, Any], rng: RandomSource, now: datetime,
                   choices: dict[int, str] | None = None
                   ) -> tuple[list[dict[str, Any]], tuple[dict[str, Any], ...]]:
    """The volley's other targets (``payload["others"]``: combatant ids), after the first one,
    each defending with its own answer (``choices``: combatant id -> answer, each prompted
    with the first: encounters.hooks.ReactionContext.others) or, without one (a psi attack,
    resolved at once), the default (dodge; none when surprised in round 1), rolled here, in
    the same journal entry."""
    from encounters.models import Combatant as CombatantRow

    rows = {c.pk: c for c in CombatantRow.objects.filter(
        encounter=encounter, pk__in=payload["others"]).select_related("character")}
    lines: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    for pk in payload["others"]:
        t = rows.get(pk)
        if t is None or t.removed:
            continue
        surprised = t.surprised and encounter.round == 1
        choice = (choices or {}).get(pk) or (NONE if surprised else DODGE)
        summary, more = resolve(encounter, actor, t, {**payload, "surprised": surprised},
                                choice, rng, now, surprised=surprised)
        lines.append(summary)
        rolls += more
    return lines, tuple(rolls)


BRACED = "Braced for a charge (+20)"
QUICK_OWED = "Defended while surprised (quick action)"
HOLD_ROUNDS = 1000  # a hold lasts until an escape (the clock's longest duration)


def held_by(name: str) -> str:
    """The name of the effect a subdued target bears (the holder is its anchor)."""
    return f"Subdued by {name}"[:80]


FULL_DEFENCE = "Full defence (+30)"


def reaction_resolver(ctx):
    """encounters.hooks.Resolver."""
    from encounters import hooks

    summary, rolls = resolve(ctx.encounter, ctx.actor, ctx.target, ctx.reaction.payload,
                             ctx.choice or NONE, ctx.rng, ctx.now)
    if ctx.reaction.payload.get("others") and not summary.get("weapon_mishap"):  # a jam stops it
        more, extra = resolve_others(ctx.encounter, ctx.actor, ctx.reaction.payload, ctx.rng,
                                     ctx.now, {o.target.pk: o.choice for o in ctx.others})
        summary, rolls = {**summary, "others": more}, rolls + extra
    return hooks.ReactionOutcome(kind=KIND_ATTACK, summary=summary, rolls=rolls)


def register() -> None:
    from encounters import hooks

    hooks.register_resolver(RESOLVER, reaction_resolver)

