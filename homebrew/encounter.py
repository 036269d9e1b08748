"""The homebrew attack's reaction, as the shared encounter resolves it (issue 11, item 5).

The encounter (the ``encounters`` app, built alongside) prompts the target with
``DeclaredAttack.options`` and, once answered or defaulted, calls the resolver registered
under RESOLVER with a context whose ``reaction.payload["attack"]`` is the DeclaredAttack's id,
``choice`` the answer, ``rng`` and ``now``. The encounter writes the one journal entry (prompt,
answer, result), so the homebrew services run with ``journal=False`` and hand their rolls and
summary back. ``register()`` is called from HomebrewConfig.ready() and does nothing while the
encounters app is not installed.
"""

from __future__ import annotations

from typing import Any

from homebrew.services import KIND_ATTACK, resolve

RESOLVER = "homebrew.attack"


def payload_of(declared) -> dict[str, Any]:
    """What to store with the encounter's prompt for ``declared`` (a DeclaredAttack)."""
    return {"attack": declared.pk, "weapon": declared.weapon_name, "die": declared.die,
            "kind": declared.kind, "damage": declared.damage, "grade": declared.test["grade"],
            "description": declared.description}


def reaction_result(ctx) -> tuple[str, dict[str, Any], tuple[dict[str, Any], ...]]:
    """(journal kind, summary, rolls) of the answered reaction: ``resolve`` without journal."""
    declared = resolve(int(ctx.reaction.payload["attack"]), ctx.choice or "none", rng=ctx.rng,
                       now=ctx.now, journal=False)
    return KIND_ATTACK, declared.summary, tuple(declared.rolls)


def reaction_resolver(ctx):
    """encounters.hooks.Resolver."""
    from encounters import hooks  # type: ignore[import-not-found, unused-ignore]

    kind, summary, rolls = reaction_result(ctx)
    return hooks.ReactionOutcome(kind=kind, summary=summary, rolls=rolls)


def register() -> bool:
    """Register RESOLVER with the encounter's hooks; False when there is no encounters app."""
    try:
        from encounters import hooks  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return False
    hooks.register_resolver(RESOLVER, reaction_resolver)
    return True
