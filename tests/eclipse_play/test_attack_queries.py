"""The Eclipse Phase attack's queries pinned at 1 and at 20 combatants (issue 20, item 2): the
attack loads and locks once (eclipse.context) and writes once, whatever the number of
combatants in the encounter or of targets of the volley.

Per request, the savepoints of the test's transaction counted: the attack (a single shot and a
three-target full-auto burst) and each answer to its prompts. The encounter's own steps are counted in
(lock, combatants, the prompts' INSERTs, the journal's two INSERTs, the encounter's UPDATE);
eclipse.context adds at most the lock, the sheets (gravity and effect flags read there), the
weapons, the armour, the attacker's effects, and one statement per kind of row written."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import ActionRecord
from characters.models import Character
from eclipse.attack import encounter_attack
from encounters import services as enc
from tests.eclipse_play.conftest import carry, running, sheet

pytestmark = pytest.mark.django_db

# Issue 20's target: <= 12 queries per request, attack and answers.
TARGET = 12
# The single shot: the attack, the answer that resolves it (these dice; test_play.py's shot,
# whose dice write one more row, answers in 12). The attack reads the attacker's effects (aim,
# run, full defence...) as flags in the sheets' statement: 12 before; the encounter locks with
# its combatants in one statement (encounters.access.lock_with_combatants): 11 before. The
# answer locks reading the prompt's group, its actor and targets in one statement
# (encounters.reactions): 13 before.
SHOT_ATTACK, SHOT_ANSWER = 10, 11
# The three-target full-auto burst: the attack (the two prompts joining the first in one
# INSERT: encounters.reactions.request_reactions; 15 before), an answer that waits for the
# others (7 before), the last answer that resolves the volley (14 before).
VOLLEY_ATTACK, VOLLEY_WAITING, VOLLEY_ANSWER = 11, 5, 12


def _crowd(ep, e, size: int) -> list:
    """Drones added until the encounter has ``size`` combatants (three already)."""
    pod = ep.sheets[ep.guard.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(size - 3)]
    for m in more:
        sheet(m, pod)
    if more:
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    return more


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.mark.parametrize("size", [3, 20])
def test_a_single_shot_and_its_defence(ep, size, django_assert_num_queries):
    e, c = running(ep)
    _crowd(ep, e, size)
    with django_assert_num_queries(SHOT_ATTACK):
        step = encounter_attack(user=ep.alice, encounter_id=e.pk,
                                combatant_id=c[ep.ava.pk].pk, target_id=c[ep.guard.pk].pk,
                                weapon_id=ep.w.ava_pistol.pk, mode="SS",
                                range_band="short", rng=random.Random(1), now=ep.now)
    with django_assert_num_queries(SHOT_ANSWER):
        enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                            rng=random.Random(2), now=ep.now)
    assert ActionRecord.objects.filter(kind="eclipse_attack").count() == 1


@pytest.mark.parametrize("size", [3, 20])
def test_a_three_target_burst_and_their_defences(ep, size, django_assert_num_queries):
    """Ava's full-auto burst at the Guard, Bo and a drone (within 1 m, as the table declares),
    each defending with its own answer; the volley is resolved at the last answer, one
    entry."""
    rifle = carry(ep.sheets[ep.ava.pk], ep.rifle)
    e, _c = running(ep)
    drone = _crowd(ep, e, max(size, 4))[0]
    e.refresh_from_db()
    ids = {cb.character_id: cb.pk for cb in e.combatants.all()}
    with django_assert_num_queries(VOLLEY_ATTACK):
        step = encounter_attack(
            user=ep.alice, encounter_id=e.pk, combatant_id=ids[ep.ava.pk],
            target_id=ids[ep.guard.pk], other_target_ids=[ids[ep.bo.pk], ids[drone.pk]],
            weapon_id=rifle.pk, mode="FA", range_band="short",
            rng=random.Random(3), now=ep.now)
    joined = list(step.reaction.joined.order_by("pk"))
    assert len(joined) == 2
    with django_assert_num_queries(VOLLEY_WAITING):
        enc.answer_reaction(user=ep.bob, reaction_id=joined[0].pk, choice="dodge",
                            rng=random.Random(4), now=ep.now)
    enc.answer_reaction(user=ep.gm, reaction_id=joined[1].pk, choice="dodge",
                        rng=random.Random(5), now=ep.now)
    with CaptureQueriesContext(connection) as last:
        enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                            rng=random.Random(6), now=ep.now)
    assert len(last) == VOLLEY_ANSWER, [q["sql"][:90] for q in last.captured_queries]
    assert max(SHOT_ATTACK, SHOT_ANSWER, VOLLEY_ATTACK, VOLLEY_ANSWER) <= TARGET
    entry = ActionRecord.objects.get(kind="eclipse_attack")
    assert [o["target"] for o in entry.summary["result"]["others"]] == ["Bo", drone.name]
