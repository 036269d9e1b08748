"""One action prompting several targets at once (issue 12, item 7: every target of a volley
asked to defend): the first prompt leads, the others join it (request_reaction(joins=)); all
are pending together, answered in any order, and the action is resolved ONCE, in one journal
entry, when none is pending any more (answered or defaulted at the shared deadline)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from campaigns.models import ActionRecord
from encounters import hooks, services
from encounters.errors import EncounterConflict, EncounterForbidden, EncounterInvalid
from encounters.models import PendingReaction
from tests.encounters.conftest import NOW, Table

pytestmark = pytest.mark.django_db
SEEN: list[hooks.ReactionContext] = []


def resolve_volley(ctx: hooks.ReactionContext) -> hooks.ReactionOutcome:
    SEEN.append(ctx)
    answers = {ctx.target.name: ctx.choice, **{o.target.name: o.choice for o in ctx.others}}
    return hooks.ReactionOutcome(kind="enc_test_volley", summary={"answers": answers})


@pytest.fixture(autouse=True)
def volley_resolver():
    SEEN.clear()
    hooks.register_resolver("enc_test.volley", resolve_volley)
    yield
    hooks.unregister_resolver("enc_test.volley")


def volley(t, e, targets=("Brenna", "Orc")):
    """Hero's action prompting each of ``targets``; returns the prompts, the lead first."""

    def act(ctx):
        lead = ctx.request_reaction(target=t.c[targets[0]], action_payload={"shots": 2},
                                    options=["parry"], resolver="enc_test.volley")
        return [lead, *(ctx.request_reaction(target=t.c[n], options=["parry"], joins=lead,
                                             action_payload={"second": True})
                        for n in targets[1:])]

    return services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                                  act=act, now=NOW)


def entries():
    return list(ActionRecord.objects.filter(kind="enc_test_volley"))


def test_both_answered_resolve_the_action_once():
    t = Table()
    e = t.start()
    lead, other = volley(t, e)
    assert other.lead_id == lead.pk and other.deadline == lead.deadline
    assert other.resolver == "enc_test.volley"
    version = t.reload().version
    services.answer_reaction(user=t.bob, reaction_id=lead.pk, choice="parry", now=NOW)
    e = t.reload()
    assert (entries(), SEEN, e.version) == ([], [], version + 1)  # waits for the Orc
    assert e.reaction_deadline == lead.deadline
    with pytest.raises(EncounterConflict) as waiting:
        services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW)
    assert waiting.value.code == "reaction_pending"
    services.answer_reaction(user=t.gm, reaction_id=other.pk, choice="none", now=NOW)
    (entry,) = entries()
    assert entry.summary["result"] == {"answers": {"Brenna": "parry", "Orc": "none"}}
    assert entry.summary["answer"] == {"choice": "parry", "defaulted": False, "by": t.bob.pk}
    assert entry.summary["answers"] == [{
        "target": "Orc", "target_id": t.c["Orc"].pk, "options": ["none", "parry"],
        "default": "none", "choice": "none", "defaulted": False, "by": t.gm.pk}]
    assert [r.action_id for r in PendingReaction.objects.order_by("id")] == [entry.pk] * 2
    assert t.reload().reaction_deadline is None and len(SEEN) == 1
    assert SEEN[0].others[0].reaction.payload == {"second": True}


def test_the_second_answering_before_the_first():
    t = Table()
    e = t.start()
    lead, other = volley(t, e)
    services.answer_reaction(user=t.gm, reaction_id=other.pk, choice="parry", now=NOW)
    assert entries() == []
    services.answer_reaction(user=t.bob, reaction_id=lead.pk, choice="none",
                             now=NOW + timedelta(seconds=5))
    (entry,) = entries()
    assert entry.summary["result"]["answers"] == {"Brenna": "none", "Orc": "parry"}
    assert SEEN[0].target.name == "Brenna"  # the lead stays the lead


def test_one_answered_the_other_defaulted_at_the_deadline():
    t = Table()
    e = t.start()
    lead, other = volley(t, e)
    services.answer_reaction(user=t.gm, reaction_id=other.pk, choice="parry", now=NOW)
    assert services.reactions_default_due(now=NOW + timedelta(seconds=19)) == 0
    assert services.reactions_default_due(now=lead.deadline) == 1
    (entry,) = entries()
    assert entry.summary["answer"] == {"choice": "none", "defaulted": True, "by": None}
    assert entry.summary["answers"][0]["defaulted"] is False
    assert services.reactions_default_due(now=lead.deadline) == 0  # twice changes nothing
    with pytest.raises(Exception) as late:
        services.answer_reaction(user=t.bob, reaction_id=lead.pk, choice="parry",
                                 now=lead.deadline)
    assert late.value.code == "reaction_not_pending"
    assert len(entries()) == 1


def test_both_defaulted_by_the_next_step():
    t = Table()
    e = t.start()
    lead, _other = volley(t, e)
    services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=t.reload().turn_serial,
                                 now=lead.deadline)
    (entry,) = entries()
    assert [entry.summary["answer"]["defaulted"], entry.summary["answers"][0]["defaulted"]] \
        == [True, True]
    assert t.current_name() == "Brenna"


def test_a_player_answering_anothers_prompt_is_refused():
    t = Table()
    e = t.start()
    lead, other = volley(t, e)
    for user, reaction in ((t.alice, lead), (t.bob, other), (t.alice, other)):
        with pytest.raises(EncounterForbidden) as refused:
            services.answer_reaction(user=user, reaction_id=reaction.pk, choice="parry",
                                     now=NOW)
        assert refused.value.code == "not_yours_to_answer"
    assert PendingReaction.objects.filter(status="pending").count() == 2


def test_a_target_is_prompted_once_an_action():
    t = Table()
    e = t.start()
    with pytest.raises(EncounterInvalid) as twice:
        volley(t, e, ("Brenna", "Orc", "Brenna"))
    assert twice.value.code == "already_prompted"
    assert not PendingReaction.objects.exists() and t.reload().reaction_deadline is None


@pytest.mark.parametrize("extra", [0, 27])
def test_answers_cost_the_same_queries(extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    lead, other = volley(t, e)
    # savepoint, the lock (its encounter found in the same statement: issue 20) reading the
    # group with its actor and targets, the answer's and the encounter's UPDATEs, release
    with django_assert_num_queries(5):
        services.answer_reaction(user=t.bob, reaction_id=lead.pk, choice="parry", now=NOW)
    # savepoint, the lock reading the group (with its requester, actor and targets), the
    # lead's answerer, the journal's INSERT, the prompts' bulk UPDATE, the encounter's,
    # release (11 before issue 20)
    with django_assert_num_queries(7):
        services.answer_reaction(user=t.gm, reaction_id=other.pk, choice="none", now=NOW)
