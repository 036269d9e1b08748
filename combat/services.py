"""Eternal War One II board actions: move, attacks (brawl, melee, ranged, throw), game, suicide
and reincarnation.

Each action runs in one transaction: lock the sheets involved (one SELECT ... FOR UPDATE, in id
order so that two players attacking each other cannot deadlock), bring PA and PV up to now, load
what the rules need in a fixed number of queries, let the rules decide, then write. A refused
action raises before any write, so nothing changes.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.journal import record_action, roll_row
from campaigns.models import ActionRecord
from characters.models import Character
from characters.services import character_place
from combat import hooks
from ew1.actors import disincarnate, lock_sheets, require_able, require_rested, spend_pa
from ew1.context import ActionContext, action_context, outcome_write
from ew1.cooldowns import reincarnation_available_at
from ew1.models import EternalWarSheet
from ew1.progression import grant_xp
from ew1.regeneration import sheet_refresh, unix
from ew1.bonus import combat_bonus, require_not_ally
from gamerules.dice import RandomSource
from gamerules.ew1 import errors
from gamerules.ew1.attacks import (BRAWL, KINDS, MELEE, RANGED, THROW, AttackOutcome, Modifier,
                                   Weapon, resolve_attack)
from gamerules.ew1.game import GameOutcome, resolve_game
from gamerules.ew1.movement import MoveArea, blocked_cells, plan_move, view_window
from gamerules.ew1.presence import FactionBonus, own_characters_malus
from notifications.services import notify

DIRECTIONS = {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(0, 0)}
# The journal's kinds the board writes (declared in combat.apps; templates/ew1/_log_entry.html).
JOURNAL_KINDS = ("move", *KINDS, "game", "suicide", "reincarnate")


@dataclass(frozen=True)
class ActionResult:
    action: ActionRecord
    character: Character
    outcome: AttackOutcome | GameOutcome | None = None


@transaction.atomic
def action_move(*, user, character_id: int, dx: int, dy: int, now: datetime | None = None,
                check_owner: bool = True, rested_until: datetime | None = None
                ) -> ActionResult:
    """Move one cell in one of eight directions (dx, dy in -1..1, not both 0).

    Costs ``move_cost_pa`` (0.5 PA) and gives ``move_xp`` (1 XP). Raises InvalidDirection,
    CannotAct (0 PV or off the board), OffBoard, CellOccupied, NotEnoughPA, Forbidden, NotFound.
    ``check_owner=False`` is for the game's own pieces (creatures), which no user owns; they pick
    up no scroll. ``rested_until``: the creature beat's "acted at most then" (CannotAct after).
    Source: 000_afeb9d2c9ccd2b72.txt, "Caractéristiques fixes" (DEP 0.5 PA per cell) and
    "Répartition des gains d'XP par action".
    """
    now = now or timezone.now()
    if (dx, dy) not in DIRECTIONS:
        raise errors.InvalidDirection()
    sheet, _ = lock_sheets(user=user, character_id=character_id, check_owner=check_owner)
    character = sheet.character
    require_rested(character, rested_until)
    params = character.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    board = require_able(sheet)
    x, y = character.cell[0] + dx, character.cell[1] + dy
    if not board.contains(x, y):
        raise errors.OffBoard()
    if Character.objects.filter(board=board, x=x, y=y).exists():
        raise errors.CellOccupied()
    spend_pa(sheet, params.move_cost_pa, now)
    xp = params.move_xp if character.is_player else 0  # creatures gain no XP (docs/rules)
    grant_xp(sheet, xp, params)
    character.x, character.y = x, y
    try:
        with transaction.atomic():
            character.save(update_fields=["x", "y", "first_action_at", "last_action_at"])
    except IntegrityError:  # another piece took the cell between the check and the write
        raise errors.CellOccupied() from None
    sheet.save()
    extra = hooks.after_move(character, now) if character.is_player else {}  # magic: a scroll
    action = record_action(campaign=character.campaign, kind="move", now=now, user=user,
                           actor=character, cost=params.move_cost_pa,
                           summary={"to": [x, y], "xp": xp, **extra})
    return ActionResult(action, character)


@transaction.atomic
def action_move_to(*, user, character_id: int, x: int, y: int, now: datetime | None = None
                   ) -> ActionResult:
    """Walk to the cell (``x``, ``y``) within view: the shortest free path
    (``gamerules.ew1.movement.plan_move``, the rule the board's preview draws), ``move_cost_pa``
    and ``move_xp`` a cell, priced and journaled as one move (summary ``to``, ``xp``,
    ``steps``). Each cell stepped on is a cell moved onto (a scroll there is picked up, the
    after-move hooks run once a cell). Raises CannotAct, OffBoard, InvalidDirection (the cell
    it stands on), OutOfRange (out of view, walled off), CellOccupied, NotEnoughPA,
    DailyPACapReached, Forbidden, NotFound, before any write. Four queries before the writes:
    the locked sheet, the pieces in view, then the writes as ``action_move``'s.
    Source: 000_afeb9d2c9ccd2b72.txt, "Caractéristiques fixes" (DEP 0.5 PA per cell)."""
    now = now or timezone.now()
    sheet, _ = lock_sheets(user=user, character_id=character_id)
    character = sheet.character
    params = character.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    board = require_able(sheet)
    goal = (x, y)
    if not board.contains(x, y):
        raise errors.OffBoard()
    window = view_window(centre=character.cell, radius=params.view_radius, width=board.width,
                         height=board.height)
    # The pieces the board draws (ew1.selectors.board_view: those with a sheet), so that the
    # walk is the one its preview showed; a piece saved without a sheet around the admin is
    # not drawn, and its cell is refused by the write below (CellOccupied).
    taken = Character.objects.filter(board=board, x__range=(window[0], window[2]),
                                     y__range=(window[1], window[3]),
                                     ew1__isnull=False).values_list("x", "y")
    area = MoveArea(width=board.width, height=board.height, window=window,
                    blocked=blocked_cells(taken, mover=character.cell))
    plan = plan_move(character.cell, goal, area, cost_per_cell=params.move_cost_pa,
                     xp_per_cell=params.move_xp if character.is_player else 0)
    spend_pa(sheet, plan.cost, now)
    grant_xp(sheet, plan.xp, params)
    character.x, character.y = goal
    try:
        with transaction.atomic():
            character.save(update_fields=["x", "y", "first_action_at", "last_action_at"])
    except IntegrityError:  # another piece took the cell between the check and the write
        raise errors.CellOccupied() from None
    sheet.save()
    # Each cell walked over is moved onto (magic: a player picks up the scrolls there).
    extra = hooks.after_move(character, now, plan.path) if character.is_player else {}
    action = record_action(campaign=character.campaign, kind="move", now=now, user=user,
                           actor=character, cost=plan.cost,
                           summary={"to": [x, y], "xp": plan.xp, "steps": plan.steps, **extra})
    return ActionResult(action, character)


COSTS = {BRAWL: "brawl_cost_pa", MELEE: "melee_cost_pa", RANGED: "ranged_cost_pa",
         THROW: "throw_cost_pa"}


@transaction.atomic
def action_attack(*, user, character_id: int, target_id: int, kind: str = BRAWL,
                  rng: RandomSource | None = None, now: datetime | None = None,
                  check_owner: bool = True, rested_until: datetime | None = None
                  ) -> ActionResult:
    """Attack a character, creature, door or object on the board.

    ``kind``: brawl (Bagarre, 2 PA, adjacent), melee (equipped melee weapon, 2 PA, adjacent),
    ranged (equipped ranged weapon, 2 PA, within its range), throw (Lancé, 1 PA, within
    ``throw_range_cells``). Resolution in ``gamerules.ew1.attacks.resolve_attack`` with the
    equipped items, the malus of one's own other characters within 5 cells and the faction
    bonus; every roll is journaled. The target at 0 PV cannot act; below 0 it is disincarnated
    (off the board, a death for it, a kill for the attacker). ``check_owner=False`` is for the
    game's own pieces (creatures), which no user owns; ``rested_until``: the creature beat's
    "acted at most then" (CannotAct after).
    Raises InvalidTarget (self, unknown kind, other board, missing), ItemMissing (no weapon),
    TargetProtected (level 0 before its first action), FriendlyFire (an ally of the attacker's
    faction while the campaign's ``friendly_fire`` is off), NotAdjacent / OutOfRange, CannotAct,
    NotEnoughPA, Forbidden, NotFound.
    Source: 000_afeb9d2c9ccd2b72.txt, "Mécanismes de combat", "Récompenses de combat".
    """
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    if kind not in KINDS:
        raise errors.InvalidTarget("unknown_attack_brawl", kind=kind)
    if target_id == character_id:
        raise errors.InvalidTarget("character_cannot_attack")
    context = _attack_context(user=user, character_id=character_id, target_id=target_id,
                              now=now, check_owner=check_owner)
    sheet, target_sheet = context.actor, context.sheets[target_id]
    attacker, target = sheet.character, target_sheet.character
    require_rested(attacker, rested_until)
    params = context.params
    weapon, cells = _attack_checks(context, target, kind)
    require_not_ally(attacker, target, params)
    cost = getattr(params, COSTS[kind])
    spend_pa(sheet, cost, now)

    outcome, malus, attack_bonus, defence_bonus = _attack_resolve(
        context, target, kind, weapon=weapon, cells=cells, rng=rng)
    disincarnated = _attack_apply(context, target_id, outcome)
    rolls = [roll_row(label=r.label, roll=r.roll, target_score=r.target, grade=r.grade,
                      modifiers=r.modifiers,
                      actor=target if r.label in ("dodge", "damage_reduction") else attacker)
             for r in outcome.rolls]
    action = outcome_write(
        context=context, changed=[target_id], character_fields=ATTACK_CHARACTER_FIELDS,
        kind=kind, user=user, target=target, cost=cost, rolls=rolls,
        summary=_attack_summary(outcome, weapon=weapon, cells=cells, target_pv=target_sheet.pv,
                                disincarnated=disincarnated, malus=malus,
                                attack_bonus=attack_bonus, defence_bonus=defence_bonus))
    _tell_target(attacker, target, killed=disincarnated, user=user)
    return ActionResult(action, attacker, outcome)


def _tell_target(attacker: Character, target: Character, *, killed: bool, user) -> None:
    """The target's player is told they were attacked, or killed (notifications, once the
    action commits; no query here). The board hides no piece: the attacker is named."""
    if target.owner_id is None or target.owner_id == getattr(user, "pk", None):
        return
    notify(users=[target.owner_id], code="killed" if killed else "attacked",
           campaign_id=target.campaign_id, params={"actor": attacker.name, "character": target.name},
           link=reverse("combat:board", args=[target.pk]))


def _attack_apply(context: ActionContext, target_id: int, outcome: AttackOutcome) -> bool:
    """The outcome on the sheets and pieces in memory (``outcome_write`` saves them): each
    side's XP (players only: creatures gain none, docs/rules, "Creatures"), the target's PV
    lost, the attack and dodge counts, and below 0 PV the target disincarnated (a kill for the
    attacker). Returns whether it was."""
    sheet, target_sheet, params = context.actor, context.sheets[target_id], context.params
    attacker, target = sheet.character, target_sheet.character
    if attacker.is_player:
        grant_xp(sheet, outcome.attacker_xp, params)
    if target.is_player:
        grant_xp(target_sheet, outcome.defender_xp, params)
    target_sheet.pv -= outcome.pv_lost
    disincarnated = target_sheet.pv < 0
    attacker.attacks += 1
    target.dodges += outcome.dodged
    if disincarnated:
        disincarnate(target, killer=attacker)
    return disincarnated


def _attack_summary(outcome: AttackOutcome, *, weapon: Weapon | None, cells: int, target_pv: int,
                    disincarnated: bool, malus: int, attack_bonus: FactionBonus,
                    defence_bonus: FactionBonus | None) -> dict[str, Any]:
    """The attack's journal summary (templates/ew1/_log_entry.html reads it)."""
    return {"weapon": weapon.name if weapon else None, "distance": cells,
            "attack_score": outcome.attack_score, "attack_roll": outcome.attack_roll,
            "hit": outcome.hit, "perfect": outcome.perfect,
            "dodge_score": outcome.dodge_score, "dodged": outcome.dodged,
            "damage": outcome.damage, "reduction": outcome.reduction,
            # [source, value] pairs: jsonb keeps no key order, the page shows this one.
            "reduction_terms": [[t.source, t.value] for t in outcome.reduction_terms],
            "pv_lost": outcome.pv_lost, "target_pv": target_pv,
            "disincarnated": disincarnated, "attacker_xp": outcome.attacker_xp,
            "defender_xp": outcome.defender_xp,
            "own_characters_malus": malus, "faction_attack_bonus": attack_bonus.attack,
            "faction_dodge_bonus": defence_bonus.dodge if defence_bonus else 0}


# What an attack may change on the attacker (action times, kills, attacks) and on the target
# (off the board, deaths, dodges).
ATTACK_CHARACTER_FIELDS = ["first_action_at", "last_action_at", "kills", "attacks", "board", "x",
                           "y", "deaths", "dodges"]


def _attack_context(*, user: Any, character_id: int, target_id: int, now: datetime,
                    check_owner: bool) -> ActionContext:
    """The attacker's and the target's sheets locked (one statement), and every piece within
    ``max(view_radius, own_characters_reach)`` of either: three queries (ew1.context).
    Raises InvalidTarget when the target does not exist."""
    context = action_context(user=user, character_id=character_id, others=[target_id],
                             view_of=[target_id], now=now, check_owner=check_owner)
    if target_id not in context.sheets:
        raise errors.InvalidTarget("no_such_target")
    return context


def _attack_checks(context: ActionContext, target: Character, kind: str
                   ) -> tuple[Weapon | None, int]:
    """Refuse what the rules forbid, before any write; return the weapon and the distance."""
    attacker, params = context.character, context.params
    require_able(context.actor)
    if target.board_id is None or target.board_id != attacker.board_id:
        raise errors.InvalidTarget("target_not_board")
    loadout = context.loadouts[attacker.pk]
    weapon = {MELEE: loadout.melee, RANGED: loadout.ranged}.get(kind)
    if kind in (MELEE, RANGED) and weapon is None:
        raise errors.ItemMissing(kind=kind)
    cells = context.distance(attacker, target)
    reach = {BRAWL: 1, MELEE: 1, THROW: params.throw_range_cells}.get(
        kind, weapon.range_cells if weapon else 1)
    if kind in (BRAWL, MELEE) and cells != 1:
        raise errors.NotAdjacent()
    if cells > reach:
        raise errors.OutOfRange("target_cells_away", cells=cells, reach=reach)
    if target.ew1.is_protected:
        raise errors.TargetProtected()
    return weapon, cells


def _attack_resolve(context: ActionContext, target: Character, kind: str, *,
                    weapon: Weapon | None, cells: int, rng: RandomSource
                    ) -> tuple[AttackOutcome, int, FactionBonus, FactionBonus | None]:
    """The rules on the context: the malus of one's own characters in reach, the faction
    bonuses, then ``resolve_attack``. Returns the outcome, the malus and both bonuses."""
    attacker, params, pieces = context.character, context.params, context.pieces
    own = [context.distance(attacker, p) for p in pieces if attacker.owner_id is not None
           and p.owner_id == attacker.owner_id and p.pk != attacker.pk and p.is_player]
    malus = own_characters_malus(own, reach=params.own_characters_reach)
    attack_bonus = combat_bonus(attacker, pieces, params)
    defence_bonus = combat_bonus(target, pieces, params) if target.is_player else None
    attack_mods = tuple(m for m in (
        Modifier("own characters in view", -malus) if malus else None,
        Modifier(f"faction ({attack_bonus.allies} allies)", attack_bonus.attack)
        if attack_bonus.attack else None) if m)
    dodge_mods = (Modifier(f"faction ({defence_bonus.allies} allies)", defence_bonus.dodge),) if (
        defence_bonus and defence_bonus.dodge) else ()
    outcome = resolve_attack(
        kind, context.combatant(attacker.pk), context.combatant(target.pk), rng, params,
        weapon=weapon, distance=cells, attack_modifiers_extra=attack_mods,
        dodge_modifiers=dodge_mods, hit_xp=params.throw_xp if kind == THROW else None)
    return outcome, malus, attack_bonus, defence_bonus


def action_brawl(*, user, character_id: int, target_id: int, rng: RandomSource | None = None,
                 now: datetime | None = None) -> ActionResult:
    """A brawl (Bagarre) attack: ``action_attack`` with kind "brawl"."""
    return action_attack(user=user, character_id=character_id, target_id=target_id, kind=BRAWL,
                         rng=rng, now=now)


@transaction.atomic
def action_game(*, user, character_id: int, rng: RandomSource | None = None,
                now: datetime | None = None) -> ActionResult:
    """Play a game (Jeu): ``game_cost_pa`` (1 PA), d100 <= Jeu wins 2d4 XP, a loss gives none.
    Raises CannotAct, NotEnoughPA, Forbidden, NotFound. Source: 000_afeb9d2c9ccd2b72.txt,
    "Répartition des gains d'XP par action"."""
    now = now or timezone.now()
    sheet, _ = lock_sheets(user=user, character_id=character_id)
    character = sheet.character
    params = character.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    require_able(sheet)
    spend_pa(sheet, params.game_cost_pa, now)
    outcome = resolve_game(game_skill=sheet.skills["game"], rng=rng or random.SystemRandom())
    grant_xp(sheet, outcome.xp, params)
    character.save(update_fields=["first_action_at", "last_action_at"])
    sheet.save()
    rolls = [roll_row(label="game", roll=outcome.test, target_score=outcome.score,
                      grade=outcome.grade, actor=character)]
    if outcome.xp_roll:
        rolls.append(roll_row(label="game_xp", roll=outcome.xp_roll, actor=character))
    action = record_action(campaign=character.campaign, kind="game", now=now, user=user,
                           actor=character, cost=params.game_cost_pa, rolls=rolls,
                           summary={"won": outcome.won, "roll": outcome.test.total,
                                    "score": outcome.score, "xp": outcome.xp})
    return ActionResult(action, character, outcome)


@transaction.atomic
def character_suicide(*, user, character_id: int, reincarnate_asap: bool = False,
                      now: datetime | None = None) -> ActionResult:
    """Leave the board by one's own hand: a death is counted and reincarnation is blocked for
    ``suicide_cooldown_hours`` (6 h) from ``now``, stored as ``suicided_at`` (the end is derived
    from the campaign's current parameter: ew1.cooldowns). ``reincarnate_asap``: the
    cooldown beat brings the character back when the block ends (``combat.cooldowns``). Raises
    CannotAct (already off the board), Forbidden, NotFound. Source: 000_afeb9d2c9ccd2b72.txt,
    "Le suicide"."""
    now = now or timezone.now()
    sheet, _ = lock_sheets(user=user, character_id=character_id)
    character = sheet.character
    if not character.on_board:
        raise errors.CannotAct("character_not_board")
    character.board, character.x, character.y = None, None, None
    character.deaths += 1
    character.suicided_at = now
    character.last_action_at = now
    character.reincarnate_asap = bool(reincarnate_asap)
    character.cooldown_notice, character.cooldown_notice_at = "", None
    character.save(update_fields=["board", "x", "y", "deaths", "suicided_at", "last_action_at",
                                  "reincarnate_asap", "cooldown_notice", "cooldown_notice_at"])
    action = record_action(campaign=character.campaign, kind="suicide", now=now, user=user,
                           actor=character, summary={
                               "blocked_until": until.isoformat() if (
                                   until := character.ew1.reincarnation_blocked_until) else None,
                               **({"reincarnate_asap": True} if reincarnate_asap else {})})
    return ActionResult(action, character)


@transaction.atomic
def character_reincarnate(*, user, character_id: int, rng: RandomSource | None = None,
                          now: datetime | None = None) -> ActionResult:
    """Bring a disincarnated character back on a random free cell with
    ``reincarnation_pv_percent`` (100 %) of its max PV; PA are kept. Raises CannotAct (already
    on the board), ReincarnationBlocked (suicide cooldown, with the time left), BoardFull,
    Forbidden, NotFound. Source: 000_afeb9d2c9ccd2b72.txt, "Le suicide" and "Distribution des
    dégâts reçue"; the PV restored are our rule (docs/rules)."""
    now = now or timezone.now()
    sheet, _ = lock_sheets(user=user, character_id=character_id)
    character = sheet.character
    params = character.campaign.parameters
    if character.on_board:
        raise errors.CannotAct("character_already_board")
    blocked = reincarnation_available_at(character, params)
    if blocked and blocked > now:
        left = blocked - now
        raise errors.ReincarnationBlocked(hours=int(left.total_seconds() // 3600),
                                          minutes=int(left.total_seconds() % 3600 // 60),
                                          until=blocked)
    board = character.campaign.board
    character_place(character=character, board=board, rng=rng or random.SystemRandom())
    restore_on_reincarnation(sheet, params=params, now=now)
    character.suicided_at = None
    character.last_action_at = now
    character.reincarnate_asap = False
    character.cooldown_notice, character.cooldown_notice_at = "", None
    character.save(update_fields=["suicided_at", "last_action_at", "reincarnate_asap",
                                  "cooldown_notice", "cooldown_notice_at"])
    sheet.save()
    action = record_action(campaign=character.campaign, kind="reincarnate", now=now, user=user,
                           actor=character, summary={"at": [character.x, character.y],
                                                     "pv": sheet.pv})
    return ActionResult(action, character)


def restore_on_reincarnation(sheet: EternalWarSheet, *, params, now: datetime) -> None:
    """A reincarnating character's sheet, in memory (the caller saves it): PA and PV brought up
    to ``now``, then PV raised to ``reincarnation_pv_percent`` of max PV and its regeneration
    restarted. Shared by ``character_reincarnate`` and the cooldown beat."""
    sheet_refresh(sheet, params=params, now=now)
    sheet.pv = max(sheet.pv, math.ceil(sheet.pv_max * params.reincarnation_pv_percent / 100))
    sheet.pv_anchor = unix(now)
