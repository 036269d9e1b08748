"""The factions' and the chat's notifications (issue 22, item 4): a request to join reaches the
faction's leader, an invitation the invited character's player; a whisper reaches who reads
it, a mention in a public message who it names among the room's readers, never the author;
nothing is told of a hidden combatant's player."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from chat import services as chat
from factions import services as factions
from notifications.models import Notification
from notifications.selectors import page_of
from tests import factories
from tests.chat.conftest import NOW, table  # noqa: F401 - the chat's table
from tests.chat.conftest import _local_cache  # noqa: F401
from tests.factions.conftest import world  # noqa: F401 - the factions' world

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    def call(fn):
        with django_capture_on_commit_callbacks(execute=True):
            return fn()
    return call


def told(user, kind=None) -> list[str]:
    with translation.override("en"):
        return [n.text for n in page_of(user, 1).object_list if kind in (None, n.kind)]


def test_a_request_to_join_reaches_the_leader(world, run):  # noqa: F811
    run(lambda: factions.faction_join(user=world.users["otto"], character_id=world.char("Otto").pk,
                                      faction_id=world.wolves.pk))
    assert told(world.users["lea"], "faction") == ["Otto asks to join Wolves."]
    n = Notification.objects.get(user=world.users["lea"], kind="faction")
    assert n.link == f"/factions/{world.wolves.pk}/manage/"
    assert not Notification.objects.filter(user=world.users["otto"]).exists()


def test_an_invitation_reaches_the_invited_player(world, run):  # noqa: F811
    run(lambda: factions.faction_invite(user=world.users["lea"], faction_id=world.wolves.pk,
                                        character_id=world.char("Otto").pk))
    assert told(world.users["otto"]) == ["Wolves invites Otto to join."]
    with translation.override("fr"):
        assert page_of(world.users["otto"], 1).object_list[0].text == (
            "Wolves invite Otto à la rejoindre.")


def post(who, text, run, **kw):
    return run(lambda: chat.message_post(user=who, text=text, rng=random.Random(7), now=NOW,
                                         **kw))


def test_a_whisper_reaches_its_reader_and_not_its_author(table, run):  # noqa: F811
    post(table.alice, "psst", run, campaign_id=table.campaign.pk, to="player",
         recipient_id=table.bob.pk)
    assert told(table.bob) == ["alice whispered to you in the chat of The table."]
    assert not Notification.objects.filter(user__in=[table.alice, table.gm, table.carol]).exists()
    post(table.bob, "to the GM", run, campaign_id=table.campaign.pk, to="gm")
    assert told(table.gm, "whisper") == ["bob whispered to you in the chat of The table."]


def test_a_mention_reaches_the_readers_it_names(table, run):  # noqa: F811
    post(table.alice, "@bob, @gm and @stranger: look. @alice @nobody", run,
         campaign_id=table.campaign.pk)
    assert told(table.bob) == ["alice mentioned you in the chat of The table."]
    assert told(table.gm) == ["alice mentioned you in the chat of The table."]
    assert not Notification.objects.filter(user__in=[table.alice, table.stranger]).exists()
    n = Notification.objects.get(user=table.bob)
    assert n.link == f"/chat/campaigns/{table.campaign.pk}/"


def test_a_mention_in_an_encounter_does_not_reach_a_hidden_combatants_player(table, run):  # noqa: F811
    lurker = factories.user("lurker")
    table.hidden.character = factories.CharacterFactory(campaign=table.campaign, owner=lurker,
                                                        name="Lurker")
    table.hidden.save()
    post(table.alice, "@lurker @bob", run, encounter_id=table.encounter.pk)
    assert told(table.bob, "mention") == ["alice mentioned you in the chat of The table."]
    assert not Notification.objects.filter(user=lurker).exists()


def test_a_plain_message_costs_no_more_query(table):  # noqa: F811
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    post(table.alice, "warm up", lambda fn: fn(), campaign_id=table.campaign.pk)
    with CaptureQueriesContext(connection) as queries:
        post(table.alice, "hello all", lambda fn: fn(), campaign_id=table.campaign.pk)
    assert not any("auth_user" in q["sql"] and "username" in q["sql"] and " IN " in q["sql"]
                   for q in queries.captured_queries)
