"""Item 7 on PostgreSQL: each step locks the encounter row; two GMs pressing "next turn" at once
advance one turn, a player acting twice at once acts once, and an answer racing the timeout
(or a second answer) finds the reaction no longer pending. No deadlock, nothing half done."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord
from encounters import services
from encounters.models import Encounter, PendingReaction
from gamerules.errors import RuleError
from tests.concurrency import Racers, run_together
from tests.encounters.conftest import Table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ROUNDS = 5


def codes(results):
    return sorted(r.code if isinstance(r, RuleError) else "ok" for r in results)


def test_two_gms_pressing_next_turn_advance_one_turn():
    t = Table()
    t.campaign.game_master = t.gm
    e = t.start()
    from tests import factories
    staff = factories.user("gm2", is_staff=True)
    with Racers(2) as racers:
        for _ in range(ROUNDS):
            before = Encounter.objects.get(pk=e.pk)
            seen = before.turn_serial
            results = racers.run(
                lambda seen=seen: services.encounter_next_turn(user=t.gm, encounter_id=e.pk,
                                                               turn=seen),
                lambda seen=seen: services.encounter_next_turn(user=staff, encounter_id=e.pk,
                                                               turn=seen))
            assert codes(results) == ["ok", "turn_already_advanced"]
            after = Encounter.objects.get(pk=e.pk)
            assert after.turn_serial == before.turn_serial + 1
            assert after.version == before.version + 1


def test_a_player_acting_twice_at_once_acts_once():
    t = Table()
    e = t.start()
    hero = t.c["Hero"].pk

    def act():
        return services.encounter_act(
            user=t.alice, encounter_id=e.pk, combatant_id=hero,
            act=lambda ctx: ActionRecord.objects.create(
                campaign=t.campaign, kind="enc_test_act", actor=t.hero,
                created_at=timezone.now()))

    with Racers(2) as racers:
        for _ in range(ROUNDS):
            before = Encounter.objects.get(pk=e.pk)
            assert before.current_id == hero and before.turn_actions == 0
            assert codes(racers.run(act, act)) == ["action_already_taken", "ok"]
            assert Encounter.objects.get(pk=e.pk).turn_actions == 1
            for _ in range(3):  # round the table back to Hero
                t.next()
    assert ActionRecord.objects.filter(kind="enc_test_act").count() == ROUNDS


def _strike(t, e):
    return services.encounter_act(
        user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
        act=lambda ctx: ctx.request_reaction(target=t.c["Brenna"], action_payload={"damage": 3},
                                             options=["parry"], resolver="enc_test.strike"))


def test_answering_a_reaction_that_was_defaulted_is_refused():
    t = Table()
    e = t.start()
    for _ in range(ROUNDS):
        reaction = _strike(t, e)
        late = reaction.deadline + timedelta(seconds=1)
        results = run_together(
            lambda late=late: services.reactions_default_due(now=late),
            lambda late=late, pk=reaction.pk: services.answer_reaction(
                user=t.bob, reaction_id=pk, choice="parry", now=late))
        assert results[0] == 1 and isinstance(results[1], RuleError)
        assert results[1].code in ("reaction_expired", "reaction_not_pending")
        reaction.refresh_from_db()
        assert (reaction.status, reaction.choice) == ("defaulted", "none")
        refused = run_together(lambda r=reaction: services.answer_reaction(
            user=t.bob, reaction_id=r.pk, choice="parry", now=r.requested_at))
        assert refused[0].code == "reaction_not_pending"
        Encounter.objects.filter(pk=e.pk).update(turn_actions=0)
    assert ActionRecord.objects.filter(kind="enc_test_strike").count() == ROUNDS


def test_the_player_and_the_gm_answering_at_once_resolve_one_reaction():
    t = Table()
    e = t.start()
    with Racers(2) as racers:
        for _ in range(ROUNDS):
            reaction = _strike(t, e)
            pk = reaction.pk
            results = racers.run(
                lambda pk=pk: services.answer_reaction(user=t.bob, reaction_id=pk,
                                                       choice="parry"),
                lambda pk=pk: services.answer_reaction(user=t.gm, reaction_id=pk,
                                                       choice="none"))
            assert codes(results) == ["ok", "reaction_not_pending"]
            assert PendingReaction.objects.get(pk=reaction.pk).action_id is not None
            Encounter.objects.filter(pk=e.pk).update(turn_actions=0)
    assert ActionRecord.objects.filter(kind="enc_test_strike").count() == ROUNDS


def test_two_gms_pressing_next_at_the_round_boundary_roll_the_round_once():
    """A system rolling initiative each round: the second press finds the turn moved on; one
    roll of the order, one journal entry, one version a round."""
    from encounters import hooks
    from tests.encounters.conftest import SYSTEM

    hooks.register_initiative_each_round(SYSTEM)
    try:
        t = Table()
        e = t.start(mode="rolled")
        from tests import factories
        staff = factories.user("gm2", is_staff=True)
        with Racers(2) as racers:
            for round_ in range(2, 2 + ROUNDS):
                for _ in range(2):  # to the last turn of the round
                    t.next()
                before = Encounter.objects.get(pk=e.pk)
                seen = before.turn_serial
                results = racers.run(
                    lambda seen=seen: services.encounter_next_turn(
                        user=t.gm, encounter_id=e.pk, turn=seen),
                    lambda seen=seen: services.encounter_next_turn(
                        user=staff, encounter_id=e.pk, turn=seen))
                assert codes(results) == ["ok", "turn_already_advanced"]
                after = Encounter.objects.get(pk=e.pk)
                assert (after.round, after.turn_serial, after.version) == (
                    round_, seen + 1, before.version + 1)
                assert ActionRecord.objects.filter(kind="encounter_initiative",
                                                   summary__round=round_).count() == 1
    finally:
        hooks.unregister_initiative_each_round(SYSTEM)


def test_two_targets_answering_at_once_resolve_the_action_once():
    """Both prompts of one action answered at the same moment: the second answer waits for the
    lock, sees the first and resolves; one journal entry, both prompts linked to it."""
    from encounters import hooks

    hooks.register_resolver("enc_test.pair", lambda ctx: hooks.ReactionOutcome(
        kind="enc_test_pair", summary={"others": [o.choice for o in ctx.others]}))
    try:
        t = Table()
        e = t.start()
        with Racers(2) as racers:
            for _ in range(ROUNDS):
                def act(ctx):
                    lead = ctx.request_reaction(target=t.c["Brenna"], options=["parry"],
                                                resolver="enc_test.pair")
                    return lead, ctx.request_reaction(target=t.c["Orc"], options=["parry"],
                                                      joins=lead)

                e.refresh_from_db()
                lead, other = services.encounter_act(
                    user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk, act=act,
                    costs_action=False)
                results = racers.run(
                    lambda lead=lead: services.answer_reaction(
                        user=t.bob, reaction_id=lead.pk, choice="parry"),
                    lambda other=other: services.answer_reaction(
                        user=t.gm, reaction_id=other.pk, choice="none"))
                assert codes(results) == ["ok", "ok"]
                linked = set(PendingReaction.objects.filter(pk__in=[lead.pk, other.pk])
                             .values_list("action_id", flat=True))
                assert len(linked) == 1 and None not in linked
        assert ActionRecord.objects.filter(kind="enc_test_pair").count() == ROUNDS
    finally:
        hooks.unregister_resolver("enc_test.pair")


def _waiting_for_a_lock() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                       " AND datname = current_database()")
        return cursor.fetchone()[0] > 0


@pytest.mark.parametrize("how", ["combatants", "prompts"])
def test_rows_read_with_the_lock_are_read_again_when_it_waited_for_a_change(how):
    """Issue 20: a step reads the combatants (an answer: its prompts) in the statement that
    locks the encounter. One that waits for the lock of a step changing them would hold them
    as they were before it (PostgreSQL re-checks only the locked row): the version it saw
    differs from the locked one's, so it reads them again and sees the change."""
    import threading
    import time

    from django.db import connection, transaction

    from encounters.access import lock_encounter, lock_with_combatants, save

    t = Table()
    e = t.start()
    reaction = _strike(t, e) if how == "prompts" else None
    got: dict = {}

    def second():
        try:
            if how == "combatants":
                with transaction.atomic():
                    _e, combatants = lock_with_combatants(e.pk)
                    got["name"] = combatants[t.c["Orc"].pk].name
            else:
                got["answer"] = services.answer_reaction(user=t.gm, reaction_id=reaction.pk,
                                                         choice="parry")
        except Exception as exc:  # reported to the test
            got["error"] = exc
        finally:
            connection.close()

    with transaction.atomic():
        locked = lock_encounter(e.pk)
        if how == "combatants":
            from encounters.models import Combatant
            Combatant.objects.filter(pk=t.c["Orc"].pk).update(name="Orc the renamed")
        else:  # the prompt answered meanwhile, as another answer would
            PendingReaction.objects.filter(pk=reaction.pk).update(status="answered",
                                                                  choice="none")
        save(locked)
        thread = threading.Thread(target=second)
        thread.start()
        for _ in range(600):  # until the second waits for the lock (no wall-clock bound)
            if _waiting_for_a_lock():
                break
            time.sleep(0.05)
        assert _waiting_for_a_lock()
    thread.join(30)
    assert not thread.is_alive()
    if how == "combatants":
        assert got == {"name": "Orc the renamed"}
    else:  # it saw the prompt answered: not pending any more
        assert getattr(got.get("error"), "code", None) == "reaction_not_pending", got
