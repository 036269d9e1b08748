"""Read-only queries for the spellbook and the board's spell panel."""

from __future__ import annotations

from dataclasses import dataclass

from characters.models import Character
from gamerules.geometry import chebyshev
from magic.models import ActiveEffect, KnownSpell


def spellbook(character: Character) -> list[KnownSpell]:
    """The character's spells with their catalogue entries: one query."""
    return list(KnownSpell.objects.filter(character=character).select_related("spell"))


@dataclass(frozen=True)
class SpellChoice:
    known: KnownSpell
    targets: list[Character]  # pieces in range (the caster included), nearest first


def spell_panel(character: Character, pieces: list[Character]) -> list[SpellChoice]:
    """Each known spell with the pieces it can be cast on from here (one query). ``pieces`` are
    the pieces in view, the character included."""
    if not character.on_board:
        return []
    choices = []
    for known in spellbook(character):
        spell = known.spell
        here = character.cell
        # A damage spell is not offered on its own caster (the service would allow it).
        targets = sorted((p for p in pieces
                          if chebyshev(p.cell, here) <= spell.range_cells
                          and not (spell.effect == "damage" and p.pk == character.pk)),
                         key=lambda p: (chebyshev(p.cell, here), p.name))
        choices.append(SpellChoice(known, targets))
    return choices


def active_effects(character: Character, now) -> list[ActiveEffect]:
    return list(ActiveEffect.objects.filter(target=character, expires_at__gt=now)
                .select_related("spell").order_by("expires_at"))
