"""Issue 8, item 17: the join message says what happened; invitations and requests wait where
each person looks first (the nav's Factions page), with a count in the navigation bar."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from factions import services
from factions.models import JoinRequest
from tests import factories
from tests.factions.conftest import member_names, otto_invitation, otto_request, page_client

HTMX = {"HTTP_HX_REQUEST": "true"}


def notice(html) -> str:
    return re.search(r'data-testid="notice">([^<]*)<', html).group(1)


def test_joining_a_public_faction_says_joined(world):
    client = page_client(world, "other")
    response = client.post(reverse("factions:join", args=[world.ravens.pk]),
                           {"character": world.char("Otto").pk}, **HTMX)
    assert notice(response.content.decode()) == "Otto joined Ravens."
    assert "Otto" in member_names(world.ravens)


def test_asking_to_join_a_private_faction_says_request_sent(world):
    client = page_client(world, "other")
    response = client.post(reverse("factions:join", args=[world.wolves.pk]),
                           {"character": world.char("Otto").pk}, **HTMX)
    assert notice(response.content.decode()) == (
        "Request sent: the leader of Wolves will answer it.")


def test_without_js_the_message_says_which_too(world):
    client = page_client(world, "other")
    response = client.post(reverse("factions:join", args=[world.wolves.pk]),
                           {"character": world.char("Otto").pk})
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Request sent: the leader of Wolves will answer it."]


def test_the_invitee_sees_the_invitation_on_the_factions_page_and_accepts_it(world):
    invitation = otto_invitation(world)
    client = page_client(world, "other")
    html = client.get(reverse("factions:index")).content.decode()
    assert 'data-testid="invited-Otto"' in html and "Wolves (War) invites Otto." in html
    response = client.post(reverse("factions:answer", args=[world.wolves.pk, invitation.pk]),
                           {"accept": "accept", "page": "index"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Trigger"] == "factions-changed"
    assert html.startswith("\n<section id=\"pending\"") or '<section id="pending"' in html
    assert notice(html) == "Answer recorded."
    assert 'data-testid="invited-Otto"' not in html
    assert "Otto" in member_names(world.wolves)


def test_the_leader_sees_the_request_on_the_factions_page_and_refuses_it(world):
    request = otto_request(world)
    client = page_client(world, "leader")
    html = client.get(reverse("factions:index")).content.decode()
    assert 'data-testid="asks-Otto"' in html and "Otto asks to join Wolves." in html
    response = client.post(reverse("factions:answer", args=[world.wolves.pk, request.pk]),
                           {"accept": "refuse", "page": "index"})
    assert response.status_code == 302 and response["Location"] == reverse("factions:index")
    assert JoinRequest.objects.get(pk=request.pk).state == "refused"
    html = client.get(reverse("factions:index")).content.decode()
    assert "Answer recorded." in html and 'data-testid="asks-Otto"' not in html


def test_others_see_nothing_waiting(world):
    otto_request(world)
    for role in ("member", "gm"):
        html = page_client(world, role).get(reverse("factions:index")).content.decode()
        assert 'data-testid="asks-' not in html and 'data-testid="invited-' not in html, role


def count(client) -> str:
    return client.get(reverse("factions:pending-count")).content.decode().strip()


def test_the_navigation_loads_the_count(world):
    html = page_client(world, "other").get(reverse("factions:index")).content.decode()
    assert f'hx-get="{reverse("factions:pending-count")}"' in html


def test_the_count_is_what_waits_for_each_person(world):
    otto_request(world)  # for Lea, the Wolves' leader
    services.faction_invite(user=world.users["rita"], faction_id=world.ravens.pk,
                            character_id=world.char("Otto").pk)  # for Otto
    lea, otto, max_ = (page_client(world, r) for r in ("leader", "other", "member"))
    assert re.search(r'data-testid="pending-count"[^>]*>1</span>', count(lea))
    assert re.search(r'data-testid="pending-count"[^>]*>1</span>', count(otto))
    assert count(max_) == ""  # nothing waits: no badge


@pytest.mark.parametrize("size", [1, 20])
def test_the_count_costs_one_query(world, size, django_assert_num_queries):
    for i in range(size):
        asker = factories.character(owner=factories.user(f"a{i}"), campaign=world.campaign,
                                    name=f"A{i:02}", seed=i)
        JoinRequest.objects.create(faction=world.wolves, character=asker, kind="request")
    client = page_client(world, "leader")
    with django_assert_num_queries(3):  # session, user, the count
        body = count(client)
    assert f">{size}</span>" in body


@pytest.mark.parametrize("size", [1, 20])
def test_the_factions_page_queries(world, size, django_assert_num_queries):
    for i in range(size):
        asker = factories.character(owner=factories.user(f"a{i}"), campaign=world.campaign,
                                    name=f"A{i:02}", seed=i)
        JoinRequest.objects.create(faction=world.wolves, character=asker, kind="request")
    client = page_client(world, "leader")
    # Session, user, what waits for the user, their characters, the campaigns.
    with django_assert_num_queries(5):
        html = client.get(reverse("factions:index")).content.decode()
    assert html.count('data-testid="asks-') == size


def test_the_waiting_lists_in_french(world):
    otto_invitation(world)
    client = page_client(world, "other")
    client.cookies["django_language"] = "fr"
    html = client.get(reverse("factions:index")).content.decode()
    assert "Wolves (War) invite Otto." in html
