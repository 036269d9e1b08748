"""Faction pages: who may do what (each operation, each role, with htmx and without), refused
input answered with its code and nothing changed, the fragments, CSRF, and pinned query counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from factions import services
from factions.models import Faction, JoinRequest, Membership
from tests import factories
from tests.factions.conftest import (ROLE_CHARACTER, ROLES, member_names, otto_invitation,
                                     otto_request, page_client, state)

HTMX = {"HTTP_HX_REQUEST": "true"}
OK, NOT_FOUND, LOGIN = "ok", "404", "login"


def err(code):
    return ("error", code)


LEADER_ONLY = {"leader": OK, "member": NOT_FOUND, "other": NOT_FOUND, "gm": NOT_FOUND,
               "anonymous": LOGIN}


@dataclass
class Op:
    name: str
    url: Callable  # (world, target) -> url
    expect: dict
    done: Callable  # (world, target) -> bool: the change happened
    data: Callable = lambda w, role, target: {}
    setup: Callable | None = None  # (world) -> target
    extra: dict = field(default_factory=dict)


def own_character(w, role, target=None):
    return {"character": w.char(ROLE_CHARACTER[role]).pk}


def pending(target, state):
    return JoinRequest.objects.get(pk=target.pk).state == state


OPS = [
    Op("create", lambda w, t: reverse("factions:list", args=[w.campaign.pk]),
       {"leader": err("already_in_faction"), "member": err("already_in_faction"), "other": OK,
        "gm": NOT_FOUND, "anonymous": LOGIN},
       lambda w, t: Faction.objects.filter(name="Newcomers", leader=w.char("Otto")).exists(),
       data=lambda w, role, t: {**own_character(w, role), "name": "Newcomers",
                                "description": "", "is_public": "private"}),
    Op("join-private", lambda w, t: reverse("factions:join", args=[w.wolves.pk]),
       {"leader": err("already_in_faction"), "member": err("already_in_faction"), "other": OK,
        "gm": NOT_FOUND, "anonymous": LOGIN},
       lambda w, t: JoinRequest.objects.filter(faction=w.wolves, character=w.char("Otto"),
                                               kind="request", state="pending").exists(),
       data=own_character),
    Op("join-public", lambda w, t: reverse("factions:join", args=[w.ravens.pk]),
       {"leader": err("already_in_faction"), "member": err("already_in_faction"), "other": OK,
        "gm": NOT_FOUND, "anonymous": LOGIN},
       lambda w, t: "Otto" in member_names(w.ravens), data=own_character),
    Op("leave", lambda w, t: reverse("factions:leave", args=[w.wolves.pk]),
       {"leader": err("leader_must_hand_over"), "member": OK, "other": err("not_a_member"),
        "gm": NOT_FOUND, "anonymous": LOGIN},
       lambda w, t: member_names(w.wolves) == {"Lea"}, data=own_character),
    Op("invite", lambda w, t: reverse("factions:invite", args=[w.wolves.pk]), LEADER_ONLY,
       lambda w, t: JoinRequest.objects.filter(faction=w.wolves, character=w.char("Otto"),
                                               kind="invitation").exists(),
       data=lambda w, role, t: {"character": w.char("Otto").pk}),
    Op("answer-request", lambda w, t: reverse("factions:answer", args=[w.wolves.pk, t.pk]),
       LEADER_ONLY, lambda w, t: "Otto" in member_names(w.wolves) and pending(t, "accepted"),
       data=lambda w, role, t: {"accept": "accept", "page": "manage"}, setup=otto_request),
    Op("refuse-request", lambda w, t: reverse("factions:answer", args=[w.wolves.pk, t.pk]),
       LEADER_ONLY, lambda w, t: "Otto" not in member_names(w.wolves) and pending(t, "refused"),
       data=lambda w, role, t: {"accept": "refuse", "page": "manage"}, setup=otto_request),
    Op("answer-invitation", lambda w, t: reverse("factions:answer", args=[w.wolves.pk, t.pk]),
       {"leader": NOT_FOUND, "member": NOT_FOUND, "other": OK, "gm": NOT_FOUND,
        "anonymous": LOGIN},
       lambda w, t: "Otto" in member_names(w.wolves) and pending(t, "accepted"),
       data=lambda w, role, t: {"accept": "accept"}, setup=otto_invitation),
    Op("withdraw-request", lambda w, t: reverse("factions:withdraw", args=[w.wolves.pk, t.pk]),
       {"leader": NOT_FOUND, "member": NOT_FOUND, "other": OK, "gm": NOT_FOUND,
        "anonymous": LOGIN},
       lambda w, t: pending(t, "withdrawn"), setup=otto_request),
    Op("withdraw-invitation",
       lambda w, t: reverse("factions:withdraw", args=[w.wolves.pk, t.pk]), LEADER_ONLY,
       lambda w, t: pending(t, "withdrawn"), data=lambda w, role, t: {"page": "manage"},
       setup=otto_invitation),
    Op("remove", lambda w, t: reverse("factions:remove", args=[w.wolves.pk]), LEADER_ONLY,
       lambda w, t: member_names(w.wolves) == {"Lea"},
       data=lambda w, role, t: {"character": w.char("Max").pk}),
    Op("transfer", lambda w, t: reverse("factions:transfer", args=[w.wolves.pk]), LEADER_ONLY,
       lambda w, t: Faction.objects.get(pk=w.wolves.pk).leader_id == w.char("Max").pk,
       data=lambda w, role, t: {"character": w.char("Max").pk}),
    Op("dissolve", lambda w, t: reverse("factions:dissolve", args=[w.wolves.pk]), LEADER_ONLY,
       lambda w, t: not Faction.objects.filter(pk=w.wolves.pk).exists()),
]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_each_operation_for_each_role(world, op, role, htmx):
    target = op.setup(world) if op.setup else None
    before = state()
    response = page_client(world, role).post(op.url(world, target),
                                             op.data(world, role, target),
                                             **(HTMX if htmx else {}))
    expected = op.expect[role]
    if expected == OK:
        assert op.done(world, target)
        if htmx:
            assert response.status_code == 200, response.content
            if "HX-Redirect" not in response.headers:
                assert 'data-testid="notice"' in response.content.decode()
        else:
            assert response.status_code == 302
        return
    if expected == LOGIN:
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif expected == NOT_FOUND:
        assert response.status_code == 404
    else:
        code = expected[1]
        if htmx:
            assert response.status_code == 200
            assert f'data-code="{code}"' in response.content.decode()
        else:  # back to the page, the message in the session
            assert response.status_code == 302 and "/factions/" in response["Location"]
    assert state() == before


# --- reading the pages ---------------------------------------------------------------------------

@pytest.mark.parametrize("role,status", [("leader", 200), ("member", 200), ("other", 200),
                                         ("gm", 200), ("anonymous", 302)])
def test_campaign_list_page(world, role, status):
    response = page_client(world, role).get(reverse("factions:list", args=[world.campaign.pk]))
    assert response.status_code == status
    if status == 200:
        html = response.content.decode()
        assert f'data-testid="faction-{world.wolves.pk}"' in html
        assert "Wolves" in html and "Ravens" in html and "Lea" in html
        # Only a player with a character free of a faction gets the creation form.
        assert ('data-testid="create"' in html) == (role == "other")


@pytest.mark.parametrize("role,members_shown,manage_link",
                         [("leader", True, True), ("member", True, False),
                          ("other", False, False), ("gm", True, False)])
def test_private_faction_page_shows_members_only_to_those_allowed(world, role, members_shown,
                                                                  manage_link):
    html = page_client(world, role).get(
        reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert "Wolves" in html and "Pack hunters." in html and 'data-testid="leader">Lea' in html
    assert 'data-testid="size">2<' in html and "private" in html
    assert ('data-testid="member-Max"' in html) == members_shown
    assert ('data-testid="members-hidden"' in html) == (not members_shown)
    assert ('data-testid="manage"' in html) == manage_link


def test_staff_sees_the_members_of_a_private_faction(world):
    client = Client()
    client.force_login(factories.user("sam", is_staff=True))
    html = client.get(reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert 'data-testid="member-Max"' in html


def test_public_faction_page_shows_members_to_everyone(world):
    html = page_client(world, "other").get(
        reverse("factions:detail", args=[world.ravens.pk])).content.decode()
    assert 'data-testid="member-Rita"' in html
    assert 'data-testid="join-Otto"' in html and "Join with Otto" in html


def test_faction_page_buttons_follow_the_viewer(world):
    other = page_client(world, "other").get(
        reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert "Ask to join with Otto" in other and 'data-testid="leave-' not in other
    member = page_client(world, "member").get(
        reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert 'data-testid="leave-Max"' in member and 'data-testid="join-' not in member


def test_faction_page_shows_own_request_and_invitation(world):
    otto_request(world)
    html = page_client(world, "other").get(
        reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert 'data-testid="withdraw-Otto"' in html and 'data-testid="join-Otto"' not in html
    JoinRequest.objects.update(state="withdrawn")
    otto_invitation(world)
    html = page_client(world, "other").get(
        reverse("factions:detail", args=[world.wolves.pk])).content.decode()
    assert 'data-testid="accept-Otto"' in html and 'data-testid="refuse-Otto"' in html
    listing = page_client(world, "other").get(
        reverse("factions:list", args=[world.campaign.pk])).content.decode()
    assert "Wolves invites Otto" in listing


@pytest.mark.parametrize("role,status", [("leader", 200), ("member", 404), ("other", 404),
                                         ("gm", 404), ("anonymous", 302)])
def test_manage_page_only_for_the_leader(world, role, status):
    response = page_client(world, role).get(reverse("factions:manage", args=[world.wolves.pk]))
    assert response.status_code == status


def test_manage_page_lists_members_requests_invitations_and_candidates(world):
    otto_request(world)
    extra = factories.character(owner=world.users["otto"], campaign=world.campaign,
                                name="Nina", at=(9, 9), seed=9)
    services.faction_invite(user=world.users["lea"], faction_id=world.wolves.pk,
                            character_id=extra.pk)
    Character.objects.filter(pk=world.char("Max").pk).update(last_action_at=None)
    html = page_client(world, "leader").get(
        reverse("factions:manage", args=[world.wolves.pk])).content.decode()
    assert 'data-testid="member-Lea"' in html and 'data-testid="member-Max"' in html
    assert 'data-testid="remove-Max"' in html and 'data-testid="remove-Lea"' not in html
    assert 'data-testid="transfer-Max"' in html
    assert 'data-testid="accept-Otto"' in html and 'data-testid="withdraw-Nina"' in html
    assert "never" in html  # Max never acted
    assert 'hx-confirm="Dissolve the faction?' in html
    # Otto asked and Nina is invited: nobody else is free to invite (Rita leads the Ravens).
    assert 'data-testid="invite"' not in html


def test_the_nav_and_the_sheet_link_to_factions(world):
    client = page_client(world, "member")
    html = client.get(reverse("characters:detail", args=[world.char("Max").pk])).content.decode()
    assert reverse("factions:index") in html
    assert f'href="{reverse("factions:detail", args=[world.wolves.pk])}" data-testid="faction"' \
        in html and "Faction: Wolves" in html
    html = page_client(world, "other").get(
        reverse("characters:detail", args=[world.char("Otto").pk])).content.decode()
    assert f'href="{reverse("factions:list", args=[world.campaign.pk])}" data-testid="faction"' \
        in html
    index = client.get(reverse("factions:index")).content.decode()
    assert 'data-testid="mine-Max"' in index and "Wolves" in index


# --- flows and refusals --------------------------------------------------------------------------

def test_create_refuses_a_taken_name_with_its_code_and_keeps_the_form(world):
    client = page_client(world, "other")
    before = state()
    response = client.post(reverse("factions:list", args=[world.campaign.pk]),
                           {"character": world.char("Otto").pk, "name": "wolves",
                            "description": "Copycats", "is_public": "public"}, **HTMX)
    html = response.content.decode()
    assert 'data-code="faction_name_taken"' in html
    assert 'value="wolves"' in html and "Copycats" in html
    assert state() == before


@pytest.mark.parametrize("data,code", [
    ({"name": "", "is_public": "public"}, "invalid_input"),
    ({"name": "x" * 81, "is_public": "public"}, "invalid_input"),
    ({"name": "   ", "is_public": "public"}, "invalid_input"),
    ({"name": "Fine", "is_public": "maybe"}, "invalid_input"),
])
def test_create_refuses_bad_input(world, data, code):
    before = state()
    html = page_client(world, "other").post(
        reverse("factions:list", args=[world.campaign.pk]),
        {"character": world.char("Otto").pk, **data}, **HTMX).content.decode()
    assert f'data-code="{code}"' in html
    assert state() == before


def test_create_refuses_a_character_of_another_campaign(world):
    elsewhere = factories.campaign(name="Elsewhere")
    stranger = factories.character(owner=world.users["otto"], campaign=elsewhere, name="Far")
    before = state()
    html = page_client(world, "other").post(
        reverse("factions:list", args=[world.campaign.pk]),
        {"character": stranger.pk, "name": "Far away", "is_public": "public"},
        **HTMX).content.decode()
    assert 'data-code="invalid_input"' in html and "another campaign" in html
    assert state() == before


def test_create_without_js_redirects_and_lists_the_new_faction(world):
    client = page_client(world, "other")
    response = client.post(reverse("factions:list", args=[world.campaign.pk]),
                           {"character": world.char("Otto").pk, "name": "Owls",
                            "description": "Night", "is_public": "public"}, follow=True)
    html = response.content.decode()
    assert "Faction created." in html and "Owls" in html
    owls = Faction.objects.get(name="Owls")
    assert (owls.leader_id, owls.is_public, member_names(owls)) == (
        world.char("Otto").pk, True, {"Otto"})


def test_refusal_without_js_comes_back_as_a_message(world):
    response = page_client(world, "leader").post(
        reverse("factions:leave", args=[world.wolves.pk]),
        {"character": world.char("Lea").pk}, follow=True)
    assert "Hand the leadership to another member before leaving." in response.content.decode()


def test_join_twice_while_pending_is_refused(world):
    otto_request(world)
    before = state()
    html = page_client(world, "other").post(
        reverse("factions:join", args=[world.wolves.pk]),
        {"character": world.char("Otto").pk}, **HTMX).content.decode()
    assert 'data-code="invalid_input"' in html
    assert state() == before


@pytest.mark.parametrize("data", [{}, {"character": "abc"}, {"character": "0"}])
def test_malformed_character_is_invalid_input(world, data):
    before = state()
    html = page_client(world, "leader").post(
        reverse("factions:invite", args=[world.wolves.pk]), data, **HTMX).content.decode()
    assert 'data-code="invalid_input"' in html
    assert state() == before


def test_answer_twice_is_request_closed(world):
    request = otto_request(world)
    client = page_client(world, "leader")
    url = reverse("factions:answer", args=[world.wolves.pk, request.pk])
    client.post(url, {"accept": "refuse", "page": "manage"}, **HTMX)
    before = state()
    html = client.post(url, {"accept": "accept", "page": "manage"}, **HTMX).content.decode()
    assert 'data-code="request_closed"' in html and 'id="manage"' in html
    assert state() == before


def test_remove_self_and_non_member_are_refused(world):
    client = page_client(world, "leader")
    url = reverse("factions:remove", args=[world.wolves.pk])
    before = state()
    assert 'data-code="invalid_input"' in client.post(
        url, {"character": world.char("Lea").pk}, **HTMX).content.decode()
    assert 'data-code="not_a_member"' in client.post(
        url, {"character": world.char("Otto").pk}, **HTMX).content.decode()
    assert 'data-code="not_a_member"' in client.post(
        reverse("factions:transfer", args=[world.wolves.pk]),
        {"character": world.char("Otto").pk}, **HTMX).content.decode()
    assert 'data-code="already_in_faction"' in client.post(
        reverse("factions:invite", args=[world.wolves.pk]),
        {"character": world.char("Rita").pk}, **HTMX).content.decode()
    assert state() == before


def test_transfer_sends_the_former_leader_to_the_faction_page(world):
    response = page_client(world, "leader").post(
        reverse("factions:transfer", args=[world.wolves.pk]),
        {"character": world.char("Max").pk}, **HTMX)
    assert response.headers["HX-Redirect"] == reverse("factions:detail", args=[world.wolves.pk])
    assert page_client(world, "member").get(
        reverse("factions:manage", args=[world.wolves.pk])).status_code == 200


def test_dissolve_sends_to_the_campaign_list(world):
    response = page_client(world, "leader").post(
        reverse("factions:dissolve", args=[world.wolves.pk]), **HTMX)
    assert response.headers["HX-Redirect"] == reverse("factions:list", args=[world.campaign.pk])
    assert not Membership.objects.filter(character=world.char("Max")).exists()


def test_a_leader_alone_who_leaves_dissolves_the_faction(world):
    client = page_client(world, "leader")
    client.post(reverse("factions:remove", args=[world.wolves.pk]),
                {"character": world.char("Max").pk})
    response = client.post(reverse("factions:leave", args=[world.wolves.pk]),
                           {"character": world.char("Lea").pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("factions:list", args=[world.campaign.pk])
    assert not Faction.objects.filter(pk=world.wolves.pk).exists()


def test_leave_from_a_stale_page_of_another_faction_is_refused(world):
    """Max's page of the Ravens says he may leave: he is in the Wolves, nothing happens."""
    before = state()
    html = page_client(world, "member").post(
        reverse("factions:leave", args=[world.ravens.pk]),
        {"character": world.char("Max").pk}, **HTMX).content.decode()
    assert 'data-code="not_a_member"' in html
    assert state() == before


def test_posts_need_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["lea"])
    before = state()
    response = client.post(reverse("factions:dissolve", args=[world.wolves.pk]))
    assert response.status_code == 403
    assert state() == before
    html = client.get(reverse("factions:manage", args=[world.wolves.pk])).content.decode()
    assert html.count("csrfmiddlewaretoken") >= 5 and "X-CSRFToken" in html


def test_get_is_not_allowed_on_actions(world):
    client = page_client(world, "leader")
    assert client.get(reverse("factions:dissolve", args=[world.wolves.pk])).status_code == 405


def test_unknown_faction_is_404(world):
    client = page_client(world, "leader")
    assert client.get(reverse("factions:detail", args=[999999])).status_code == 404
    assert client.get(reverse("factions:list", args=[999999])).status_code == 404
    assert client.post(reverse("factions:dissolve", args=[999999])).status_code == 404


def test_pages_in_french(world):
    client = page_client(world, "leader")
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    html = client.get(reverse("factions:manage", args=[world.wolves.pk])).content.decode()
    assert "Dissoudre la faction" in html and "Inviter" in html
    html = client.post(reverse("factions:leave", args=[world.wolves.pk]),
                       {"character": world.char("Lea").pk}, **HTMX).content.decode()
    assert "Confiez la direction à un autre membre avant de partir." in html


# --- pinned query counts -------------------------------------------------------------------------

# Session, user, the faction (campaign, leader, size), the viewer's characters, their pending
# requests here, the members.
DETAIL_QUERIES = 6
# Session, user, the faction, the members with their sheets, the pending requests and
# invitations, the characters without a faction.
MANAGE_QUERIES = 6


@pytest.fixture(params=[2, 20], ids=["2-members", "20-members"])
def crowded(request, world):
    """The Wolves with ``param`` members, as many pending requests and free characters."""
    for i in range(request.param - 2):
        owner = factories.user(f"m{i}")
        c = factories.character(owner=owner, campaign=world.campaign, name=f"M{i:02}",
                                seed=i)
        Membership.objects.create(faction=world.wolves, character=c)
        asker = factories.character(owner=owner, campaign=world.campaign, name=f"A{i:02}",
                                    seed=i)
        JoinRequest.objects.create(faction=world.wolves, character=asker, kind="request")
    assert Membership.objects.filter(faction=world.wolves).count() == request.param
    return world


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_faction_page_queries(crowded, django_assert_num_queries, extra):
    client = page_client(crowded, "leader")
    with django_assert_num_queries(DETAIL_QUERIES):
        response = client.get(reverse("factions:detail", args=[crowded.wolves.pk]), **extra)
    assert response.content.decode().count('data-testid="member-') == \
        Membership.objects.filter(faction=crowded.wolves).count()


def test_faction_page_queries_for_a_member(crowded, django_assert_num_queries):
    """A member of a private faction: one more, the member check of ``view_members``."""
    client = page_client(crowded, "member")
    with django_assert_num_queries(DETAIL_QUERIES + 1):
        client.get(reverse("factions:detail", args=[crowded.wolves.pk]))


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_manage_page_queries(crowded, django_assert_num_queries, extra):
    client = page_client(crowded, "leader")
    with django_assert_num_queries(MANAGE_QUERIES):
        response = client.get(reverse("factions:manage", args=[crowded.wolves.pk]), **extra)
    html = response.content.decode()
    assert html.count('data-testid="member-') == \
        Membership.objects.filter(faction=crowded.wolves).count()
    assert html.count('data-testid="accept-') == JoinRequest.objects.filter(
        faction=crowded.wolves, state="pending").count()


def test_campaign_list_queries(crowded, django_assert_num_queries):
    # Session, user, campaign, factions with leader and size, free characters, invitations.
    client = page_client(crowded, "other")
    with django_assert_num_queries(6):
        response = client.get(reverse("factions:list", args=[crowded.campaign.pk]))
    assert 'data-testid="create"' in response.content.decode()
