"""What the encounter tells its players through their notifications (issue 22, item 4;
notifications.services.notify, stored once the step commits): a turn starting, a reaction
waiting (with its deadline), a character attacked, healed or killed by a resolved action.

What the game master hides stays hidden: a hidden combatant's turn notifies nobody; an action
of a hidden combatant says "was attacked" without its name (the ``_hidden`` sentences); a
combatant without a player (the GM's) notifies nobody. Outside the encounter's layers
(.importlinter): the opening's modules call it, it imports none of them. No query here: the
combatants and their characters are the step's, read under its lock.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from encounters.models import Combatant, Encounter
from notifications.services import notify, notify_each


def _player(c: Combatant | None) -> int | None:
    """The user id of who plays ``c`` when a player does and they may know of it."""
    if c is None or c.removed or c.character is None:
        return None
    return c.character.owner_id


def _link(encounter: Encounter) -> str:
    return reverse("encounters:play", args=[encounter.pk])


def turn_started(encounter: Encounter, current: Combatant | None) -> None:
    """``current``'s turn has begun: its player is told, unless it is hidden."""
    player = _player(current)
    if player is None or current is None or current.hidden:
        return
    notify(users=[player], code="turn", campaign_id=encounter.campaign_id,
           params={"character": current.name, "encounter": encounter.name},
           link=_link(encounter))


def reaction_asked(encounter: Encounter, actor: Combatant, targets: Iterable[Combatant],
                   deadline) -> None:
    """``targets`` are prompted to react to ``actor`` before ``deadline``: their players are
    told (the actor named only when it is not hidden), one INSERT for all."""
    code = "reaction_hidden" if actor.hidden else "reaction"
    each = [(_player(t), {"character": t.name, "deadline": deadline.isoformat(),
                          **({} if actor.hidden else {"actor": actor.name})})
            for t in targets if _player(t) is not None]
    notify_each(code=code, each=each, campaign_id=encounter.campaign_id, link=_link(encounter))


def harmed(encounter: Encounter, actor: Combatant | None, combatants: Iterable[Combatant],
           hits: Iterable[tuple[int, str]]) -> None:
    """An action of ``actor`` (None: no one the players see) did ``hits``: (character id,
    "attacked" | "healed" | "killed"). Each hit character's player is told; one INSERT a
    sentence."""
    by_character = {c.character_id: c for c in combatants if c.character_id is not None}
    hidden = actor is None or actor.hidden
    grouped: dict[str, list] = {}
    for character_id, what in hits:
        c = by_character.get(character_id)
        player = _player(c)
        if c is None or player is None:
            continue
        params = {"character": c.name, **({} if hidden else {"actor": getattr(actor, "name", "")})}
        grouped.setdefault(what, []).append((player, params))
    for what, each in grouped.items():
        notify_each(code=f"{what}_hidden" if hidden else what, each=each,
                    campaign_id=encounter.campaign_id, link=_link(encounter))
