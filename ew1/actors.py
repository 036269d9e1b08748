"""What every board action starts with: lock the sheets, check the actor can act, spend PA;
and what ends a character's stay on the board."""

from __future__ import annotations

from datetime import datetime
from collections.abc import Iterable

from django.db.models import Prefetch, Q

from campaigns import rule_systems
from campaigns.errors import NotFound, RuleSystemNotPlayable
from campaigns.models import Board, RuleSystem
from characters.models import Character
from characters.rules import require_owner
from ew1.daily_pa import charge_pa
from ew1.errors import NOT_EW1_MESSAGES
from ew1.models import EternalWarSheet, ItemInstance
from ew1.readiness import cannot_act
from gamerules.ew1 import errors


class NotEternalWar(RuleSystemNotPlayable):
    """RuleSystemNotPlayable (code ``rule_system_not_playable``) for an Eternal War One II play
    asked of another system's campaign (key ``not_ew1``)."""

    messages = NOT_EW1_MESSAGES


def require_eternal_war(campaign) -> None:
    """Let only a campaign of Eternal War One II through: NotEternalWar ("not_ew1") for another
    system's. Called after the membership check, so only a member learns it."""
    if campaign.rule_system != RuleSystem.ETERNAL_WAR:
        raise NotEternalWar("not_ew1")


def lock_sheets(*, user, character_id: int, other_id: int | None = None,
                check_owner: bool = True, items: bool = False
                ) -> tuple[EternalWarSheet, EternalWarSheet | None]:
    """Lock and return the actor's sheet (and the other's): ``lock_sheet_set`` for one or two.
    Raises as it does, and InvalidTarget when the other does not exist."""
    actor, sheets = lock_sheet_set(user=user, character_id=character_id,
                                   others=() if other_id is None else (other_id,),
                                   check_owner=check_owner, items=items)
    other = sheets.get(other_id) if other_id is not None else None
    if other_id is not None and other is None:
        raise errors.InvalidTarget("no_such_target")
    return actor, other


def lock_sheet_set(*, user, character_id: int, others: Iterable[int] = (),
                   check_owner: bool = True, items: bool = False
                   ) -> tuple[EternalWarSheet, dict[int, EternalWarSheet]]:
    """Lock the sheets (and characters) of the actor and of ``others`` in ONE statement, in
    character id order, and return the actor's sheet and every locked sheet by character id
    (the actor's included; a missing other is simply absent). Every action calls this before
    it changes anything, with every sheet it may change: two actions then lock their rows in
    the same order and one waits for the other; none can deadlock (issue 9). ``items`` loads
    each character's equipped items as ``character.equipped_items`` (one more query: only the
    actions that read a loadout, through ew1.context, ask for it).

    Raises NotFound when the actor does not exist, Forbidden when ``user`` does not own it (with
    ``check_owner``), RuleSystemNotPlayable for a system not built (rule_systems.require) or without the
    board."""
    # Exact lookups, not ``__in``: Django turns an id past the database's integer range into
    # "no row" for ``=`` only (``IN`` overflows SQLite's integers: a 500 on a huge URL id).
    ids = Q(character__id=character_id)
    for other in set(others) - {character_id}:
        ids |= Q(character__id=other)
    qs = (EternalWarSheet.objects.select_for_update(of=("self", "character"))
          .select_related("character", "character__campaign", "character__board"))
    if items:
        qs = qs.prefetch_related(Prefetch(
            "character__items", to_attr="equipped_items",
            queryset=ItemInstance.objects.filter(equipped=True).select_related("template")))
    # ORDER BY under FOR UPDATE: PostgreSQL locks the rows as the sort returns them.
    sheets = {s.character_id: s for s in qs.filter(ids).order_by("character_id")}
    actor = sheets.get(character_id)
    if actor is None:  # missing, or of another rule system: the stranger learns neither
        character = (Character.objects.select_related("campaign")
                     .filter(pk=character_id).first())
        if character is None:
            raise NotFound("no_such_character")
        if check_owner:
            require_owner(user, character)
        require_eternal_war(character.campaign)
        raise RuleSystemNotPlayable("no_board_actions")
    if check_owner:
        require_owner(user, actor.character)
    if rule_systems.require(actor.character.campaign.rule_system).play_mode != rule_systems.BOARD:
        raise RuleSystemNotPlayable("no_board_actions")
    return actor, sheets


def spend_pa(sheet: EternalWarSheet, cost, now: datetime) -> None:
    """``charge_pa`` for a board action of the sheet's character (with its campaign loaded, as
    ``lock_sheets`` gives it), and mark the character's action time."""
    character = sheet.character
    charge_pa(sheet, cost, params=character.campaign.parameters, now=now)
    character.first_action_at = character.first_action_at or now
    character.last_action_at = now


def require_able(sheet: EternalWarSheet) -> Board:
    """The board of a character that can act (loaded with its sheet by ``lock_sheet_set``).
    Raises CannotAct off the board or at 0 PV or below (ew1.readiness)."""
    if refused := cannot_act(sheet.character, sheet):
        raise refused
    board = sheet.character.board
    if board is None:  # on_board said otherwise: cannot happen, but the type says it may
        raise errors.CannotAct("character_not_board")
    return board


def require_rested(character: Character, rested_until: datetime | None) -> None:
    """For the creature beat, on the locked ``character``: refuse (CannotAct) when it acted
    after ``rested_until`` (another run of the beat took its turn while this one decided).
    None: no check."""
    last = character.last_action_at
    if rested_until is not None and last is not None and last > rested_until:
        raise errors.CannotAct("piece_took_turn")


def disincarnate(character: Character, *, killer: Character | None) -> None:
    """Take a character below 0 PV off the board (in memory; the caller saves): a death for it,
    a kill for ``killer``. Source: 000, "Distribution des dégâts reçue"."""
    character.board, character.x, character.y = None, None, None
    character.deaths += 1
    if killer is not None and killer.pk != character.pk:
        killer.kills += 1
