"""The regeneration tick racing attacks and moves, on PostgreSQL (issue 9, item 10): no deadlock,
and every sheet's PA and PV exact afterwards.

An action locks its sheets in character id order (ew1.actors.lock_sheet_set); the tick's
UPDATE used to lock its rows in table-scan order, so a tick holding B and waiting for A while
an attack held A and waited for B was a deadlock. The tick now takes its rows FOR UPDATE SKIP
LOCKED: it skips a row an action holds (the action refreshes that sheet itself) and never
waits. Every caller uses the same ``now``, so whatever the order, a sheet ends with
``min(cap, start + periods owed) - what its actions spent or lost``.

Layouts: "two" is A acting on B while B acts on A; "three" is A on B while B acts on C. D and
E stand away and take no action: only the tick may update them.
"""

from __future__ import annotations

import itertools
import os
import random
from datetime import datetime, UTC
from decimal import Decimal

import pytest
from django.db.models import Case, Max, When

from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_attack, action_move
from ew1.models import EternalWarSheet, ItemInstance, ItemTemplate
from ew1.regeneration import regenerate_all, sheet_refresh
from gamerules.errors import RuleError
from tests import factories
from tests.concurrency import Racers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
T = int(NOW.timestamp())
H = 3600
ROUNDS = int(os.environ.get("PERCENTILE_RACE_ROUNDS", "2"))  # per pair and layout
# Owed 5 PA (2 h periods) and 3 PV (6 h) at NOW, far below the caps.
START = {"pa": Decimal("100"), "pa_max": Decimal("900"), "pa_anchor": T - 5 * 2 * H - 17,
         "pv": 500, "pv_max": 900, "pv_anchor": T - 3 * 6 * H - 29}
OWED_PA, OWED_PV = 5, 3
CELLS = {"A": (5, 5), "B": (6, 5), "C": (5, 6), "D": (10, 10), "E": (0, 11)}
AWAY = {"A": (-1, 0), "B": (1, 0), "C": (0, 1)}
ACTIONS = ["move", "brawl", "melee"]
LAYOUTS = {"two": (("A", "B"), ("B", "A")), "three": (("A", "B"), ("B", "C"))}
SKILLS = {"brawl": 60, "melee": 60, "dodge": 20}


class Arena:
    def __init__(self):
        self.campaign = factories.campaign(width=12, height=12)
        self.chars = {name: factories.character(
            owner=factories.user(f"ticker{name.lower()}"), campaign=self.campaign, name=name,
            now=NOW, seed=i, at=CELLS[name], skills=SKILLS, **START)
            for i, name in enumerate("ABCDE")}
        sword = ItemTemplate.objects.create(name="Sword", kind="melee", damage_dice="1d8")
        ItemInstance.objects.bulk_create([ItemInstance(owner=self.chars[n], template=sword,
                                                       equipped=True) for n in "ABC"])
        self.round = 0

    def reset(self):
        self.round += 1
        pks = [c.pk for c in self.chars.values()]
        Character.objects.filter(pk__in=pks).update(
            board=self.campaign.board,
            x=Case(*[When(pk=c.pk, then=CELLS[n][0]) for n, c in self.chars.items()]),
            y=Case(*[When(pk=c.pk, then=CELLS[n][1]) for n, c in self.chars.items()]))
        # Row by row in reverse id order: the new row versions lie on the page in that order,
        # so a table scan meets them against the actions' id order (the old tick deadlocked).
        for pk in sorted(pks, reverse=True):
            EternalWarSheet.objects.filter(pk=pk).update(**START)
        self.mark = ActionRecord.objects.aggregate(last=Max("pk"))["last"] or 0

    def call(self, action: str, actor: str, target: str):
        me, it = self.chars[actor], self.chars[target]
        user, rng = me.owner, random.Random(self.round * 7 + ord(actor))
        if action == "move":
            dx, dy = AWAY[actor]
            return lambda: action_move(user=user, character_id=me.pk, dx=dx, dy=dy, now=NOW)
        return lambda: action_attack(user=user, character_id=me.pk, target_id=it.pk,
                                     kind=action, rng=rng, now=NOW)

    def wrong_values(self) -> list[str]:
        """Sheets whose PA or PV differ from start + owed - what the round's journal says they
        spent or lost, or whose stored values a read would still change."""
        records = ActionRecord.objects.filter(pk__gt=self.mark)
        spent = {c.pk: Decimal(0) for c in self.chars.values()}
        lost = {c.pk: 0 for c in self.chars.values()}
        for r in records:
            spent[r.actor_id] += r.cost
            if r.target_id is not None:
                lost[r.target_id] += r.summary.get("pv_lost", 0)
        params = self.campaign.parameters
        wrong = []
        for name, c in self.chars.items():
            stored = EternalWarSheet.objects.get(pk=c.pk)
            read = EternalWarSheet.objects.get(pk=c.pk)
            sheet_refresh(read, params=params, now=NOW)
            pa = START["pa"] + OWED_PA - spent[c.pk]
            pv = START["pv"] + OWED_PV - lost[c.pk]
            if (read.pa, read.pv) != (pa, pv):
                wrong.append(f"{name}: read {read.pa} PA {read.pv} PV, expected {pa} PA {pv} PV")
            if (stored.pa, stored.pa_anchor, stored.pv, stored.pv_anchor) != (
                    read.pa, read.pa_anchor, read.pv, read.pv_anchor) and name in "DE":
                wrong.append(f"{name}: no action held it, yet the tick left it behind")
        return wrong


def test_ticks_racing_attacks_and_moves_never_deadlock_and_leave_exact_values():
    arena = Arena()
    problems, ticked = [], 0
    with Racers(3) as racers:
        pairs = itertools.combinations_with_replacement(ACTIONS, 2)
        for (first, second), layout, _ in itertools.product(pairs, LAYOUTS, range(ROUNDS)):
            arena.reset()
            (a, a_to), (b, b_to) = LAYOUTS[layout]
            results = racers.run(arena.call(first, a, a_to), arena.call(second, b, b_to),
                                 lambda: regenerate_all(now=NOW))
            label = f"{first} by {a} on {a_to} / {second} by {b} on {b_to} / tick"
            problems += [f"{label}: {r!r}" for r in results
                         if isinstance(r, Exception) and not isinstance(r, RuleError)]
            problems += [f"{label}: {w}" for w in arena.wrong_values()]
            ticked += results[2] if isinstance(results[2], int) else 0
            # A tick alone afterwards catches up what the race skipped: stored = read.
            regenerate_all(now=NOW)
            params = arena.campaign.parameters
            for name, c in arena.chars.items():
                stored = EternalWarSheet.objects.get(pk=c.pk)
                read = EternalWarSheet.objects.get(pk=c.pk)
                sheet_refresh(read, params=params, now=NOW)
                if (stored.pa, stored.pv) != (read.pa, read.pv):
                    problems.append(f"{label}: {name} still behind after a lone tick")
    assert not problems, "\n".join(problems)
    assert ticked >= 2 * len(LAYOUTS) * ROUNDS * 6  # D and E at least, every round
