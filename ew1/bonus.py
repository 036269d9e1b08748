"""The faction bonus in combat: allies in view -> attack, dodge and magic bonuses.

The one place the combat services ask (seed 000_afeb9d2c9ccd2b72.txt, "Phase d'attaque",
"Phase d'esquive", "Utilisation de la magie"). Allies are characters of the same faction standing
within the campaign's view radius of the character (Chebyshev distance, in cells).
"""

from __future__ import annotations

from collections.abc import Iterable

from gamerules.ew1.errors import FriendlyFire
from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.presence import FactionBonus, faction_bonus
from gamerules.geometry import chebyshev


def allies_in_view(character, pieces: Iterable, *, radius: int) -> int:
    """How many of ``pieces`` (characters with ``membership`` loaded, or None) are allies of
    ``character`` within ``radius`` cells. No query when memberships were prefetched."""
    mine = getattr(character, "faction_id_cached", None)
    if mine is None:
        return 0
    return sum(1 for p in pieces
               if p.pk != character.pk and p.board_id == character.board_id
               and getattr(p, "faction_id_cached", None) == mine
               and chebyshev(p.cell, character.cell) <= radius)


def are_allies(character, other) -> bool:
    """Whether ``other`` is a member of ``character``'s faction (both with
    ``faction_id_cached``); a character is not its own ally. No query."""
    mine = getattr(character, "faction_id_cached", None)
    return (mine is not None and other.pk != character.pk
            and getattr(other, "faction_id_cached", None) == mine)


def require_not_ally(character, target, params: EW1Parameters) -> None:
    """Raise FriendlyFire when the campaign forbids friendly fire and ``target`` is an ally of
    ``character`` (docs/rules, "Friendly fire")."""
    if not params.friendly_fire and are_allies(character, target):
        raise FriendlyFire()


def combat_bonus(character, pieces: Iterable, params: EW1Parameters) -> FactionBonus:
    """The faction bonus of ``character`` given the ``pieces`` around it."""
    return faction_bonus(allies_in_view(character, pieces, radius=params.view_radius),
                         attack_factor=params.faction_attack_factor,
                         magic_factor=params.faction_magic_factor,
                         dodge_factor=params.faction_dodge_factor)
