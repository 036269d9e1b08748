"""What every board action starts with: lock the sheets, check the actor can act, spend PA;
and what ends a character's stay on the board."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Prefetch, Q

from campaigns.errors import NotFound, RuleSystemNotPlayable
from campaigns.models import RuleSystem
from characters.models import Character, EternalWarSheet, ItemInstance
from characters.readiness import cannot_act, pa_shortfall
from characters.rules import require_owner
from gamerules.ew1 import errors


def lock_sheets(*, user, character_id: int, other_id: int | None = None,
                 check_owner: bool = True) -> tuple[EternalWarSheet, EternalWarSheet | None]:
    """Lock and return the actor's sheet (and the other's), with equipped items. Raises NotFound
    when the actor does not exist, Forbidden when ``user`` does not own it,
    RuleSystemNotPlayable outside EW1, InvalidTarget when the other does not exist."""
    # Exact lookups, not ``__in``: Django turns an id past the database's integer range into
    # "no row" for ``=`` only (``IN`` overflows SQLite's integers: a 500 on a huge URL id).
    ids = Q(character__id=character_id)
    if other_id is not None:
        ids |= Q(character__id=other_id)
    equipped = Prefetch("character__items", to_attr="equipped_items",
                        queryset=ItemInstance.objects.filter(equipped=True)
                        .select_related("template"))
    sheets = {
        s.character_id: s
        for s in EternalWarSheet.objects.select_for_update(of=("self", "character"))
        .select_related("character", "character__campaign", "character__board")
        .prefetch_related(equipped)
        .filter(ids).order_by("character_id")
    }
    actor = sheets.get(character_id)
    if actor is None:
        if not Character.objects.filter(pk=character_id).exists():
            raise NotFound("No such character.")
        raise RuleSystemNotPlayable("This character's rule system has no board actions yet.")
    if check_owner:
        require_owner(user, actor.character)
    if actor.character.campaign.rule_system != RuleSystem.ETERNAL_WAR:
        raise RuleSystemNotPlayable("This character's rule system has no board actions yet.")
    other = sheets.get(other_id) if other_id is not None else None
    if other_id is not None and other is None:
        raise errors.InvalidTarget("No such target.")
    return actor, other


def spend_pa(sheet: EternalWarSheet, cost, now: datetime) -> None:
    if shortfall := pa_shortfall(sheet, cost):
        raise shortfall
    sheet.pa -= cost
    character = sheet.character
    character.first_action_at = character.first_action_at or now
    character.last_action_at = now


def require_able(sheet: EternalWarSheet) -> None:
    if refused := cannot_act(sheet.character, sheet):
        raise refused


def disincarnate(character: Character, *, killer: Character | None) -> None:
    """Take a character below 0 PV off the board (in memory; the caller saves): a death for it,
    a kill for ``killer``. Source: 000, "Distribution des dégâts reçue"."""
    character.board, character.x, character.y = None, None, None
    character.deaths += 1
    if killer is not None and killer.pk != character.pk:
        killer.kills += 1
