"""The Eclipse Phase attack's defence and its resolution, as the shared encounter resolves it
(issue 12, items 4, 5, 7, 8).

``eclipse.attack.encounter_attack`` declares an attack (the rounds are spent then), stores what
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
eclipse.actions.encounter_full_defence) takes +30; a surprised one (round 1) cannot defend and a
psi attack is resisted with WIL x2: those are resolved at once, in one entry of the same shape.

Choices (docs/rules/eclipse-phase.md, "The encounter"): the GM picks what a defender's
critical does to the weapon; until then it is "jammed" (the mildest that stops it firing);
a volley stops at the first jam; every shot goes at the one target.
"""

from __future__ import annotations

from typing import Any

from campaigns.journal import roll_row
from eclipse.context import AttackContext, attack_context
from eclipse.selectors import params_of
from eclipse.models import WeaponState
from encounters.models import Combatant
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase.checks import SkillTest
from gamerules.eclipse_phase.health import Condition
from gamerules.eclipse_phase.volley import (DODGE, MELEE_SKILLS, MOXIE_SUFFIX, NONE,
                                            QUICK_PREFIX, Answer, AttackOrder, Fighter, Roll,
                                            Shot, Side, VolleyOutcome, defence_choice,
                                            defence_of, defence_options, order_from_json,
                                            read_answer, resolve_volley)
from gamerules.errors import gettext_noop as N_

__all__ = ["DODGE", "MELEE_SKILLS", "MOXIE_SUFFIX", "NONE", "QUICK_PREFIX", "Answer",
           "defence_choice", "defence_options", "params_of", "read_answer"]

RESOLVER = "eclipse.attack"
KIND_ATTACK = "eclipse_attack"
MISHAP_DEFAULT = WeaponState.JAMMED


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


def _fighter(loaded, *, moxie: int) -> Fighter:
    return Fighter(loaded.character, loaded.health, loaded.mind.traumas, moxie)


def roll_rows(rolls: tuple[Roll, ...], actor, target) -> list[dict[str, Any]]:
    """The journal's rows of a volley's rolls (journal.roll_row), in the order rolled."""
    rows = []
    for r in rolls:
        if r.damage is not None:
            rows.append(roll_row(label="damage", roll=r.damage.roll, actor=actor.character,
                                 modifiers=r.damage.modifiers))
        elif r.test is not None:
            rows.append(test_row(r.test, (actor if r.side is Side.ATTACKER else target)
                                 .character))
    return rows


def shot_json(shot: Shot, order: AttackOrder) -> dict[str, Any]:
    """One shot's line of the journal's summary."""
    result = shot.result
    line: dict[str, Any] = {
        "attack": test_json(result.attack), "defence": test_json(result.defence),
        "defence_kind": result.defence_kind.value, "hit": result.hit, "tie": result.tie,
        "critical": result.critical, "dv_bonus": result.dv_bonus,
        "ignore_armour": result.ignore_armour,
        "called_effect": result.called_effect.value if result.called_effect else None,
        "defence_cost": result.defence_cost.value if result.defence_cost else None}
    if result.called_effect is rules.CalledShot.PRECISE:
        line["precise_effect"] = order.precise_effect
    if result.subdue:
        line["subdued"] = result.subdued
    dmg, hit = shot.damage, shot.hit
    if dmg is not None and hit is not None:
        line.update({
            "dv": dmg.dv, "dv_modifiers": [m.as_record() for m in dmg.modifiers],
            "dv_multiplier": dmg.multiplier, "dv_halved": dmg.halved,
            "armour": hit.armour.armour, "ap": hit.armour.ap,
            "armour_effective": hit.armour.effective, "damage": hit.damage,
            "new_wounds": hit.new_wounds, "som_test": test_json(hit.som_test),
            "knocked_down": hit.knocked_down, "stunned": hit.stunned,
            "condition": hit.condition.value})
        if shot.disarm is not None:
            line.update({"disarm_test": test_json(shot.disarm), "disarmed": shot.disarmed})
    if shot.mishap:
        line["weapon_mishap"] = MISHAP_DEFAULT.value
    return line


def summary_json(outcome: VolleyOutcome, order: AttackOrder, *, weapon: str, target: str,
                 choice: str, answer: Answer, surprised: bool, braced: bool
                 ) -> dict[str, Any]:
    """The journal's summary of a volley at one target."""
    shots = [shot_json(s, order) for s in outcome.shots]
    before, health = outcome.before, outcome.health
    blind = None if outcome.perception is None else {
        "perception": test_json(outcome.perception), "fired": outcome.fired}
    return {
        "weapon": weapon, "mode": order.mode, "target": target, "defence": choice,
        "full_defence": outcome.defence.full_defence, "surprised": surprised,
        "spend_quick": bool(surprised and answer.quick), "braced": braced,
        "shots": shots, "hits": outcome.hits,
        "damage": sum(s.get("damage", 0) for s in shots),
        "new_wounds": sum(s.get("new_wounds", 0) for s in shots),
        "before": {"damage": before.damage, "wounds": before.wounds},
        "after": {"damage": health.damage, "wounds": health.wounds,
                  "knocked_down": health.knocked_down, "stunned": health.stunned},
        "condition": outcome.condition.value,
        "blind_fire": blind, "beam": order.beam.value, "concentrated": outcome.concentrated,
        "forgone": outcome.forgone,
        "weapon_mishap": MISHAP_DEFAULT.value if outcome.mishap else None}


def resolve(context: AttackContext, actor: Combatant, target: Combatant, order: AttackOrder, *,
            choice: str, rng: RandomSource, surprised: bool = False
            ) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """Roll every shot of ``order`` aimed at ``target`` defending with ``choice``
    (gamerules.eclipse_phase.volley.resolve_volley) and keep in ``context`` what it changed:
    the target's sleeve, the weapon's state, both Moxie pools, the hold of a subdue, a
    surprised defence's quick action and ``defeated`` (written once, by the caller:
    ``context.changes.write``). Returns (summary, rolls). Call under the encounter's lock."""
    mine, theirs = context.of(actor), context.of(target)
    if mine is None or theirs is None:  # no sheet (any more): nothing to resolve
        return {"cancelled": True}, ()
    armed = next((a for a in mine.weapons if a.row.pk == order.weapon), None)
    if armed is None:  # dropped between the prompt and the answer
        return {"cancelled": True}, ()
    params = context.params
    surprised = surprised or order.surprised
    braced = order.charge and context.bears(target, BRACED)
    defender = _fighter(theirs, moxie=0)
    choice, answer, defence = defence_of(
        order, choice, defender, params, surprised=surprised,
        full_defence=context.bears(target, FULL_DEFENCE), braced=braced,
        extra=context.gravity)
    a_id, t_id = mine.sheet.pk, theirs.sheet.pk
    attacker = _fighter(mine, moxie=context.moxie(a_id) if order.moxie else 0)
    defender = _fighter(theirs, moxie=context.moxie(t_id) if answer.moxie else 0)
    outcome = resolve_volley(attacker, defender, armed.weapon, order,
                             shots=order.shots_at(target.pk), defence=defence, rng=rng, params=params)
    _keep(context, outcome, actor, target, weapon_id=armed.row.pk, attacker=attacker,
          defender=defender)
    if surprised and answer.quick and defence.kind is not rules.Defence.NONE \
            and not order.psi and not context.bears(target, QUICK_OWED):
        context.add_effect(target, target, QUICK_OWED, 1)
    summary = summary_json(outcome, order, weapon=armed.weapon.name, target=target.name,
                           choice=choice, answer=answer, surprised=surprised, braced=braced)
    summary.update({"moxie_spent": attacker.moxie - outcome.attacker_moxie,
                    "defence_moxie_spent": defender.moxie - outcome.defender_moxie})
    return summary, tuple(roll_rows(outcome.rolls, actor, target))


def _keep(context: AttackContext, outcome: VolleyOutcome, actor: Combatant, target: Combatant, *,
          weapon_id: int, attacker: Fighter, defender: Fighter) -> None:
    """What the volley changed, kept in the context (in memory) for the one write."""
    a_id, t_id = actor.character_id or 0, target.character_id or 0
    context.set_health(t_id, outcome.health)
    if outcome.mishap:
        context.jam(weapon_id, MISHAP_DEFAULT.value)
    if attacker.moxie != outcome.attacker_moxie:
        context.set_moxie(a_id, outcome.attacker_moxie)
    if defender.moxie != outcome.defender_moxie:
        context.set_moxie(t_id, outcome.defender_moxie)
    if outcome.subdued and not context.bears(target, held_by(actor.name)):
        context.add_effect(target, actor, held_by(actor.name), HOLD_ROUNDS)
    if outcome.condition is not Condition.ACTIVE:
        context.defeat(target)


def resolve_others(context: AttackContext, actor: Combatant, order: AttackOrder,
                   targets: dict[int, Combatant], *, rng: RandomSource,
                   choices: dict[int, str] | None = None
                   ) -> tuple[list[dict[str, Any]], tuple[dict[str, Any], ...], list[int]]:
    """The volley's other targets (``order.others``: combatant ids; ``targets`` those of the
    encounter), after the first one, each defending with its own answer (``choices``:
    combatant id -> answer, each prompted with the first: encounters.hooks.ReactionContext.
    others) or, without one (a psi attack, resolved at once), the default (dodge; none when
    surprised in round 1), in the same journal entry. Returns (lines, rolls, whom each roll is
    about: the summary's ``roll_about``, encounters.visibility)."""
    lines: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    about: list[int] = []
    for pk in order.others:
        t = targets.get(pk)
        if t is None or t.removed:
            continue
        surprised = t.surprised and context.encounter.round == 1
        choice = (choices or {}).get(pk) or (NONE if surprised else DODGE)
        summary, more = resolve(context, actor, t, order, choice=choice, rng=rng,
                                surprised=surprised)
        lines.append(summary)
        rolls += more
        about += [pk] * len(more)
    return lines, tuple(rolls), about


def resolve_volley_at(encounter, actor: Combatant, target: Combatant, order: AttackOrder, *,
                      others: dict[int, Combatant], rng: RandomSource, choice: str = NONE,
                      choices: dict[int, str] | None = None
                      ) -> tuple[dict[str, Any], tuple[dict[str, Any], ...],
                                 tuple[int | None, ...]]:
    """The whole volley: load and lock once (eclipse.context), roll at ``target`` (defending
    with ``choice``) then at the others (a jam at the first stops it), write once. Returns
    (summary, rolls, roll_about)."""
    context = attack_context(encounter, actor, [target, *others.values()],
                             flags=answer_flags(actor))
    summary, rolls = resolve(context, actor, target, order, choice=choice, rng=rng)
    about: tuple[int | None, ...] = ()
    if order.others and not summary.get("weapon_mishap"):  # a jam stops it
        more, extra, whom = resolve_others(context, actor, order, others, rng=rng,
                                           choices=choices)
        about = (target.pk,) * len(rolls) + tuple(whom)
        summary, rolls = {**summary, "others": more}, rolls + extra
    context.changes.write()
    return summary, rolls, about


BRACED = N_("Braced for a charge (+20)")
QUICK_OWED = "Defended while surprised (quick action)"
HOLD_ROUNDS = 1000  # a hold lasts until an escape (the clock's longest duration)


def held_by(name: str) -> str:
    """The name of the effect a subdued target bears (the holder is its anchor)."""
    return f"Subdued by {name}"[:80]


FULL_DEFENCE = N_("Full defence (+30)")


def answer_flags(actor: Combatant) -> tuple[str, ...]:
    """The effects a volley's resolution reads on its targets (eclipse.context's flags)."""
    return (FULL_DEFENCE, BRACED, QUICK_OWED, held_by(actor.name))


def reaction_resolver(ctx):
    """encounters.hooks.Resolver: the volley of the stored order (order_from_json)."""
    from encounters import hooks

    order = order_from_json(ctx.reaction.payload)
    others = {o.target.pk: o.target for o in ctx.others}
    summary, rolls, about = resolve_volley_at(
        ctx.encounter, ctx.actor, ctx.target, order, others=others, rng=ctx.rng,
        choice=ctx.choice or NONE, choices={o.target.pk: o.choice for o in ctx.others})
    return hooks.ReactionOutcome(kind=KIND_ATTACK, summary=summary, rolls=rolls,
                                 roll_about=about,
                                 hits=hits_of([ctx.target, *(o.target for o in ctx.others)],
                                              summary))


FALLEN = ("dead", "destroyed")


def hits_of(targets, summary: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """What the volley (its journal ``summary``) did to each of ``targets`` (combatants), for
    its player's notification (encounters.notices): damage taken ("attacked"), or "killed"
    when it left the morph dead or destroyed. The summary's lines name their target (a
    combatant's name is unique in its encounter)."""
    by_name = {c.name: c.character_id for c in targets if c.character_id is not None}
    hits = []
    for line in (summary, *summary.get("others", ())):
        character_id = by_name.get(line.get("target"))
        if character_id is not None and line.get("damage"):
            hits.append((character_id, "killed" if line.get("condition") in FALLEN
                         else "attacked"))
    return tuple(hits)


def register() -> None:
    from encounters import hooks

    hooks.register_resolver(RESOLVER, reaction_resolver)



def _effect_on(encounter, bearer, anchor, name: str, rounds: int) -> None:
    """An effect created at once (the tests' worlds; the attack gathers its own in
    eclipse.context.AttackContext.add_effect)."""
    from encounters.models import EncounterEffect
    from gamerules.encounter import clock

    EncounterEffect.objects.create(
        encounter=encounter, name=name[:80], bearer=bearer, anchor=anchor,
        edge=clock.Edge.START, rounds=rounds, created_round=encounter.round,
        expires_round=clock.expires_round(encounter.round, rounds))
