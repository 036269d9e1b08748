"""Changes made outside a step reach the encounter pages (issue 17, item 7):
encounters.services.characters_changed and campaign_changed bump the version of every
encounter not ended that shows the change, and push it once the transaction commits (nothing
on rollback), in a constant number of queries."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaigns import live
from encounters import push, services
from encounters.models import Encounter
from tests import factories
from tests.encounters.conftest import Table


@pytest.fixture
def sent(monkeypatch):
    calls = []
    def record(name, event, data):  # the encounters' topics only (a sheet has its own)
        assert data.pop("topic") == name
        if name.startswith("encounter-"):
            calls.append((name, event, data))

    monkeypatch.setattr(live, "send_event", record)
    return calls


def _versions(*encounters) -> list[int]:
    return [Encounter.objects.get(pk=e.pk).version for e in encounters]


def _another(t: Table, name: str, *characters, state=None) -> Encounter:
    e = services.encounter_create(user=t.gm, campaign_id=t.campaign.pk, name=name)
    services.combatants_add(user=t.gm, encounter_id=e.pk, entries=[
        services.CombatantEntry(character_id=c.pk) for c in characters])
    if state is not None:
        Encounter.objects.filter(pk=e.pk).update(state=state)
    return Encounter.objects.get(pk=e.pk)


@pytest.mark.django_db
def test_every_encounter_not_ended_that_shows_the_character_is_bumped_and_pushed(
        table, sent, django_capture_on_commit_callbacks):
    running = table.start()
    setup = _another(table, "Later", table.hero)
    ended = _another(table, "Over", table.hero, state=Encounter.State.ENDED)
    elsewhere = _another(table, "Without Hero", table.brenna)
    before = _versions(running, setup, ended, elsewhere)
    with django_capture_on_commit_callbacks(execute=True):
        bumped = services.characters_changed([table.hero.pk, table.hero.pk])
    assert bumped == sorted([running.pk, setup.pk])
    assert _versions(running, setup, ended, elsewhere) == [
        before[0] + 1, before[1] + 1, before[2], before[3]]
    assert sorted(sent) == sorted([
        (push.channel(running.pk), "change", {"version": before[0] + 1}),
        (push.channel(setup.pk), "change", {"version": before[1] + 1})])


@pytest.mark.django_db
def test_a_removed_combatant_no_longer_shows_its_character(table, sent,
                                                           django_capture_on_commit_callbacks):
    e = table.start()
    services.combatant_remove(user=table.gm, encounter_id=e.pk, combatant_id=table.c["Hero"].pk)
    before = _versions(e)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.characters_changed([table.hero.pk]) == []
    assert _versions(e) == before and sent == []


@pytest.mark.django_db
def test_a_rolled_back_change_pushes_nothing(table, sent, django_capture_on_commit_callbacks):
    e = table.start()
    before = _versions(e)
    with (django_capture_on_commit_callbacks(execute=True) as callbacks,
          pytest.raises(RuntimeError), transaction.atomic()):
        services.characters_changed([table.brenna.pk])
        raise RuntimeError("the service refused")
    # No payload kept, nothing sent (an idle sender of a topic the set-up announced in the same
    # outer test transaction may stay: campaigns.live's coalescing).
    assert _versions(e) == before and sent == []
    assert not any(isinstance(cb, live._Kept) for cb in callbacks)


@pytest.mark.django_db
def test_the_campaign_change_bumps_each_of_its_encounters_not_ended(
        table, sent, django_capture_on_commit_callbacks):
    running = table.start()
    empty = _another(table, "Nobody yet")
    ended = _another(table, "Over", state=Encounter.State.ENDED)
    far = factories.campaign(name="Far", rule_system=table.campaign.rule_system)
    foreign = Encounter.objects.create(campaign=far, name="Elsewhere")  # left alone
    before = _versions(running, empty, ended, foreign)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.campaign_changed(table.campaign.pk) == sorted([running.pk, empty.pk])
    assert _versions(running, empty, ended, foreign) == [
        before[0] + 1, before[1] + 1, before[2], before[3]]
    assert len(sent) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("encounters", [1, 6])
def test_queries_stay_constant(table, sent, encounters, django_assert_num_queries):
    table.start()
    for i in range(encounters - 1):
        _another(table, f"Side {i}", table.hero, table.brenna, table.orc)
    with django_assert_num_queries(0):
        assert services.characters_changed([]) == []
    with django_assert_num_queries(2):  # the encounters locked, one UPDATE
        assert len(services.characters_changed(
            [table.hero.pk, table.brenna.pk, table.orc.pk])) == encounters
    with django_assert_num_queries(2):
        assert len(services.campaign_changed(table.campaign.pk)) == encounters


@pytest.mark.django_db
def test_a_step_that_also_reports_a_character_ends_on_one_version(
        table, sent, django_capture_on_commit_callbacks):
    """A system's step whose service reports the character too (the encounter already locked
    by the step): the version stored and the last number pushed agree."""
    e = table.start()
    with django_capture_on_commit_callbacks(execute=True):
        services.encounter_act(user=table.alice, encounter_id=e.pk,
                               combatant_id=table.c["Hero"].pk,
                               act=lambda ctx: services.characters_changed([table.hero.pk]))
    stored = Encounter.objects.get(pk=e.pk).version
    assert stored > e.version
    assert sent[-1] == (push.channel(e.pk), "change", {"version": stored})
