"""The reincarnation-cooldown beat: tell players whose suicide block ended, and bring back those
who asked to "reincarnate as soon as possible" on the suicide form.

Source: 000_afeb9d2c9ccd2b72.txt, “Le suicide” (“bloque la réincarnation pour 6 heures”) and the
design card's beat tasks; docs/rules/eternal-war-one-ii.md, “Reincarnation cooldown”.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.models import ActionRecord, Board, Campaign, RuleSystem
from characters.models import Character
from combat.services import restore_on_reincarnation
from ew1.cooldowns import BLOCK_FIELDS, cooldown_clear, cooldown_ended
from ew1.models import EternalWarSheet
from gamerules.dice import RandomSource

log = logging.getLogger(__name__)

NOTICE_OVER, NOTICE_REINCARNATED = "cooldown_over", "reincarnated"
PLACEMENT_TRIES = 50


@dataclass(frozen=True)
class CooldownRelease:
    """What one run did: characters told they may reincarnate, characters brought back."""

    noticed: int = 0
    reincarnated: int = 0
    # Every one handled (their pages are told, combat.tasks); not part of a run's outcome.
    characters: tuple[int, ...] = field(default=(), compare=False)

    def __add__(self, other: CooldownRelease) -> CooldownRelease:
        return CooldownRelease(self.noticed + other.noticed,
                               self.reincarnated + other.reincarnated,
                               self.characters + other.characters)


def cooldowns_release(*, now: datetime | None = None, rng: RandomSource | None = None
                      ) -> CooldownRelease:
    """Handle every off-board character whose suicide block has ended by ``now``: clear the
    block, store a notice for the player (``cooldown_notice``), and reincarnate those who chose
    it on the suicide form (a random free cell, PV as ``character_reincarnate`` gives them,
    journaled as an automatic "reincarnate"). A full or missing board leaves them a notice.

    Idempotent: clearing the block is the mark, so a second or late run finds each character
    once; rows another transaction holds are skipped (SKIP LOCKED) and taken by the next run.
    One query for the campaigns, then per campaign one locking SELECT and, when someone is due,
    at most four statements (occupied cells, characters, sheets, journal), whatever their
    number. A campaign whose chosen cell is taken meanwhile is rolled back and retried next run.
    """
    now = now or timezone.now()
    rng = rng or random.SystemRandom()
    total = CooldownRelease()
    for campaign in (Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR)
                     .select_related("board").order_by("id")):
        try:
            with transaction.atomic():
                total += _release_campaign(campaign, now=now, rng=rng)
        except IntegrityError:  # a piece took a chosen cell between the read and the write
            log.warning("cooldowns: campaign %s retried next run", campaign.pk)
    return total


def _release_campaign(campaign: Campaign, *, now: datetime, rng: RandomSource
                      ) -> CooldownRelease:
    params = campaign.parameters
    # From the sheet side: an inner join (FOR UPDATE refuses the nullable side of an outer one).
    sheets_due = list(
        EternalWarSheet.objects.select_for_update(skip_locked=True, of=("self", "character"))
        .select_related("character").filter(character__in=Character.objects.filter(
            cooldown_ended(params=params, now=now), campaign_id=campaign.pk, board__isnull=True))
        .order_by("character_id"))
    if not sheets_due:
        return CooldownRelease()
    due = [s.character for s in sheets_due]
    sheet_of = {s.character_id: s for s in sheets_due}
    board = getattr(campaign, "board", None)
    back = [c for c in due if c.reincarnate_asap]
    cells = _free_cells(board, len(back), rng) if back and board else []
    back, sheets, journal = back[:len(cells)], [], []
    for character, (x, y) in zip(back, cells):
        character.board, character.x, character.y = board, x, y
        character.last_action_at = now
        sheet = sheet_of[character.pk]
        restore_on_reincarnation(sheet, params=params, now=now)
        sheets.append(sheet)
        journal.append(ActionRecord(campaign=campaign, kind="reincarnate", actor=character,
                                    created_at=now, summary={
                                        "at": [x, y], "pv": sheet.pv, "automatic": True}))
    back_ids = {c.pk for c in back}
    for character in due:
        cooldown_clear(character)
        character.reincarnate_asap = False
        character.cooldown_notice = NOTICE_REINCARNATED if character.pk in back_ids else NOTICE_OVER
        character.cooldown_notice_at = now
    Character.objects.bulk_update(due, [*BLOCK_FIELDS, "board", "x", "y", "last_action_at",
                                        "reincarnate_asap", "cooldown_notice",
                                        "cooldown_notice_at"])
    if sheets:
        EternalWarSheet.objects.bulk_update(sheets, ["pa", "pa_anchor", "pv", "pv_anchor"])
        ActionRecord.objects.bulk_create(journal)
    return CooldownRelease(noticed=len(due) - len(back), reincarnated=len(back),
                           characters=tuple(c.pk for c in due))


def _free_cells(board: Board, count: int, rng: RandomSource) -> list[tuple[int, int]]:
    """Up to ``count`` distinct free cells of ``board`` (one query): random tries first, then
    the free cells in reading order, as ``character_place`` does."""
    taken = set(Character.objects.filter(board=board).values_list("x", "y"))
    cells: list[tuple[int, int]] = []
    for _ in range(PLACEMENT_TRIES * count):
        if len(cells) == count:
            return cells
        cell = (rng.randint(0, board.width - 1), rng.randint(0, board.height - 1))
        if cell not in taken:
            taken.add(cell)
            cells.append(cell)
    for y in range(board.height):
        for x in range(board.width):
            if len(cells) == count:
                return cells
            if (x, y) not in taken:
                taken.add((x, y))
                cells.append((x, y))
    return cells
