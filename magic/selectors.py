"""Read-only queries for the spellbook and the board's spell panel."""

from __future__ import annotations

from dataclasses import dataclass

from characters.models import Character
from ew1.readiness import refusal
from ew1.bonus import combat_bonus
from gamerules.errors import RuleError
from gamerules.ew1 import errors
from gamerules.ew1.magic import Bonus, cast_score
from gamerules.geometry import chebyshev
from magic.models import ActiveEffect, KnownSpell


def spellbook(character: Character) -> list[KnownSpell]:
    """The character's spells with their catalogue entries: one query."""
    return list(KnownSpell.objects.filter(character=character).select_related("spell"))


@dataclass(frozen=True)
class SpellChoice:
    known: KnownSpell
    targets: list[Character]  # pieces in range (the caster included), nearest first
    odds: int = 0  # chance of success in %, with the faction bonus the cast would get
    refusal: RuleError | None = None  # why a cast would be refused now (state, PA, range)


def spell_panel(character: Character, pieces: list[Character]) -> list[SpellChoice]:
    """Each known spell with the pieces it can be cast on from here, the chance of success and
    why a cast would be refused now (one query). ``pieces`` are the pieces in view, the
    character included (with ``faction_id_cached``, as ``board_view`` sets it)."""
    if not character.on_board:
        return []
    params = character.campaign.parameters
    bonus = combat_bonus(character, pieces, params)
    bonuses = (Bonus(f"faction ({bonus.allies} allies)", bonus.magic),) if bonus.magic else ()
    odds = max(0, min(100, cast_score(magic_skill=character.ew1.skills["magic"],
                                      test_bonuses=bonuses)))
    refused = refusal(character, character.ew1, params.magic_cost_pa)
    choices = []
    for known in spellbook(character):
        spell = known.spell
        here = character.cell
        # A damage spell is not offered on its own caster (the service would allow it).
        targets = sorted((p for p in pieces
                          if chebyshev(p.cell, here) <= spell.range_cells
                          and not (spell.effect == "damage" and p.pk == character.pk)),
                         key=lambda p: (chebyshev(p.cell, here), p.name))
        out_of_range = None if targets else errors.OutOfRange(
            "nobody_in_range", cells=spell.range_cells)
        choices.append(SpellChoice(known, targets, odds, refused or out_of_range))
    return choices


def active_effects(character: Character, now) -> list[ActiveEffect]:
    return list(ActiveEffect.objects.filter(target=character, expires_at__gt=now)
                .select_related("spell").order_by("expires_at"))
