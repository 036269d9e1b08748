"""The encounter's services on SQLite: setting up, order, turns, delay, removal, effects,
actions in turn, reactions and their journal, refusals that change nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from campaigns.models import ActionRecord
from encounters import services
from encounters.models import Combatant, EncounterEffect, PendingReaction
from gamerules.encounter.errors import (NoLivingCombatant, ReactionExpired,
                                        ReactionNotPending, UnknownReactionOption)
from gamerules.errors import RuleError
from characters.models import Character
from tests import factories
from tests.encounters.conftest import NOW, Table

pytestmark = pytest.mark.django_db


def strike(damage=5, end_turn=False, target="Orc"):
    def act(ctx):
        target_c = next(c for c in ctx.combatants.values() if c.name == target)
        ctx.end_turn = end_turn
        return ctx.request_reaction(target=target_c, action_payload={"damage": damage},
                                    options=["parry"], resolver="enc_test.strike")
    return act


def refused(code, call):
    with pytest.raises(RuleError) as e:
        call()
    assert e.value.code == code, e.value
    return e.value


def test_only_the_game_master_makes_and_runs_an_encounter(table):
    refused("not_game_master", lambda: services.encounter_create(
        user=table.alice, campaign_id=table.campaign.pk, name="x"))
    refused("not_game_master", lambda: services.encounter_start(
        user=table.alice, encounter_id=table.encounter.pk))
    stranger = factories.user("stranger")
    refused("no_such_encounter", lambda: services.encounter_start(
        user=stranger, encounter_id=table.encounter.pk))
    assert table.encounter.reaction_timeout_seconds == 20  # the system's parameter


def test_add_several_at_once_named_in_entry_order(db):
    t = Table(extra=3)
    names = list(Combatant.objects.filter(encounter=t.encounter).values_list("name", flat=True))
    assert names == ["Hero", "Brenna", "Orc", "Goblin 1", "Goblin 2", "Goblin 3"]
    refused("combatant_needs_name", lambda: services.combatants_add(
        user=t.gm, encounter_id=t.encounter.pk, entries=[services.CombatantEntry()]))


def test_a_character_of_another_campaign_is_refused(table):
    camp = factories.campaign(name="Other", rule_system="enc_test")
    stranger = Character.objects.create(campaign=camp, name="Stranger")
    refused("not_in_campaign", lambda: services.combatants_add(
        user=table.gm, encounter_id=table.encounter.pk,
        entries=[services.CombatantEntry(character_id=stranger.pk)]))


def test_gm_order_with_surprised_at_the_end(table):
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Hero"].pk, surprised=True)
    services.encounter_set_order(user=table.gm, encounter_id=table.encounter.pk,
                                 combatant_ids=[table.c["Orc"].pk, table.c["Hero"].pk,
                                                table.c["Brenna"].pk])
    e = table.start()
    ranked = list(Combatant.objects.filter(encounter=e).order_by("rank")
                  .values_list("name", flat=True))
    assert ranked == ["Orc", "Brenna", "Hero"]
    assert (e.round, e.current.name, e.turn_serial) == (1, "Orc", 1)


def test_rolled_order_is_journaled_and_ties_are_shown(table):
    e = table.start(mode="rolled", rng=random.Random(5))
    rows = list(Combatant.objects.filter(encounter=e).order_by("rank"))
    scores = [(c.initiative, c.tiebreak) for c in rows]
    assert scores == sorted(scores, reverse=True)
    action = ActionRecord.objects.get(kind="encounter_initiative")
    assert action.rolls.count() == 3 and action.summary["order"] == [c.pk for c in rows]


def test_rolled_order_needs_the_systems_initiative(table):
    from encounters import hooks
    hooks.unregister_initiative("enc_test")
    refused("no_initiative", lambda: table.start(mode="rolled"))


def test_turns_and_rounds_and_the_stale_next_turn(table):
    e = table.start()
    assert table.current_name() == "Hero"
    seen = e.turn_serial
    table.next()
    refused("turn_already_advanced", lambda: services.encounter_next_turn(
        user=table.gm, encounter_id=e.pk, turn=seen))
    assert table.current_name() == "Brenna"
    table.next(), table.next()
    assert (table.reload().round, table.current_name()) == (2, "Hero")


def test_a_player_ends_only_their_own_turn(table):
    table.start()
    refused("not_game_master", lambda: table.next(user=table.bob))
    table.next(user=table.alice)
    assert table.current_name() == "Brenna"


def test_skip_defeated_then_the_next_living_one(table):
    table.start()
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Brenna"].pk, defeated=True)
    assert table.next().current.name == "Orc"
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, defeated=True)
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Hero"].pk, defeated=True)
    with pytest.raises(NoLivingCombatant):
        table.next()


def test_delay_by_the_player_after_a_chosen_combatant(table):
    e = table.start()
    services.encounter_delay(user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
                             after_id=table.c["Orc"].pk, turn=e.turn_serial)
    assert table.current_name() == "Brenna"
    table.next()
    assert table.current_name() == "Orc"
    assert table.next().current.name == "Hero"
    e = table.reload()
    refused("not_your_turn", lambda: services.encounter_delay(
        user=table.bob, encounter_id=e.pk, combatant_id=table.c["Brenna"].pk,
        after_id=table.c["Orc"].pk, turn=e.turn_serial))


def test_delay_after_acting_is_refused(table):
    e = table.start()
    services.encounter_act(user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
                           act=lambda ctx: None, now=NOW)
    refused("delay_after_acting", lambda: services.encounter_delay(
        user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
        after_id=table.c["Orc"].pk, turn=table.reload().turn_serial))


def test_remove_the_current_combatant_and_re_add_it_at_the_end(table):
    e = table.start()
    services.combatant_remove(user=table.gm, encounter_id=e.pk, combatant_id=table.c["Hero"].pk)
    assert table.current_name() == "Brenna"
    refused("not_in_order", lambda: services.combatant_remove(
        user=table.gm, encounter_id=e.pk, combatant_id=table.c["Hero"].pk))
    services.combatant_readd(user=table.gm, encounter_id=e.pk, combatant_id=table.c["Hero"].pk)
    table.next()
    assert table.next().current.name == "Hero"
    assert table.reload().round == 1


def test_a_late_joiner_plays_at_the_end_of_this_round(table):
    e = table.start()
    [wolf] = services.combatants_add(user=table.gm, encounter_id=e.pk,
                                     entries=[services.CombatantEntry(name="Wolf")])
    table.next(), table.next()
    assert table.next().current.name == "Wolf"
    assert Combatant.objects.get(pk=wolf.pk).joined_round == 1


def test_an_effect_expires_at_the_start_of_its_anchors_turn(table):
    e = table.start()
    effect = services.effect_add(user=table.gm, encounter_id=e.pk, name="Stunned",
                                 anchor_id=table.c["Hero"].pk, edge="start", rounds=1,
                                 bearer_id=table.c["Orc"].pk)
    table.next(), table.next()
    assert EncounterEffect.objects.get(pk=effect.pk).expired_round is None
    table.next()  # round 2, Hero starts
    assert EncounterEffect.objects.get(pk=effect.pk).expired_round == 2
    refused("invalid_duration", lambda: services.effect_add(
        user=table.gm, encounter_id=e.pk, name="x", anchor_id=table.c["Hero"].pk, edge="end",
        rounds=0))


def test_out_of_turn_and_second_actions_are_refused_and_change_nothing(table, unchanged):
    e = table.start()
    with unchanged():
        refused("not_your_turn", lambda: services.encounter_act(
            user=table.bob, encounter_id=e.pk, combatant_id=table.c["Brenna"].pk,
            act=lambda ctx: None))
        refused("not_your_combatant", lambda: services.encounter_act(
            user=table.bob, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
            act=lambda ctx: None))
    services.encounter_act(user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
                           act=lambda ctx: None)
    with unchanged():
        refused("action_already_taken", lambda: services.encounter_act(
            user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
            act=lambda ctx: None))
    free = services.encounter_act(user=table.alice, encounter_id=e.pk,
                                  combatant_id=table.c["Hero"].pk, act=lambda ctx: "drawn",
                                  costs_action=False)
    assert free == "drawn"


def test_the_gm_acts_for_the_creature(table):
    e = table.start()
    table.next(), table.next()
    assert services.encounter_act(user=table.gm, encounter_id=e.pk,
                                  combatant_id=table.c["Orc"].pk, act=lambda ctx: 1) == 1
    refused("not_your_combatant", lambda: services.encounter_act(
        user=table.alice, encounter_id=e.pk, combatant_id=table.c["Orc"].pk,
        act=lambda ctx: None))


def test_reaction_prompt_answer_and_result_are_one_journal_entry(table):
    e = table.start()
    reaction = services.encounter_act(user=table.alice, encounter_id=e.pk,
                                      combatant_id=table.c["Hero"].pk, act=strike(5),
                                      now=NOW)
    assert reaction.status == "pending" and reaction.options == ["none", "parry"]
    assert reaction.deadline == NOW + timedelta(seconds=20)
    refused("reaction_pending", lambda: table.next())
    refused("not_yours_to_answer", lambda: services.answer_reaction(
        user=table.bob, reaction_id=reaction.pk, choice="parry", now=NOW))
    with pytest.raises(UnknownReactionOption):
        services.answer_reaction(user=table.gm, reaction_id=reaction.pk, choice="flee", now=NOW)
    services.answer_reaction(user=table.gm, reaction_id=reaction.pk, choice="parry",
                             now=NOW + timedelta(seconds=3), rng=random.Random(2))
    reaction.refresh_from_db()
    action = reaction.action
    assert (reaction.status, reaction.choice, reaction.answered_by) == ("answered", "parry",
                                                                        table.gm)
    assert action.kind == "enc_test_strike" and action.actor == table.hero
    assert action.target == table.orc
    assert action.summary["prompt"]["payload"] == {"damage": 5}
    assert action.summary["answer"] == {"choice": "parry", "defaulted": False, "by": table.gm.pk}
    parry = action.rolls.get(label="parry")
    assert action.summary["result"]["damage"] == max(0, 5 - parry.total)
    with pytest.raises(ReactionNotPending):
        services.answer_reaction(user=table.gm, reaction_id=reaction.pk, choice="none", now=NOW)
    assert ActionRecord.objects.filter(kind="enc_test_strike").count() == 1
    assert table.reload().reaction_deadline is None
    table.next()


def test_the_targets_player_answers(table):
    e = table.start()
    reaction = services.encounter_act(user=table.alice, encounter_id=e.pk,
                                      combatant_id=table.c["Hero"].pk,
                                      act=strike(4, target="Brenna"), now=NOW)
    services.answer_reaction(user=table.bob, reaction_id=reaction.pk, choice="none", now=NOW)
    reaction.refresh_from_db()
    assert reaction.action.summary["result"] == {"damage": 4}
    assert reaction.action.rolls.count() == 0  # no reaction rolls no dice


def test_a_reaction_times_out_to_no_reaction(table):
    e = table.start()
    reaction = services.encounter_act(user=table.alice, encounter_id=e.pk,
                                      combatant_id=table.c["Hero"].pk, act=strike(5), now=NOW)
    late = NOW + timedelta(seconds=20)
    assert services.reactions_default_due(now=late - timedelta(seconds=1)) == 0
    with pytest.raises(ReactionExpired):
        services.answer_reaction(user=table.gm, reaction_id=reaction.pk, choice="parry", now=late)
    assert PendingReaction.objects.get(pk=reaction.pk).status == "pending"
    assert services.reactions_default_due(now=late) == 1
    assert services.reactions_default_due(now=late) == 0
    reaction.refresh_from_db()
    assert (reaction.status, reaction.choice, reaction.answered_by) == ("defaulted", "none", None)
    assert reaction.action.summary["answer"]["defaulted"] is True
    with pytest.raises(ReactionNotPending):
        services.answer_reaction(user=table.gm, reaction_id=reaction.pk, choice="parry", now=NOW)


def test_the_next_step_defaults_a_due_reaction_first(table):
    e = table.start()
    services.encounter_act(user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
                           act=strike(5), now=NOW)
    services.encounter_next_turn(user=table.gm, encounter_id=e.pk, turn=table.reload().turn_serial,
                                 now=NOW + timedelta(seconds=21))
    assert table.current_name() == "Brenna"
    assert PendingReaction.objects.get().status == "defaulted"


def test_a_failed_action_ends_the_turn_after_its_reaction(table):
    e = table.start()
    r = services.encounter_act(user=table.alice, encounter_id=e.pk,
                               combatant_id=table.c["Hero"].pk, act=strike(5, end_turn=True),
                               now=NOW)
    assert table.current_name() == "Hero"
    services.answer_reaction(user=table.gm, reaction_id=r.pk, choice="none", now=NOW)
    assert table.current_name() == "Brenna"
    services.encounter_act(user=table.bob, encounter_id=e.pk, combatant_id=table.c["Brenna"].pk,
                           act=lambda ctx: setattr(ctx, "end_turn", True), now=NOW)
    assert table.current_name() == "Orc"


def test_every_step_bumps_the_version_and_a_refusal_does_not(table):
    v0 = table.reload().version
    e = table.start()
    assert e.version == v0 + 1
    table.next()
    assert table.reload().version == v0 + 2
    refused("turn_already_advanced", lambda: table.next(turn=0))
    assert table.reload().version == v0 + 2


def test_the_order_cannot_be_set_with_a_missing_combatant(table):
    refused("order_mismatch", lambda: services.encounter_set_order(
        user=table.gm, encounter_id=table.encounter.pk, combatant_ids=[table.c["Hero"].pk]))


def test_an_ended_encounter_refuses_steps(table):
    e = table.start()
    services.encounter_end(user=table.gm, encounter_id=e.pk)
    refused("encounter_ended", lambda: table.next())
    refused("encounter_ended", lambda: services.combatant_readd(
        user=table.gm, encounter_id=e.pk, combatant_id=table.c["Hero"].pk))


def test_a_due_reaction_that_ends_the_turn_is_not_followed_by_a_second_advance(table):
    e = table.start()
    services.encounter_act(user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
                           act=strike(5, end_turn=True), now=NOW)
    seen = table.reload().turn_serial
    services.encounter_next_turn(user=table.gm, encounter_id=e.pk, turn=seen,
                                 now=NOW + timedelta(seconds=21))
    assert table.current_name() == "Brenna" and table.reload().turn_serial == seen + 1


def test_the_timeout_sweep_is_scheduled_with_time_limits_and_defaults_due_prompts(table):
    from django.conf import settings

    from config.celery import app
    from encounters.tasks import default_due_reactions
    task = "encounters.tasks.default_due_reactions"
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == task]
    # Swept at least twice within the default 30 s to react; a late sweep expires unsent.
    assert len(entries) == 1 and entries[0]["schedule"] <= timedelta(seconds=15)
    assert entries[0]["options"]["expires"] <= entries[0]["schedule"].total_seconds()
    app.loader.import_default_modules()
    assert 0 < app.tasks[task].soft_time_limit < app.tasks[task].time_limit
    e = table.start()
    reaction = services.encounter_act(user=table.alice, encounter_id=e.pk,
                                      combatant_id=table.c["Hero"].pk, act=strike(5), now=NOW)
    assert default_due_reactions() == 1  # now is long past the test's NOW + timeout
    assert default_due_reactions() == 0
    assert PendingReaction.objects.get(pk=reaction.pk).status == "defaulted"


def test_a_system_that_cannot_copy_sheets_refuses_copies_and_changes_nothing(table):
    from encounters.errors import EncounterInvalid
    e = table.reload()
    before = (Character.objects.count(), e.combatants.count())
    with pytest.raises(EncounterInvalid) as refused:
        services.combatants_add(user=table.gm, encounter_id=e.pk, entries=[
            services.CombatantEntry(template_id=table.orc.pk, count=2)])
    assert refused.value.code == "no_copies"
    assert (Character.objects.count(), e.combatants.count()) == before


def test_one_character_fights_once_and_a_refused_add_adds_nothing(table):
    from encounters.errors import EncounterInvalid
    e = table.reload()
    before = e.combatants.count()
    with pytest.raises(EncounterInvalid) as refused:
        services.combatants_add(user=table.gm, encounter_id=e.pk, entries=[
            services.CombatantEntry(name="Bandit", count=2),
            services.CombatantEntry(character_id=table.orc.pk, count=3)])
    assert refused.value.code == "character_once" and refused.value.params["name"] == "Orc"
    assert e.combatants.count() == before


def test_a_character_already_fighting_is_not_added_again(table):
    from encounters.errors import EncounterInvalid
    e = table.reload()
    before = e.combatants.count()
    for entries in ([services.CombatantEntry(character_id=table.orc.pk)],
                    [services.CombatantEntry(name="Bandit"),
                     services.CombatantEntry(character_id=table.hero.pk)]):
        with pytest.raises(EncounterInvalid) as refused:
            services.combatants_add(user=table.gm, encounter_id=e.pk, entries=entries)
        assert refused.value.code == "character_once"
    assert e.combatants.count() == before
