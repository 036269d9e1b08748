"""Every change an Eclipse Phase encounter page shows is pushed (issue 17, item 7): the GM's
healing, stress inflicted and recovered, Moxie spent and refreshed, a resleeve, gear, a TACNet
created, joined and left, and the GM's steps on the encounter (gravity, the end of the action
turn) bump the version and announce it on commit; a refused one announces nothing."""

from __future__ import annotations

import pytest

from campaigns import live
from eclipse import environment, services, tacnet
from eclipse.models import MorphTemplate
from eclipse.turn_end import encounter_turn_end
from encounters import push
from encounters.models import Encounter
from gamerules.errors import RuleError
from tests.eclipse_play.conftest import running


@pytest.fixture
def sent(monkeypatch):
    calls = []
    def record(name, event, data):  # the encounters' topics only (a sheet has its own)
        assert data.pop("topic") == name
        if name.startswith("encounter-"):
            calls.append((name, event, data))

    monkeypatch.setattr(live, "send_event", record)
    return calls


def _version(e) -> int:
    return Encounter.objects.get(pk=e.pk).version


CHANGES = {
    "heal": lambda ep: services.heal(user=ep.gm, character=ep.ava.pk, damage=1),
    "stress_inflict": lambda ep: services.stress_inflict(user=ep.gm, character=ep.ava.pk, sv=3,
                                                         resist=False),
    "stress_recover": lambda ep: services.stress_recover(user=ep.gm, character=ep.ava.pk,
                                                         method="rest"),
    "moxie_spend": lambda ep: services.moxie_spend(user=ep.alice, character=ep.ava.pk),
    "moxie_refresh": lambda ep: services.moxie_refresh(user=ep.gm, character=ep.ava.pk),
    "resleeve": lambda ep: services.resleeve(
        user=ep.gm, character=ep.ava.pk,
        morph_id=MorphTemplate.objects.get(campaign=ep.campaign, name="Splicer").pk),
    "weapon_equip": lambda ep: services.weapon_equip(user=ep.gm, character=ep.ava.pk,
                                                     template_id=ep.rifle.pk),
    "tacnet_create": lambda ep: tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk,
                                                     name="Squad"),
}


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_a_change_outside_a_step_is_pushed(ep, sent, kind, django_capture_on_commit_callbacks):
    e, _c = running(ep)
    if kind == "moxie_refresh":
        services.moxie_spend(user=ep.alice, character=ep.ava.pk)
    before = _version(e)
    with django_capture_on_commit_callbacks(execute=True):
        CHANGES[kind](ep)
    assert _version(e) == before + 1
    assert sent[-1] == (push.channel(e.pk), "change", {"version": before + 1})


REFUSED = {
    "heal": lambda ep: services.heal(user=ep.alice, character=ep.ava.pk, damage=1),
    "stress_inflict": lambda ep: services.stress_inflict(user=ep.alice, character=ep.ava.pk,
                                                         sv=3),
    "moxie_spend": lambda ep: services.moxie_spend(user=ep.bob, character=ep.ava.pk),
    "tacnet_create": lambda ep: tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk,
                                                     name=""),
}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_refused_change_pushes_nothing(ep, sent, kind, django_capture_on_commit_callbacks):
    e, _c = running(ep)
    before = _version(e)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuleError):
        REFUSED[kind](ep)
    # Nothing is sent and no payload is kept: what may stay is an idle sender of a topic the
    # set-up announced in the same (outer, test) transaction, campaigns.live's coalescing.
    assert _version(e) == before and sent == []
    assert not any(isinstance(cb, live._Kept) for cb in callbacks)


def test_joining_and_leaving_a_tacnet_is_pushed_to_every_encounter_of_the_campaign(
        ep, sent, django_capture_on_commit_callbacks):
    e, _c = running(ep)
    network = tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Squad")
    before = _version(e)
    with django_capture_on_commit_callbacks(execute=True):
        tacnet.tacnet_join(user=ep.alice, network_id=network.pk, character_id=ep.ava.pk)
    assert _version(e) == before + 1 and sent[-1][2] == {"version": before + 1}
    with django_capture_on_commit_callbacks(execute=True):
        tacnet.tacnet_leave(user=ep.alice, network_id=network.pk, character_id=ep.ava.pk)
    assert _version(e) == before + 2 and sent[-1][2] == {"version": before + 2}


@pytest.mark.parametrize("step", ["gravity", "turn_end"])
def test_the_gms_steps_on_the_encounter_are_pushed(ep, sent, step,
                                                   django_capture_on_commit_callbacks):
    e, _c = running(ep)
    before = _version(e)
    with django_capture_on_commit_callbacks(execute=True):
        if step == "gravity":
            environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g="0.5")
        else:
            encounter_turn_end(user=ep.gm, encounter_id=e.pk)
    assert _version(e) == before + 1
    assert sent == [(push.channel(e.pk), "change", {"version": before + 1})]


def test_the_healing_costs_two_queries_more_than_alone(ep, django_assert_num_queries):
    """The push's share of a healing: the encounters locked, one UPDATE (with one encounter or
    three)."""
    from encounters import services as enc

    running(ep)
    for name in ("Second", "Third"):
        e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name=name)
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=ep.ava.pk)])
    with django_assert_num_queries(2):
        assert len(enc.characters_changed([ep.ava.pk])) == 3
