"""The ``character-<id>`` live topic (campaigns.live): a character's sheet pages, whatever its
rule system. Who reads it: who may see the sheet (characters.rules: its player, the campaign's
game masters)."""

from __future__ import annotations

from campaigns.permissions import allowed

KIND = "character"


def can_read(user, character_id: int) -> bool:
    """One query: the character with its campaign."""
    from characters.models import Character

    character = Character.objects.select_related("campaign").filter(pk=character_id).first()
    return character is not None and allowed(user, "characters.view_sheet", character)
