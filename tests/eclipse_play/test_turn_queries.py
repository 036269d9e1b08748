"""The encounter's turn steps in an Eclipse Phase encounter, pinned at 3 and at 20 combatants
(issue 20, item 2: <= 8): the next turn, the GM's end of the action turn, and the next turn
that opens a round of a rolled order (Eclipse Phase rolls it again each round). Counted as the
attacks are, the savepoint of the test's transaction and its release included."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import ActionRecord
from eclipse.turn_end import KIND_TURN_END, encounter_turn_end
from encounters import services as enc
from tests.eclipse_play.conftest import running
from tests.eclipse_play.test_attack_queries import _crowd

pytestmark = pytest.mark.django_db

TARGET = 8  # issue 20's, for each turn step
# savepoint, the encounter locked with its combatants (and their sheets and sleeves: one
# statement, encounters.access.lock_with_combatants), its effects, the encounter's UPDATE,
# release (6 before)
NEXT_TURN = 5
# savepoint, the encounter locked with its combatants, "already done this round?", the sheets
# locked, then read with their sleeves (no weapon, no armour: 11 before issue 20, then 9), the
# encounter's version, the journal's entry (no roll: no second INSERT), release
TURN_END = 8
# The next turn opening round 2 of a rolled order: the next turn's 5 (the sheets with their
# sleeves joined to the combatants: encounters.hooks.sheet_joins; the characters' campaign the
# encounter's), the ranks and the scores in one bulk UPDATE, the journal's two INSERTs
# (16 and 17 before issue 20, then 12 and 13)
NEW_ROUND = {3: 8, 20: 8}


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.mark.parametrize("size", [3, 20])
def test_the_next_turn_and_the_turn_end_run_fixed_queries(ep, size, django_assert_num_queries):
    e, _c = running(ep)
    _crowd(ep, e, size)
    e.refresh_from_db()
    with django_assert_num_queries(NEXT_TURN):
        enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial)
    with django_assert_num_queries(TURN_END):
        encounter_turn_end(user=ep.gm, encounter_id=e.pk)
    assert ActionRecord.objects.filter(kind=KIND_TURN_END).count() == 1
    assert max(NEXT_TURN, TURN_END, *NEW_ROUND.values()) <= TARGET


@pytest.mark.parametrize("size", [3, 20])
def test_a_new_round_of_a_rolled_order_runs_fixed_queries(ep, size):
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.ava, ep.bo, ep.guard)])
    _crowd(ep, e, size)
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="rolled", rng=random.Random(1))
    for i in range(size - 1):
        e.refresh_from_db()
        enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial,
                                rng=random.Random(i))
    e.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial,
                                rng=random.Random(9))
    e.refresh_from_db()
    assert e.round == 2
    assert len(queries) == NEW_ROUND[size], [q["sql"][:80] for q in queries.captured_queries]
    rolled = ActionRecord.objects.filter(kind="encounter_initiative").first()
    assert rolled is not None and rolled.rolls.count() == size
