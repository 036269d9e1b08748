"""The context of a board action, loaded once; and the one write that stores its outcome.

An attack or a cast loads what its rules read in ``action_context``, computes in memory, then
stores what changed with ``outcome_write``. The style is Saleor's ``checkout/fetch.py``: one
fetch builds a frozen context, the computation reads only it.

``action_context`` runs THREE queries, whatever the number of pieces in view or of items:

1. the sheets of the actor and of every character the action may change, with their
   characters, campaign and board, locked FOR UPDATE in one id-ordered statement
   (``ew1.actors.lock_sheet_set``, the locking rule of issue 9);
2. their equipped items, with their templates (one prefetch);
3. the pieces in view: every character on the actor's board inside the bounding box of the
   areas asked for, with its faction (``faction_id_cached``) and its strongest active shield
   (``shield_cached``), joined in the same statement.

``outcome_write`` runs FOUR: one UPDATE of the changed sheets, one of their characters
(``bulk_update``), then the journal's two INSERTs (the action, its rolls).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Max, Q

from campaigns.journal import record_action
from campaigns.models import ActionRecord
from characters.models import Character
from ew1.actors import lock_sheet_set
from ew1.equipment import Loadout, loadout_of
from ew1.models import EternalWarSheet
from ew1.regeneration import sheet_refresh
from gamerules.ew1.attacks import Combatant
from gamerules.ew1.params import EW1Parameters
from gamerules.geometry import chebyshev

Cell = tuple[int, int]

# Every column ``save()`` would write (the sheet is locked: nothing else changes it meanwhile).
SHEET_FIELDS = [f.name for f in EternalWarSheet._meta.concrete_fields if not f.primary_key]


@dataclass(frozen=True)
class ActionContext:
    """What an action reads, loaded by ``action_context``.

    ``sheets``: every locked sheet by character id (the actor's included), PA and PV brought
    up to ``now`` in memory; their characters are the ones to change and write back.
    ``loadouts``: each locked character's equipped items, summed. ``pieces``: the characters
    in view (not locked, read after the lock), each with ``faction_id_cached`` and
    ``shield_cached``; the locked characters among them carry the same two attributes."""

    actor: EternalWarSheet
    sheets: Mapping[int, EternalWarSheet]
    loadouts: Mapping[int, Loadout]
    pieces: tuple[Character, ...]
    params: EW1Parameters
    now: datetime

    @property
    def character(self) -> Character:
        return self.actor.character

    def shield(self, character_id: int) -> int:
        """The strongest active shield on a piece in view (shields do not add up); 0 for a piece
        not in view or without one."""
        return next((p.shield_cached or 0 for p in self.pieces if p.pk == character_id), 0)

    def combatant(self, character_id: int) -> Combatant:
        """The rules' view of a locked character: its numbers, equipped items and shield. A
        creature, door or object has no luck."""
        sheet = self.sheets[character_id]
        loadout = self.loadouts[character_id]
        return Combatant(
            characteristics=sheet.characteristics, skills=sheet.skills, level=sheet.level,
            luck=sheet.LUK if sheet.character.is_player else None, armour=loadout.armour,
            modifiers=loadout.modifiers, fixed_reduction=sheet.fixed_reduction,
            shield=self.shield(character_id))

    def distance(self, a: Character, b: Character) -> int:
        """Cells between two pieces on the same board (Chebyshev)."""
        return chebyshev(a.cell, b.cell)


def action_context(*, user: Any, character_id: int, others: Iterable[int] = (),
                   view_of: Iterable[int] = (), cells: Iterable[tuple[Cell, int]] = (),
                   now: datetime, check_owner: bool = True) -> ActionContext:
    """Lock and load the context of an action of ``character_id`` (three queries, listed in the
    module's docstring).

    ``others``: ids of every other character the action may change (locked with the actor; a
    missing one is simply absent from ``sheets``). The pieces in view are those within the
    radius the rules read (``max(view_radius, own_characters_reach)`` cells: faction allies,
    one's own characters) of the actor and of the locked characters ``view_of`` standing on
    its board, and within each ``(cell, r)`` of ``cells`` (a spell's zone): one bounding box.
    Raises what ``lock_sheet_set`` raises (NotFound, Forbidden, RuleSystemNotPlayable)."""
    actor, sheets = lock_sheet_set(user=user, character_id=character_id, others=others,
                                   check_owner=check_owner, items=True)
    character = actor.character
    params = character.campaign.parameters
    for sheet in sheets.values():
        sheet_refresh(sheet, params=params, now=now)
    pieces: tuple[Character, ...] = ()
    radius = max(params.view_radius, params.own_characters_reach)
    if character.board_id is not None:
        areas = [(character.cell, radius)]
        areas += [(s.character.cell, radius) for i in view_of
                  if (s := sheets.get(i)) is not None and s.character.board_id == character.board_id]
        areas += list(cells)
        pieces = tuple(_pieces_in(character.board_id, areas, now))
        by_id = {p.pk: p for p in pieces}
        for sheet in sheets.values():
            seen = by_id.get(sheet.character_id)
            sheet.character.faction_id_cached = seen.faction_id_cached if seen else None
            sheet.character.shield_cached = seen.shield_cached if seen else None
    loadouts = {i: loadout_of(s.character.equipped_items) for i, s in sheets.items()}
    return ActionContext(actor=actor, sheets=sheets, loadouts=loadouts, pieces=pieces,
                         params=params, now=now)


def _pieces_in(board_id: int, areas: Sequence[tuple[Cell, int]], now: datetime
               ) -> list[Character]:
    """The characters on a board inside the bounding box of ``areas`` (centre, radius), with
    their faction and their strongest shield active at ``now``: one query."""
    xs = [c[0] + s * r for c, r in areas for s in (-1, 1)]
    ys = [c[1] + s * r for c, r in areas for s in (-1, 1)]
    return list(Character.objects.filter(
        board_id=board_id, x__range=(min(xs), max(xs)), y__range=(min(ys), max(ys)))
        .annotate_faction()
        .annotate(shield_cached=Max("effects__amount", filter=Q(effects__expires_at__gt=now))))


def outcome_write(*, context: ActionContext, changed: Iterable[int],  # noqa: PLR0913  the one write, named
                  character_fields: Sequence[str], kind: str, user: Any,
                  target: Character | None = None, cost: Decimal | int = 0,
                  rolls: Iterable[dict[str, Any]] = (), summary: dict[str, Any] | None = None
                  ) -> ActionRecord:
    """Store an action's outcome: the sheets of ``changed`` (character ids, the actor always
    among them) in one UPDATE, their characters' ``character_fields`` in another, then the
    journal (the action by the actor, its rolls). Four queries."""
    ids = {context.actor.character_id, *changed}
    sheets = [context.sheets[i] for i in sorted(ids)]
    EternalWarSheet.objects.bulk_update(sheets, SHEET_FIELDS)
    Character.objects.bulk_update([s.character for s in sheets], list(character_fields))
    return record_action(campaign=context.character.campaign, kind=kind, now=context.now,
                         user=user, actor=context.character, target=target,
                         cost=cost, rolls=rolls, summary=summary)
