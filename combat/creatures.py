"""Creatures' periodic behaviour: each creature on the board with PV > 0 attacks (brawl) an
adjacent attackable player character, or steps toward the nearest one it sees, under the same PA
rules as players (the same ``action_attack`` and ``action_move`` services).

The decision is ``gamerules.ew1.creatures.creature_turn``; our rule where the seed is silent
(docs/rules/eternal-war-one-ii.md, "Creatures").
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from characters.models import Character
from combat.services import action_attack, action_move
from gamerules.dice import RandomSource
from gamerules.errors import RuleError
from gamerules.ew1.creatures import ATTACK, MOVE, Prey, creature_turn

logger = logging.getLogger(__name__)
# A creature acts at most once per interval, so a task delivered twice does not double its turns.
INTERVAL = timedelta(minutes=10)


def creatures_act(*, rng: RandomSource | None = None, now: datetime | None = None) -> int:
    """Let every rested creature take one turn: attack an adjacent prey or move one cell toward
    the nearest prey in view. Two queries to decide (the creatures; every piece on their
    boards), then one transaction per action; a refused action (no PA left, a cell taken
    meanwhile, a turn another run of the beat took since the read: checked under the action's
    lock) is skipped. Returns the number of actions taken."""
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    rested_until = now - INTERVAL
    rested = Q(last_action_at__isnull=True) | Q(last_action_at__lte=rested_until)
    creatures = list(Character.objects.filter(rested, kind=Character.Kind.CREATURE,
                                              board__isnull=False, ew1__pv__gt=0)
                     .select_related("ew1", "board", "campaign").order_by("id"))
    if not creatures:
        return 0
    pieces = list(Character.objects.filter(board_id__in={c.board_id for c in creatures})
                  .select_related("ew1"))
    occupied: dict[int | None, set[tuple[int, int]]] = {p.board_id: set() for p in pieces}
    for p in pieces:
        occupied[p.board_id].add(p.cell)
    prey = [p for p in pieces if p.is_player and p.ew1.pv >= 0 and not p.ew1.is_protected]
    actions = 0
    for creature in creatures:
        turn = creature_turn(
            at=creature.cell,
            prey=[Prey(p.pk, p.cell[0], p.cell[1], p.ew1.pv) for p in prey
                  if p.board_id == creature.board_id],
            occupied=occupied[creature.board_id], width=creature.board.width,
            height=creature.board.height, view_radius=creature.campaign.parameters.view_radius)
        try:
            if turn.action == ATTACK and turn.target_id is not None:
                action_attack(user=None, character_id=creature.pk, target_id=turn.target_id,
                              kind="brawl", rng=rng, now=now, check_owner=False,
                              rested_until=rested_until)
            elif turn.action == MOVE:
                action_move(user=None, character_id=creature.pk, dx=turn.dx, dy=turn.dy,
                            now=now, check_owner=False, rested_until=rested_until)
                x, y = creature.cell
                occupied[creature.board_id].discard((x, y))
                occupied[creature.board_id].add((x + turn.dx, y + turn.dy))
            else:
                continue
        except RuleError as exc:
            logger.info("Creature %s did not %s: %s", creature.pk, turn.action, exc.message)
            continue
        actions += 1
    return actions
