"""What magic plugs into the board (combat.hooks, registered in magic.apps): a player's move onto
a scroll picks it up, and the board page shows the spell panel."""

from __future__ import annotations

from datetime import datetime
from collections.abc import Sequence
from typing import Any

from campaigns.permissions import allowed
from magic.selectors import spell_panel
from magic.spellbook import scroll_pick_up


def pick_up_scroll(character: Any, now: datetime, path: Sequence[tuple[int, int]] | None = None
                   ) -> dict[str, Any]:
    """After a player's move: the scrolls on the cells walked over (``path``; the new cell
    when None) are learned (magic.spellbook); the move's summary names them (``{"scroll":
    name}``, names joined with ", " when the walk found several), ``{}`` when there was none."""
    learned = scroll_pick_up(character=character, now=now, path=path)
    return {"scroll": ", ".join(k.spell.name for k in learned)} if learned else {}


def spell_panel_context(user: Any, character: Any, pieces: list[Any]) -> dict[str, Any]:
    """The board page's spell panel: the character's spells with their targets and odds, for the
    one who may play it (``characters.act``); empty for an onlooker (the GM, staff)."""
    spells = spell_panel(character, pieces) if allowed(user, "characters.act", character) else []
    return {"spells": spells}
