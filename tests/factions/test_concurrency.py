"""Faction operations racing each other, on PostgreSQL (SQLite serialises writers anyway).

Each call runs in its own thread and connection, released together by a barrier. Some races are
forced: a service step is slowed down so that the second call surely arrives while the first
holds its locks. Whatever the order, exactly one outcome must stand, and the invariants hold:
the leader is a member of the faction, and every member belongs to one faction only.
"""

from __future__ import annotations

import time

import pytest
from django.db import models

from campaigns.errors import Forbidden
from factions import services
from factions.errors import LeaderMustHandOver, NotAMember, RequestClosed
from factions.models import Faction, JoinRequest, Membership
from tests import factories
from tests.concurrency import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def assert_consistent():
    """Every faction's leader is one of its members, of the faction's campaign."""
    for faction in Faction.objects.select_related("leader"):
        leader = Membership.objects.filter(faction=faction, character_id=faction.leader_id)
        assert leader.exists(), f"the leader of {faction} is not a member"
        assert faction.leader.campaign_id == faction.campaign_id
    assert not Membership.objects.exclude(
        character__campaign=models.F("faction__campaign")).exists()


@pytest.fixture
def pack(db):
    campaign = factories.campaign(name="Race")
    users = {n: factories.user(n) for n in ("lea", "bea", "otto")}
    chars = {n: factories.character(owner=u, campaign=campaign, name=n.title(), at=(i, 0),
                                    seed=i)
             for i, (n, u) in enumerate(users.items())}
    faction = services.faction_create(user=users["lea"], character_id=chars["lea"].pk,
                                      name="Wolves", is_public=False)
    invitation = services.faction_invite(user=users["lea"], faction_id=faction.pk,
                                         character_id=chars["bea"].pk)
    services.request_answer(user=users["bea"], request_id=invitation.pk, accept=True)
    return users, chars, faction


def slow(monkeypatch, name, seconds=0.3):
    real = getattr(services, name)

    def slowed(*args, **kwargs):
        result = real(*args, **kwargs)
        time.sleep(seconds)
        return result

    monkeypatch.setattr(services, name, slowed)


def accept_and_withdraw(users, chars, faction):
    request = services.faction_join(user=users["otto"], character_id=chars["otto"].pk,
                                     faction_id=faction.pk)
    results = run_together(
        lambda: services.request_answer(user=users["lea"], request_id=request.pk, accept=True),
        lambda: services.request_withdraw(user=users["otto"], request_id=request.pk))
    request.refresh_from_db()
    member = Membership.objects.filter(character=chars["otto"], faction=faction).exists()
    done = [r for r in results if isinstance(r, JoinRequest)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], RequestClosed), results
    assert (member, request.state) in [(True, "accepted"), (False, "withdrawn")], results
    assert done[0].state == request.state
    assert_consistent()
    return request.state


@pytest.mark.parametrize("slowed", [None, "_close"], ids=["free", "accept-holds-the-row"])
def test_accept_while_the_requester_withdraws_ends_in_one_state(pack, monkeypatch, slowed):
    users, chars, faction = pack
    if slowed:
        slow(monkeypatch, slowed)
    outcomes = set()
    for _ in range(4):
        outcomes.add(accept_and_withdraw(users, chars, faction))
        Membership.objects.filter(character=chars["otto"]).delete()
    assert outcomes <= {"accepted", "withdrawn"}


def test_transfer_to_b_while_removing_b(pack, monkeypatch):
    users, chars, faction = pack
    slow(monkeypatch, "_locked_faction")
    results = run_together(
        lambda: services.leadership_transfer(user=users["lea"], faction_id=faction.pk,
                                             character_id=chars["bea"].pk),
        lambda: services.member_remove(user=users["lea"], faction_id=faction.pk,
                                       character_id=chars["bea"].pk))
    transferred, removed = results
    faction.refresh_from_db()
    bea_member = Membership.objects.filter(character=chars["bea"], faction=faction).exists()
    if isinstance(transferred, Faction):
        # The hand-over came first: Lea no longer leads, the removal is refused.
        assert isinstance(removed, Forbidden), results
        assert faction.leader_id == chars["bea"].pk and bea_member
    else:
        # The removal came first: Bea is no member, she cannot lead.
        assert isinstance(transferred, NotAMember) and removed is None, results
        assert faction.leader_id == chars["lea"].pk and not bea_member
    assert_consistent()


def test_transfer_to_b_while_b_leaves(pack, monkeypatch):
    users, chars, faction = pack
    slow(monkeypatch, "_locked_faction")
    results = run_together(
        lambda: services.leadership_transfer(user=users["lea"], faction_id=faction.pk,
                                             character_id=chars["bea"].pk),
        lambda: services.faction_leave(user=users["bea"], character_id=chars["bea"].pk))
    transferred, left = results
    faction.refresh_from_db()
    if isinstance(transferred, Faction):
        assert isinstance(left, LeaderMustHandOver), results
        assert faction.leader_id == chars["bea"].pk
    else:
        assert isinstance(transferred, NotAMember) and left is None, results
        assert faction.leader_id == chars["lea"].pk
    assert_consistent()


def test_removal_while_the_member_leaves_records_one_departure(pack, monkeypatch):
    users, chars, faction = pack
    slow(monkeypatch, "_locked_faction")
    results = run_together(
        lambda: services.member_remove(user=users["lea"], faction_id=faction.pk,
                                       character_id=chars["bea"].pk),
        lambda: services.faction_leave(user=users["bea"], character_id=chars["bea"].pk))
    assert sum(r is None for r in results) == 1, results
    assert sum(isinstance(r, NotAMember) for r in results) == 1, results
    assert not Membership.objects.filter(character=chars["bea"]).exists()
    from campaigns.models import ActionRecord
    assert ActionRecord.objects.filter(kind__in=["faction_remove", "faction_leave"]).count() == 1
    assert_consistent()


def test_dissolve_while_a_request_is_accepted_does_not_deadlock(pack, monkeypatch):
    users, chars, faction = pack
    request = services.faction_join(user=users["otto"], character_id=chars["otto"].pk,
                                    faction_id=faction.pk)
    slow(monkeypatch, "_close")
    results = run_together(
        lambda: services.request_answer(user=users["lea"], request_id=request.pk, accept=True),
        lambda: services.faction_dissolve(user=users["lea"], faction_id=faction.pk))
    answered, dissolved = results
    assert dissolved is None, results
    assert isinstance(answered, (JoinRequest, Exception)), results
    if isinstance(answered, Exception):
        assert answered.code == "not_found", results
    assert not Faction.objects.exists() and not Membership.objects.filter(
        character=chars["otto"]).exists()


def test_two_joins_of_one_character_to_two_factions(pack):
    users, chars, _faction = pack
    other = factories.character(owner=factories.user("rita"), campaign=chars["lea"].campaign,
                                name="Rita", at=(9, 9))
    ravens = services.faction_create(user=other.owner, character_id=other.pk, name="Ravens")
    owls_leader = factories.character(owner=factories.user("olga"),
                                      campaign=chars["lea"].campaign, name="Olga", at=(8, 8))
    owls = services.faction_create(user=owls_leader.owner, character_id=owls_leader.pk,
                                   name="Owls")
    results = run_together(
        lambda: services.faction_join(user=users["otto"], character_id=chars["otto"].pk,
                                      faction_id=ravens.pk),
        lambda: services.faction_join(user=users["otto"], character_id=chars["otto"].pk,
                                      faction_id=owls.pk))
    assert sum(isinstance(r, Membership) for r in results) == 1, results
    assert sum(getattr(r, "code", None) == "already_in_faction" for r in results) == 1, results
    assert Membership.objects.filter(character=chars["otto"]).count() == 1
