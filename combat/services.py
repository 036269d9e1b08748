"""Eternal War One II board actions: move and brawl attack.

Each action runs in one transaction: lock the sheets involved (one SELECT ... FOR UPDATE, in id
order so that two players attacking each other cannot deadlock), bring PA and PV up to now, let
the rules decide, then write. A refused action raises before any write, so nothing changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import Forbidden, NotFound, RuleSystemNotPlayable
from campaigns.journal import record_action, roll_row
from campaigns.models import ActionRecord, RuleSystem
from characters.models import Character, EternalWarSheet
from characters.regeneration import sheet_refresh
from characters.progression import grant_xp
from gamerules.dice import RandomSource
from gamerules.ew1 import errors
from gamerules.ew1.combat import AttackOutcome, Combatant, resolve_brawl

DIRECTIONS = {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(0, 0)}


@dataclass(frozen=True)
class ActionResult:
    action: ActionRecord
    character: Character
    outcome: AttackOutcome | None = None


def _lock_sheets(*, user, character_id: int, other_id: int | None = None
                 ) -> tuple[EternalWarSheet, EternalWarSheet | None]:
    """Lock and return the actor's sheet (and the other's). Raises NotFound when the actor does
    not exist, Forbidden when ``user`` does not own it, RuleSystemNotPlayable outside EW1."""
    ids = [character_id] + ([other_id] if other_id is not None else [])
    sheets = {
        s.character_id: s
        for s in EternalWarSheet.objects.select_for_update(of=("self", "character"))
        .select_related("character", "character__campaign", "character__board")
        .filter(character_id__in=ids).order_by("character_id")
    }
    actor = sheets.get(character_id)
    if actor is None:
        if not Character.objects.filter(pk=character_id).exists():
            raise NotFound("No such character.")
        raise RuleSystemNotPlayable("This character's rule system has no board actions yet.")
    if actor.character.owner_id != user.pk:
        raise Forbidden("You can only act with your own characters.")
    if actor.character.campaign.rule_system != RuleSystem.ETERNAL_WAR:
        raise RuleSystemNotPlayable("This character's rule system has no board actions yet.")
    other = sheets.get(other_id) if other_id is not None else None
    if other_id is not None and other is None:
        raise errors.InvalidTarget("No such target.")
    return actor, other


def _spend(sheet: EternalWarSheet, cost, now: datetime) -> None:
    if sheet.pa < cost:
        raise errors.NotEnoughPA(f"This needs {cost} PA; you have {sheet.pa}.")
    sheet.pa -= cost
    character = sheet.character
    character.first_action_at = character.first_action_at or now
    character.last_action_at = now


def _require_able(sheet: EternalWarSheet) -> None:
    character = sheet.character
    if not character.on_board:
        raise errors.CannotAct("This character is not on the board.")
    if sheet.pv <= 0:
        raise errors.CannotAct("At 0 PV a character cannot act until healed.")


@transaction.atomic
def action_move(*, user, character_id: int, dx: int, dy: int, now: datetime | None = None
                ) -> ActionResult:
    """Move one cell in one of eight directions (dx, dy in -1..1, not both 0).

    Costs ``move_cost_pa`` (0.5 PA) and gives ``move_xp`` (1 XP). Raises InvalidDirection,
    CannotAct (0 PV or off the board), OffBoard, CellOccupied, NotEnoughPA, Forbidden, NotFound.
    Source: 000_afeb9d2c9ccd2b72.txt, "Caractéristiques fixes" (DEP 0.5 PA per cell) and
    "Répartition des gains d'XP par action".
    """
    now = now or timezone.now()
    if (dx, dy) not in DIRECTIONS:
        raise errors.InvalidDirection("Move one cell in one of the eight directions.")
    sheet, _ = _lock_sheets(user=user, character_id=character_id)
    character = sheet.character
    params = character.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    _require_able(sheet)
    x, y = character.x + dx, character.y + dy
    if not character.board.contains(x, y):
        raise errors.OffBoard("That cell is off the board.")
    if Character.objects.filter(board_id=character.board_id, x=x, y=y).exists():
        raise errors.CellOccupied("That cell is occupied.")
    _spend(sheet, params.move_cost_pa, now)
    grant_xp(sheet, params.move_xp, params)
    character.x, character.y = x, y
    try:
        with transaction.atomic():
            character.save(update_fields=["x", "y", "first_action_at", "last_action_at"])
    except IntegrityError:  # another piece took the cell between the check and the write
        raise errors.CellOccupied("That cell is occupied.") from None
    sheet.save()
    action = record_action(campaign=character.campaign, kind="move", now=now, user=user,
                           actor=character, pa_spent=params.move_cost_pa,
                           summary={"to": [x, y], "xp": params.move_xp})
    return ActionResult(action, character)


def _combatant(sheet: EternalWarSheet, *, with_luck: bool) -> Combatant:
    return Combatant(characteristics=sheet.characteristics, skills=sheet.skills, level=sheet.level,
                     luck=sheet.LUK if with_luck else None)


@transaction.atomic
def action_brawl(*, user, character_id: int, target_id: int, rng: RandomSource | None = None,
                 now: datetime | None = None) -> ActionResult:
    """Brawl (Bagarre) attack on an adjacent character: ``brawl_cost_pa`` (2 PA).

    Resolution in ``gamerules.ew1.combat.resolve_brawl``; every roll is journaled. The target
    at 0 PV cannot move; below 0 it is disincarnated (off the board, a death for it, a kill for
    the attacker). Raises InvalidTarget (self, other campaign, missing), TargetProtected (level 0
    before its first action), NotAdjacent, CannotAct, NotEnoughPA, Forbidden, NotFound.
    """
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    if target_id == character_id:
        raise errors.InvalidTarget("A character cannot attack itself.")
    sheet, target_sheet = _lock_sheets(user=user, character_id=character_id, other_id=target_id)
    attacker, target = sheet.character, target_sheet.character
    params = attacker.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    sheet_refresh(target_sheet, params=params, now=now)
    _require_able(sheet)
    if target.board_id != attacker.board_id:
        raise errors.InvalidTarget("The target is not on your board.")
    if max(abs(target.x - attacker.x), abs(target.y - attacker.y)) != 1:
        raise errors.NotAdjacent("The target must stand on an adjacent cell.")
    if target_sheet.level == 0 and target.first_action_at is None:
        raise errors.TargetProtected("A level 0 character is protected until its first action.")
    _spend(sheet, params.brawl_cost_pa, now)

    outcome = resolve_brawl(_combatant(sheet, with_luck=True),
                            _combatant(target_sheet, with_luck=True), rng, params)
    grant_xp(sheet, outcome.attacker_xp, params)
    grant_xp(target_sheet, outcome.defender_xp, params)
    target_sheet.pv -= outcome.pv_lost
    disincarnated = target_sheet.pv < 0
    if disincarnated:
        target.board, target.x, target.y = None, None, None
        target.deaths += 1
        attacker.kills += 1
    attacker.save(update_fields=["first_action_at", "last_action_at", "kills"])
    target.save(update_fields=["board", "x", "y", "deaths"])
    sheet.save()
    target_sheet.save()

    rolls = [roll_row(label=r.label, roll=r.roll, target_score=r.target, success=r.success,
                      modifiers=r.modifiers,
                      actor=target if r.label in ("dodge", "damage_reduction") else attacker)
             for r in outcome.rolls]
    action = record_action(
        campaign=attacker.campaign, kind="brawl", now=now, user=user, actor=attacker,
        target=target, pa_spent=params.brawl_cost_pa, rolls=rolls,
        summary={"attack_score": outcome.attack_score, "attack_roll": outcome.attack_roll,
                 "hit": outcome.hit, "perfect": outcome.perfect,
                 "dodge_score": outcome.dodge_score, "dodged": outcome.dodged,
                 "damage": outcome.damage, "reduction": outcome.reduction,
                 "pv_lost": outcome.pv_lost, "target_pv": target_sheet.pv,
                 "disincarnated": disincarnated, "attacker_xp": outcome.attacker_xp,
                 "defender_xp": outcome.defender_xp})
    return ActionResult(action, attacker, outcome)
