"""The homebrew attack's reaction, as the shared encounter resolves it (issue 11, item 5).

The encounter (the ``encounters`` app) prompts the target with the declared attack's options
and, once answered or defaulted, calls the resolver registered under RESOLVER with a context
whose ``reaction.payload`` is the attack's typed order (gamerules.homebrew.orders, versioned:
the rolled hit and damage, the round; a version-1 payload, stored before issue 20, names only
the DeclaredAttack, read then), ``choice`` the answer, ``rng`` and ``now``. The resolver loads
and locks the two sheets it changes in one query (homebrew.context), resolves with the pure
rules (gamerules.homebrew.action.answer_attack), writes them in one UPDATE and marks the
DeclaredAttack resolved in another; the encounter writes the one journal entry (prompt,
answer, result). ``register()`` is called from HomebrewConfig.ready() and does nothing while
the encounters app is not installed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gamerules.homebrew.orders import PendingAttack, pending_from_json, pending_to_json
from homebrew.context import pending_of
from homebrew.errors import AttackResolved
from homebrew.models import DeclaredAttack
from homebrew.services import KIND_ATTACK, attack_answer

RESOLVER = "homebrew.attack"


def payload_of(declared: DeclaredAttack) -> dict[str, Any]:
    """What to store with the encounter's prompt for a stored ``declared`` attack: its typed
    order as JSON; ``refused`` says why the target may not parry or dodge (reaction ->
    refusal code), for the prompt and the journal."""
    summary = getattr(declared, "summary", None) or {}
    pending = pending_of(declared)
    refused = tuple((str(k), str(v)) for k, v in summary.get("refused", {}).items())
    return pending_to_json(replace(pending, refused=refused))


def _pending(ctx) -> tuple[PendingAttack, str]:
    """The prompt's pending attack and the actor's name (a version-1 payload: from the row,
    locked)."""
    payload = ctx.reaction.payload
    actor = getattr(ctx.actor, "character", None)
    target = getattr(ctx.target, "character", None)
    pending = pending_from_json(payload, actor=getattr(actor, "pk", 0),
                                target=getattr(target, "pk", 0),
                                options=ctx.reaction.options)
    if pending.complete:
        return pending, actor.name if actor is not None else ""
    row = (DeclaredAttack.objects.select_for_update(of=("self",)).select_related("actor")
           .filter(pk=pending.attack).first())
    if row is None or not row.pending:
        raise AttackResolved()
    return pending_of(row), row.actor.name


def reaction_result(ctx) -> tuple[str, dict[str, Any], tuple[dict[str, Any], ...]]:
    """(journal kind, summary, rolls) of the answered reaction. Raises AttackResolved when the
    DeclaredAttack was resolved meanwhile (nothing is kept), and what attack_answer raises."""
    pending, actor_name = _pending(ctx)
    assert pending.result is not None
    answered = attack_answer(pending=pending, choice_text=ctx.choice or "none", rng=ctx.rng,
                             now=ctx.now, cause=f"{pending.result.weapon.name} ({actor_name})")
    marked = DeclaredAttack.objects.filter(pk=pending.attack, resolved_at__isnull=True).update(
        outcome={**answered.result, "action": None}, resolved_at=ctx.now)
    if not marked:
        raise AttackResolved()
    summary = {**answered.result, "attack": pending.attack, "attack_action": None}
    return KIND_ATTACK, summary, tuple(answered.rolls)


def reaction_resolver(ctx):
    """encounters.hooks.Resolver."""
    from encounters import hooks

    kind, summary, rolls = reaction_result(ctx)
    return hooks.ReactionOutcome(kind=kind, summary=summary, rolls=rolls,
                                 hits=hits_of(getattr(ctx.target, "character_id", None), summary))


def hits_of(target: int | None, summary: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """What the resolved attack (its journal ``summary``) did to its ``target`` (a character
    id), for its player's notification (encounters.notices): hurt ("attacked"), or "killed"
    when it left the target dead."""
    if target is None or not summary.get("damage"):
        return ()
    return ((target, "killed" if summary.get("health") == "dead" else "attacked"),)


def register() -> bool:
    """Register RESOLVER with the encounter's hooks; False when there is no encounters app."""
    try:
        from encounters import hooks
    except ImportError:
        return False
    hooks.register_resolver(RESOLVER, reaction_resolver)
    return True
