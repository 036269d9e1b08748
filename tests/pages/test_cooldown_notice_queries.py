"""Pinned query counts of what issue 8 (items 21, 22) adds to pages: the cooldown notice on the
character list and its dismissal, with few or many characters."""

from datetime import timedelta

import pytest
from django.urls import reverse

from combat.cooldowns import cooldowns_release
from combat.services import character_suicide
from tests import factories
from tests.pages.conftest import HTMX
from tests.services.conftest import NOW

# Session, user, the characters with campaign, sheet and board, the creation form's campaigns.
LIST_QUERIES = 4
# Session, user, the UPDATE; then the sheet fragment: character, items, log, rolls.
DISMISS_QUERIES = 7


@pytest.fixture(params=[2, 20], ids=["2-characters", "20-characters"])
def noticed(request, alice):
    campaign = factories.campaign(width=30, height=30)
    characters = []
    for i in range(request.param):
        c = factories.character(owner=alice, campaign=campaign, name=f"C{i:02}", at=(i, 0),
                                now=NOW)
        character_suicide(user=alice, character_id=c.pk, now=NOW)
        characters.append(c)
    cooldowns_release(now=NOW + timedelta(hours=6))
    return characters


def test_list_queries(alice_client, noticed, django_assert_num_queries):
    with django_assert_num_queries(LIST_QUERIES):
        response = alice_client.get(reverse("characters:list"))
    assert response.content.decode().count("may reincarnate</span>") == len(noticed)


def test_dismiss_queries(alice_client, noticed, django_assert_num_queries):
    with django_assert_num_queries(DISMISS_QUERIES):
        response = alice_client.post(reverse("characters:dismiss-notice", args=[noticed[0].pk]),
                                     **HTMX)
    assert response.status_code == 200
    assert 'data-testid="cooldown-notice"' not in response.content.decode()
