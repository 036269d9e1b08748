"""What an Eclipse Phase defence prompt says to the one it asks (issue 21, item 4): the weapon,
its firing mode, the damage dice of the first shot aimed at the target, and the chance that
each defence offered succeeds (gamerules.eclipse_phase.odds.defence_chance: the defence
test's target as the resolver will roll it, ``attack.plan_attack``'s ``defence_target`` with
the defender's skill, wounds, full defence, bracing, gravity; a Moxie flip counted for the
"+moxie" answers). Registered with encounters.hooks.register_prompt for the resolver
"eclipse.attack" (eclipse/apps.py); read by encounters.selectors.EncounterView.prompts.

The attack is read from the prompt's typed order (volley.order_from_json, as the viewer reads
the payload: encounters.visibility.redact). The attacker's skill is read to plan the test (the
same plan as the resolver's) but not shown: the chance is the defender's own roll. It names
nobody: the card names the attacker as the viewer may see it. docs/rules/eclipse-phase.md,
"Reaction prompt".

Queries: one ``attack_context`` (not locked) per attacker with prompts pending, whatever the
number of its targets (eclipse.context: the sheets, weapons, armour; the effects read as
flags), and one for the attackers the viewer may not see (their combatant rows).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from eclipse.context import attack_context
from eclipse.defence import BRACED, FULL_DEFENCE, answer_flags
from encounters.hooks import DefenceOdds, PromptDetails
from encounters.models import Combatant
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase.odds import defence_chance
from gamerules.eclipse_phase.volley import (Fighter, OrderUnreadable, defence_of,
                                            order_from_json)
from gamerules.errors import RuleError


# The firing modes' labels (the weapon's fields' own words, eclipse.models.WeaponTemplate).
FIRING_MODES = {"SS": _("single shot (SS)"), "SA": _("semi-automatic (SA)"),
                "BF": _("burst fire (BF)"), "FA": _("full automatic (FA)")}


def _actors(reactions) -> dict[int, Combatant]:
    """The prompts' attackers by combatant id: those the view read, and the others (hidden
    from this viewer) in one query."""
    known = {r.actor_id: r.actor_cached for r in reactions
             if getattr(r, "actor_cached", None) is not None}
    missing = {r.actor_id for r in reactions} - set(known)
    if missing:
        known.update({c.pk: c for c in Combatant.objects.filter(pk__in=missing)
                      .select_related("character")})
    return known


def _defences(context, order, actor, target, options: list[str]) -> tuple[str,
                                                                          tuple[DefenceOdds, ...]]:
    """(the first shot's damage dice, each option's chance) of ``order`` by ``actor`` at
    ``target``; ("", no chances) when a sheet or the weapon is gone."""
    mine, theirs = context.of(actor), context.of(target)
    armed = next((a for a in mine.weapons if a.row.pk == order.weapon), None) if mine else None
    if mine is None or theirs is None or armed is None:
        return "", tuple(DefenceOdds(k) for k in options)
    params, encounter = context.params, context.encounter
    shots = order.shots_at(target.pk) or order.shots
    shot = shots[0]
    surprised = (target.surprised and encounter.round == 1) or order.surprised
    attacker = rules.Combatant(mine.character, mine.health.wounds, mine.mind.traumas)
    defender = Fighter(theirs.character, theirs.health, theirs.mind.traumas)
    full, braced = context.bears(target, FULL_DEFENCE), context.bears(target, BRACED)
    out = []
    for key in options:
        _choice, answer, choice = defence_of(order, key, defender, params, surprised=surprised,
                                             full_defence=full, braced=braced,
                                             extra=context.gravity)
        try:
            plan = rules.plan_attack(attacker, defender.combatant(), armed.weapon, params,
                                     options=order.options(shot), defence=choice)
        except RuleError:
            out.append(DefenceOdds(key))
            continue
        at = plan.defence_target
        out.append(DefenceOdds(key, None if at is None else defence_chance(
            at, params, moxie=answer.moxie), at))
    return rules.damage_expression(armed.weapon, shot.extra_d10), tuple(out)


def prompt_details(view, reactions) -> dict[int, PromptDetails]:
    """encounters.hooks.PromptFn for the defence prompts of ``view``'s encounter."""
    actors = _actors(reactions)
    by_actor: dict[int, list[Any]] = {}
    for r in reactions:
        if getattr(r, "target_cached", None) is not None and r.actor_id in actors:
            by_actor.setdefault(r.actor_id, []).append(r)
    out: dict[int, PromptDetails] = {}
    for actor_id, rows in by_actor.items():
        actor = actors[actor_id]
        context = attack_context(view.encounter, actor, [r.target_cached for r in rows],
                                 lock=False, flags=answer_flags(actor))
        for r in rows:
            try:
                order = order_from_json(r.payload or {})
            except (OrderUnreadable, KeyError, TypeError, ValueError):
                continue
            dice, defences = _defences(context, order, actor, r.target_cached,
                                       list(r.options))
            mode = str(FIRING_MODES.get(order.mode, order.mode))
            out[r.pk] = PromptDetails(weapon=order.weapon_name, dice=dice, mode=mode,
                                      defences=defences)
    return out
