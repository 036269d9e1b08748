"""Creatures' periodic behaviour: each creature on the board with PV > 0 brawls one adjacent
player character that can be attacked (the one with the fewest PV), when it has the PA.

Our rule where the seed is silent (docs/rules/eternal-war-one-ii.md, "Other targets").
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from characters.models import Character
from combat.services import action_attack, distance
from gamerules.dice import RandomSource
from gamerules.errors import RuleError

logger = logging.getLogger(__name__)
# A creature acts at most once per interval, so a task delivered twice does not double its attacks.
INTERVAL = timedelta(minutes=10)


def creatures_act(*, rng: RandomSource | None = None, now: datetime | None = None) -> int:
    """Let every creature act once. Two queries to choose the targets, then one transaction per
    attack (a refused attack, e.g. no PA left, is skipped). Returns the number of attacks."""
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    rested = Q(last_action_at__isnull=True) | Q(last_action_at__lte=now - INTERVAL)
    creatures = list(Character.objects.filter(rested, kind=Character.Kind.CREATURE,
                                              board__isnull=False, ew1__pv__gt=0)
                     .select_related("ew1"))
    if not creatures:
        return 0
    prey = list(Character.objects.filter(kind=Character.Kind.PLAYER,
                                         board_id__in={c.board_id for c in creatures},
                                         ew1__pv__gte=0).select_related("ew1"))
    attacks = 0
    for creature in creatures:
        near = [p for p in prey if p.board_id == creature.board_id and distance(creature, p) == 1
                and not p.is_protected]
        if not near:
            continue
        target = min(near, key=lambda p: (p.ew1.pv, p.pk))
        try:
            action_attack(user=None, character_id=creature.pk, target_id=target.pk, kind="brawl",
                          rng=rng, now=now, check_owner=False)
        except RuleError as exc:
            logger.info("Creature %s did not attack: %s", creature.pk, exc.message)
            continue
        attacks += 1
    return attacks
