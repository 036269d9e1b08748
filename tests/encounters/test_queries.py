"""One encounter step costs the same number of queries with 3 and with 30 combatants."""

from __future__ import annotations

import pytest

from encounters import services
from tests.encounters.conftest import NOW, Table

pytestmark = pytest.mark.django_db
SIZES = [0, 27]  # extra goblins: 3 and 30 combatants


@pytest.mark.parametrize("extra", SIZES)
def test_next_turn(db, extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    services.effect_add(user=t.gm, encounter_id=e.pk, name="Bless", anchor_id=t.c["Orc"].pk,
                        edge="end", rounds=3)
    e = t.reload()
    # savepoint, lock the encounter with its combatants (one statement: issue 20), active
    # effects, update, release
    with django_assert_num_queries(5):
        services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW)


@pytest.mark.parametrize("extra", SIZES)
def test_next_turn_that_expires_an_effect(db, extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    services.effect_add(user=t.gm, encounter_id=e.pk, name="Bless", anchor_id=t.c["Hero"].pk,
                        edge="end", rounds=1)
    e = t.reload()
    for _ in range(len(t.c)):  # to Hero's turn of round 2
        t.next()
    e = t.reload()
    with django_assert_num_queries(6):  # + the effect's UPDATE
        services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW)
    assert e.effects.get().expired_round == 2


@pytest.mark.parametrize("extra", SIZES)
def test_delay(db, extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    with django_assert_num_queries(6):  # + the ranks' one bulk UPDATE
        services.encounter_delay(user=t.alice, encounter_id=e.pk,
                                 combatant_id=t.c["Hero"].pk, after_id=t.c["Orc"].pk,
                                 turn=e.turn_serial, now=NOW)


@pytest.mark.parametrize("extra", SIZES)
def test_an_action_asking_for_a_reaction_then_its_answer(db, extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()

    def act(ctx):
        return ctx.request_reaction(target=t.c["Orc"], action_payload={"damage": 3},
                                    options=["parry"], resolver="enc_test.strike")

    # savepoint, lock with the combatants, the reaction's INSERT, the encounter's UPDATE,
    # release
    with django_assert_num_queries(5):
        reaction = services.encounter_act(user=t.alice, encounter_id=e.pk,
                                          combatant_id=t.c["Hero"].pk, act=act, now=NOW)
    # savepoint, the lock (its encounter found in the same statement) reading the reaction
    # with its requester, actor and target, the journal's INSERT, the reaction's and the
    # encounter's UPDATEs, release (10 before issue 20)
    with django_assert_num_queries(6):
        services.answer_reaction(user=t.gm, reaction_id=reaction.pk, choice="none", now=NOW)
