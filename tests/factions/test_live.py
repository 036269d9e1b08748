"""The factions' live topics (factions.live, issue 17, item 7): who reads each, and what every
service that changes a faction page announces (once per topic, after the commit, nothing on a
refusal). The events carry the topic only."""

from __future__ import annotations

import pytest

from campaigns import live
from campaigns.errors import InvalidInput
from factions import services
from tests.factions.conftest import otto_invitation, otto_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    events: list = []
    monkeypatch.setattr(live, "send_event", lambda *args: events.append(args))
    return events


@pytest.fixture
def announced(sent, django_capture_on_commit_callbacks):
    """Run ``step`` in its own transaction; the topics it sent, in order (each once)."""
    def run(step):
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            step()
        names = [args[0] for args in sent]
        assert len(names) == len(set(names)), names  # coalesced: one event per topic
        assert all(args[2] == {"topic": args[0]} for args in sent)  # nothing but the topic
        return names
    return run


def _user(world, name):
    return f"user-{world.users[name].pk}"


def test_who_reads_the_faction_topics(world):
    w, c = world.wolves, world.campaign
    lea, otto = world.users["lea"], world.users["otto"]
    for user in (lea, otto, world.users["gina"]):  # the faction's page and list open to them
        assert live.can_read(user, f"faction-{w.pk}") and live.can_read(user, f"factions-{c.pk}")
    assert live.can_read(otto, f"user-{otto.pk}")
    assert not live.can_read(otto, f"user-{lea.pk}")  # another's invitations: never
    assert not live.can_read(lea, f"user-{otto.pk}")
    assert not live.can_read(otto, "faction-999999") and not live.can_read(otto, "factions-999999")
    assert not live.can_read(None, f"faction-{w.pk}")  # a visitor reads nothing

    class Visitor:
        is_authenticated = False
        pk = None

    assert not live.can_read(Visitor(), f"user-{otto.pk}")


def test_a_request_and_its_answer(world, announced):
    w, c = world.wolves, world.campaign
    request = None

    def ask():
        nonlocal request
        request = otto_request(world)

    topics = announced(ask)
    assert set(topics) >= {f"factions-{c.pk}", f"faction-{w.pk}", _user(world, "otto"),
                           _user(world, "lea")}
    topics = announced(lambda: services.request_answer(user=world.users["lea"],
                                                       request_id=request.pk, accept=True))
    assert set(topics) >= {f"factions-{c.pk}", f"faction-{w.pk}", _user(world, "otto"),
                           _user(world, "lea"), f"board-{c.pk}"}


def test_an_invitation_withdrawn(world, announced):
    w = world.wolves
    invitation = None

    def invite():
        nonlocal invitation
        invitation = otto_invitation(world)

    assert {f"faction-{w.pk}", _user(world, "otto"), _user(world, "lea")} <= set(announced(invite))
    assert {f"faction-{w.pk}", _user(world, "otto")} <= set(announced(
        lambda: services.request_withdraw(user=world.users["lea"], request_id=invitation.pk)))


def test_joining_lapses_the_other_requests_and_tells_their_leaders(world, announced):
    """Otto asked the Wolves, then joins the public Ravens: the Wolves' pages and Lea learn
    that the request is gone."""
    otto_request(world)
    topics = announced(lambda: services.faction_join(
        user=world.users["otto"], character_id=world.char("Otto").pk,
        faction_id=world.ravens.pk))
    assert {f"faction-{world.ravens.pk}", f"faction-{world.wolves.pk}", _user(world, "otto"),
            _user(world, "lea")} <= set(topics)


def test_members_leadership_and_dissolution(world, announced):
    w, max_ = world.wolves, world.char("Max")
    assert {f"faction-{w.pk}", _user(world, "lea"), _user(world, "max")} <= set(announced(
        lambda: services.leadership_transfer(user=world.users["lea"], faction_id=w.pk,
                                             character_id=max_.pk)))
    assert {f"faction-{w.pk}", _user(world, "lea")} <= set(announced(
        lambda: services.member_remove(user=world.users["max"], faction_id=w.pk,
                                       character_id=world.char("Lea").pk)))
    otto_invitation_by_max = services.faction_invite(user=world.users["max"], faction_id=w.pk,
                                                     character_id=world.char("Otto").pk)
    assert otto_invitation_by_max.pk
    assert {f"faction-{w.pk}", _user(world, "max"), _user(world, "otto")} <= set(announced(
        lambda: services.faction_dissolve(user=world.users["max"], faction_id=w.pk)))
    assert {f"faction-{world.ravens.pk}", _user(world, "rita")} <= set(announced(
        lambda: services.faction_leave(user=world.users["rita"],
                                       character_id=world.char("Rita").pk)))


def test_a_refused_step_announces_nothing(world, announced):
    def twice():
        otto_request(world)

    announced(twice)

    def again():
        with pytest.raises(InvalidInput):
            otto_request(world)

    assert announced(again) == []
