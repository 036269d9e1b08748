"""Every pair of board actions racing between two and three characters, on PostgreSQL: no
deadlock, no unexpected error (a 500), no lost PA.

Each action locks every sheet it may change in one id-ordered statement before changing
anything (ew1.actors.lock_sheets), so whatever two actions run at once, one waits for the
other and neither is a deadlock victim. The three characters stand on mutually adjacent cells
and every zone spell reaches all of them, so zones lock the most sheets they can.

Layouts: "two" is A acting on B while B acts on A; "three" is A acting on B while B acts on C.
Each test takes one action for A and races it against every action for B (the pairs are
unordered: a pair's mirror image is the same race with the names swapped), a few rounds each.
"""

from __future__ import annotations

import itertools
import os
import random
from datetime import datetime, UTC
from decimal import Decimal

import pytest
from django.db.models import Case, Max, Sum, When

from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_attack, action_move
from ew1.equipment import item_use
from ew1.models import EternalWarSheet, ItemInstance, ItemTemplate
from factions import services as factions
from factions.models import Faction, JoinRequest, Membership
from gamerules.errors import RuleError
from magic.casting import spell_cast
from magic.models import ActiveEffect, KnownSpell, Spell
from tests import factories
from tests.concurrency import Racers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
ROUNDS = int(os.environ.get("PERCENTILE_RACE_ROUNDS", "2"))  # per pair and layout
START = {"pa": Decimal("900"), "pa_max": Decimal("900"), "pv": 900, "pv_max": 900}
CELLS = {"A": (5, 5), "B": (6, 5), "C": (5, 6)}
AWAY = {"A": (-1, 0), "B": (1, 0), "C": (0, 1)}  # a move onto a free cell
SPELLS = [  # name, effect, zone radius
    ("Bolt", "damage", 0), ("Mend", "heal", 0), ("Ward", "shield", 0),
    ("Blast", "damage", 2), ("Balm", "heal", 2), ("Wall", "shield", 2)]
SKILLS = {"brawl": 60, "melee": 60, "ranged": 60, "magic": 60, "dodge": 20, "throw": 60,
          "game": 30}


class Arena:
    """Three characters, their weapons, spells and potions, a public faction led by a fourth."""

    def __init__(self):
        campaign = factories.campaign(width=12, height=12)
        self.chars = {}
        for i, name in enumerate("ABCD"):
            user = factories.user(f"racer{name.lower()}")
            self.chars[name] = factories.character(
                owner=user, campaign=campaign, name=name, now=NOW, seed=i,
                at=CELLS.get(name, (10, 10)), skills=SKILLS, **START)
        self.users = {n: c.owner for n, c in self.chars.items()}
        sword = ItemTemplate.objects.create(name="Sword", kind="melee", damage_dice="1d8")
        bow = ItemTemplate.objects.create(name="Bow", kind="ranged", damage_dice="1d6",
                                          range_cells=5)
        self.potion = ItemTemplate.objects.create(name="Potion", kind="misc", heal_dice="1d6")
        self.spells = {name: Spell.objects.create(name=name, effect=effect, dice="1d4",
                                                  range_cells=5, zone_radius=radius,
                                                  reach="everyone", duration_hours=24)
                       for name, effect, radius in SPELLS}
        for name in "ABC":
            c = self.chars[name]
            ItemInstance.objects.bulk_create([ItemInstance(owner=c, template=t, equipped=True)
                                              for t in (sword, bow)])
            KnownSpell.objects.bulk_create([KnownSpell(character=c, spell=s, learned_at=NOW,
                                                       source="granted")
                                            for s in self.spells.values()])
        self.open = Faction.objects.create(campaign=campaign, name="Open", is_public=True,
                                           leader=self.chars["D"])
        Membership.objects.create(faction=self.open, character=self.chars["D"])
        self.round = 0

    def reset(self, *actions: str):
        """Undo what ``actions`` may have changed: everyone back on their cell with their PA
        and PV; no shield, no faction but Open (led by D) and one potion each when needed."""
        self.round += 1
        abc = [self.chars[n].pk for n in "ABC"]
        Character.objects.filter(pk__in=abc).update(
            board=self.open.campaign.board,
            x=Case(*[When(pk=self.chars[n].pk, then=CELLS[n][0]) for n in "ABC"]),
            y=Case(*[When(pk=self.chars[n].pk, then=CELLS[n][1]) for n in "ABC"]))
        EternalWarSheet.objects.filter(pk__in=abc).update(**START, pa_anchor=0, pv_anchor=0)
        if any(a in self.spells for a in actions):
            ActiveEffect.objects.all().delete()
        if any(a.startswith("faction") for a in actions):
            JoinRequest.objects.all().delete()
            Membership.objects.filter(character_id__in=abc).delete()
            Faction.objects.exclude(pk=self.open.pk).delete()
        if "item_use" in actions:
            ItemInstance.objects.filter(owner_id__in=abc, template=self.potion).delete()
            ItemInstance.objects.bulk_create([ItemInstance(owner_id=pk, template=self.potion)
                                              for pk in abc])
        self.journal_mark = ActionRecord.objects.aggregate(last=Max("pk"))["last"] or 0

    def prepare(self, action: str, actor: str) -> None:
        """What ``action`` needs before the race (faction operations only)."""
        c = self.chars[actor]
        if action == "faction_invite":  # the actor leads a faction of its own
            f = Faction.objects.create(campaign=c.campaign, name=f"Own {actor}", leader=c)
            Membership.objects.create(faction=f, character=c)
        elif action == "faction_leave":
            Membership.objects.create(faction=self.open, character=c)

    def call(self, action: str, actor: str, target: str):  # noqa: PLR0911  a dispatch on the action
        """The call of ``action`` by ``actor`` on ``target``, run later in a thread."""
        me, it = self.chars[actor], self.chars[target]
        user, rng = self.users[actor], random.Random(self.round * 7 + ord(actor))
        if action == "move":
            dx, dy = AWAY[actor]
            return lambda: action_move(user=user, character_id=me.pk, dx=dx, dy=dy, now=NOW)
        if action in ("brawl", "melee", "ranged", "throw"):
            return lambda: action_attack(user=user, character_id=me.pk, target_id=it.pk,
                                         kind=action, rng=rng, now=NOW)
        if action in self.spells:
            spell = self.spells[action]
            x, y = CELLS[target]
            return lambda: spell_cast(user=user, character_id=me.pk, spell_id=spell.pk, x=x,
                                      y=y, rng=rng, now=NOW)
        if action == "item_use":
            item = ItemInstance.objects.filter(owner=me, template=self.potion).first()
            return lambda: item_use(user=user, character_id=me.pk, item_id=item.pk, rng=rng,
                                    now=NOW)
        if action == "faction_create":
            return lambda: factions.faction_create(user=user, character_id=me.pk,
                                                   name=f"New {actor} {self.round}")
        if action == "faction_join":
            return lambda: factions.faction_join(user=user, character_id=me.pk,
                                                 faction_id=self.open.pk)
        if action == "faction_invite":
            faction = Faction.objects.get(leader=me)
            return lambda: factions.faction_invite(user=user, faction_id=faction.pk,
                                                   character_id=it.pk)
        if action == "faction_leave":
            return lambda: factions.faction_leave(user=user, character_id=me.pk)
        raise AssertionError(action)

    def pa_lost(self) -> list[str]:
        """Characters whose PA differ from what their actions of the round journaled."""
        spent = dict(ActionRecord.objects.filter(pk__gt=self.journal_mark).values("actor_id")
                     .annotate(pa=Sum("cost")).values_list("actor_id", "pa"))
        pa = dict(EternalWarSheet.objects.filter(pk__in=[self.chars[n].pk for n in "ABC"])
                  .values_list("pk", "pa"))
        return [f"{n}: {pa[c.pk]} PA after spending {spent.get(c.pk) or 0}"
                for n, c in self.chars.items() if n != "D"
                and pa[c.pk] != START["pa"] - (spent.get(c.pk) or 0)]


ACTIONS = ["move", "brawl", "melee", "ranged", "throw", *[s[0] for s in SPELLS], "item_use",
           "faction_create", "faction_join", "faction_invite", "faction_leave"]
LAYOUTS = {"two": (("A", "B"), ("B", "A")), "three": (("A", "B"), ("B", "C"))}


def race(racers: Racers, arena: Arena, first: str, second: str, layout: str) -> list[str]:
    """One round: ``first`` by A and ``second`` by B at once. Returns what went wrong."""
    arena.reset(first, second)
    (a, a_target), (b, b_target) = LAYOUTS[layout]
    arena.prepare(first, a)
    arena.prepare(second, b)
    results = racers.run(arena.call(first, a, a_target), arena.call(second, b, b_target))
    label = f"{first} by {a} on {a_target} / {second} by {b} on {b_target}"
    problems = [f"{label}: {r!r}" for r in results
                if isinstance(r, Exception) and not isinstance(r, RuleError)]
    problems += [f"{label}: {p}" for p in arena.pa_lost()]
    return problems


@pytest.mark.parametrize("first", ACTIONS)
def test_no_pair_of_actions_deadlocks_or_fails(first):
    arena = Arena()
    seconds = ACTIONS[ACTIONS.index(first):]
    problems = []
    with Racers(2) as racers:
        for second, layout, _ in itertools.product(seconds, LAYOUTS, range(ROUNDS)):
            problems += race(racers, arena, first, second, layout)
    assert not problems, "\n".join(problems)
