"""Who may not be attacked yet: the protection of a level 0 player character (seed 000,
"Niveaux": "protégé jusqu'à sa première action"). No query beyond the sheet the caller loaded."""

from __future__ import annotations

from typing import Any


def is_protected(character: Any) -> bool:
    """A level 0 player character cannot be attacked before its first action. Reads
    ``character.ew1`` (load the sheet with the character)."""
    return character.is_player and character.first_action_at is None and character.ew1.level == 0
