"""A homebrew change outside a step reaches the open encounter pages (issue 17, item 7): the
GM's rest and a posture set before the start bump the version of the encounters showing the
characters and announce it on commit; a refused rest announces nothing."""

from __future__ import annotations

import pytest

from campaigns import live
from encounters import push
from encounters import services as enc
from encounters.models import Encounter
from homebrew.errors import GameMasterOnly
from homebrew.models import HomebrewSheet
from homebrew.services import posture_set, rest_grant


@pytest.fixture
def sent(monkeypatch):
    calls = []
    def record(name, event, data):  # the encounters' topics only (a sheet has its own)
        assert data.pop("topic") == name
        if name.startswith("encounter-"):
            calls.append((name, event, data))

    monkeypatch.setattr(live, "send_event", record)
    return calls


@pytest.fixture
def fight(hb):
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Sparring")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.goblin)])
    return Encounter.objects.get(pk=e.pk)


def _version(e) -> int:
    return Encounter.objects.get(pk=e.pk).version


def test_the_gms_rest_is_pushed(hb, fight, sent, django_capture_on_commit_callbacks):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=1)
    before = _version(fight)
    with django_capture_on_commit_callbacks(execute=True):
        rest_grant(user=hb.gm, campaign=hb.campaign, kind="long")
    assert _version(fight) == before + 1
    assert sent == [(push.channel(fight.pk), "change", {"version": before + 1})]


def test_a_refused_rest_pushes_nothing(hb, fight, sent, django_capture_on_commit_callbacks):
    before = _version(fight)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(GameMasterOnly):
        rest_grant(user=hb.alice, campaign=hb.campaign, kind="long")
    assert _version(fight) == before and callbacks == [] and sent == []


def test_a_rest_of_characters_in_no_encounter_pushes_nothing(hb, fight, sent,
                                                             django_capture_on_commit_callbacks):
    before = _version(fight)
    with django_capture_on_commit_callbacks(execute=True):
        rest_grant(user=hb.gm, campaign=hb.campaign, kind="short", character_ids=[hb.bran.pk])
    assert _version(fight) == before and sent == []


def test_a_posture_set_before_the_start_is_pushed(hb, fight, sent,
                                                  django_capture_on_commit_callbacks):
    before = _version(fight)
    with django_capture_on_commit_callbacks(execute=True):
        posture_set(user=hb.alice, character=hb.aria, posture="defensive")
    assert _version(fight) == before + 1 and sent[-1][2] == {"version": before + 1}


@pytest.mark.parametrize("characters", [1, 3])
def test_the_rests_push_costs_three_queries(hb, fight, characters, django_assert_num_queries,
                                            django_capture_on_commit_callbacks):
    """Whatever the number resting: the rows' ids, the encounters locked, one UPDATE; the
    rest itself then locks and writes the sheets (counted once without the push)."""
    ids = [hb.aria.pk, hb.bran.pk, hb.goblin.pk][:characters]
    with django_assert_num_queries(3):
        enc.characters_changed(HomebrewSheet.objects.filter(pk__in=ids)
                               .values_list("pk", flat=True))
