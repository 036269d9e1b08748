"""What a homebrew attack's prompt says to the one it asks (issue 21, item 4): the weapon, the
damage dice and the damage already rolled, the attack's grade, and the chance that each
answer offered succeeds (gamerules.homebrew.odds.reaction_chance: the reactor's own Force or
Dextérité on the sub test's die). Registered with encounters.hooks.register_prompt for the
resolver "homebrew.attack" (homebrew/apps.py); read by encounters.selectors.EncounterView.
prompts.

The attack is read from the prompt's typed order (gamerules.homebrew.orders.pending_from_json),
as the viewer reads the payload (encounters.visibility.redact); a version-1 payload, or one
the viewer may not read whole, falls back on its display keys. It names nobody: the card names
the attacker as the viewer may see it. The choice of numbers is docs/rules/homebrew-d100.md,
"Reaction prompt".
"""

from __future__ import annotations

from typing import Any

from encounters.hooks import DefenceOdds, PromptDetails
from gamerules.homebrew.odds import reaction_chance
from gamerules.homebrew.orders import pending_from_json
from gamerules.homebrew.reactions import Reaction
from homebrew.context import reactor_of


def _sheets(view) -> dict[int, Any]:
    """The homebrew sheets the view loaded, by character id (no query)."""
    out = {}
    for c in view.combatants:
        sheet = getattr(c.character, "homebrew", None) if c.character is not None else None
        if sheet is not None:
            out[c.character_id] = sheet
    return out


def _attack(payload: dict[str, Any], options: list[str]) -> tuple[str, str, int | None, str,
                                                                    str]:
    """(weapon, damage dice, damage rolled, grade, round key) of a prompt's payload."""
    try:
        pending = pending_from_json(payload, options=options)
    except (KeyError, TypeError, ValueError):
        pending = None
    if pending is not None and pending.result is not None:
        r = pending.result
        return r.weapon.name, r.damage_expression, r.damage, str(r.test.grade), pending.round_key
    damage = payload.get("damage")
    return (str(payload.get("weapon") or ""), str(payload.get("die") or ""),
            damage if isinstance(damage, int) else None, str(payload.get("grade") or ""), "")


def prompt_details(view, reactions) -> dict[int, PromptDetails]:
    """encounters.hooks.PromptFn: each prompt's attack and its answers' chances, from what
    ``view`` (encounters.selectors.EncounterView) loaded: no query. A parry for an ally
    ("parry:<character id>") rolls the ally's Force; an answer whose reactor's sheet is not in
    view has no chance shown."""
    params = view.encounter.campaign.parameters
    sheets = _sheets(view)
    out: dict[int, PromptDetails] = {}
    for r in reactions:
        weapon, dice, damage, grade, key = _attack(r.payload or {}, list(r.options))
        target = getattr(r, "target_cached", None)
        defences = []
        for option in r.options:
            base, _sep, ref = option.partition(":")
            try:
                reaction = Reaction(base)
            except ValueError:
                defences.append(DefenceOdds(option))
                continue
            who = int(ref) if ref.isdigit() else getattr(target, "character_id", None)
            sheet = sheets.get(who) if who is not None else None
            if sheet is None or reaction is Reaction.NONE:
                defences.append(DefenceOdds(option))
                continue
            reactor = reactor_of(sheet, key)
            value = reactor.force if reaction is Reaction.PARRY else reactor.dexterite
            defences.append(DefenceOdds(option, reaction_chance(reaction, reactor, params),
                                        value))
        out[r.pk] = PromptDetails(weapon=weapon, dice=dice, damage=damage, grade=grade,
                                  defences=tuple(defences))
    return out
