"""Players of a closed campaign (issue 22, item 1; docs/campaigns.md, "Players"): invitations
(a link or a code; expiring, limited, revocable) and requests to join (asked, accepted or
refused) make a CampaignMember, and campaigns.permissions.admits lets a member (and whoever
oversees the campaign) make a character in a closed campaign at every creation path. A table
of roles against the members' pages; refusals coded and in words, nothing changed; two users
racing for an invitation's last use get one membership and one ``invitation_used_up``."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.errors import (AlreadyAdmitted, CampaignClosed, Forbidden, InvalidInput,
                              InvitationRefused, NotFound)
from campaigns.membership import (invitation_accept, invitation_create, invitation_revoke,
                                  join_request_answer, join_request_create,
                                  join_request_withdraw, on_join_request)
from campaigns.models import CampaignInvitation, CampaignJoinRequest, CampaignMember
from campaigns.permissions import admits
from campaigns.selectors import campaigns_admitting
from campaigns.services import campaign_master_add
from tests import factories
from tests.concurrency import run_together
from tests.homebrew.conftest import SPREAD

HTMX = {"HTTP_HX_REQUEST": "true"}
APTITUDES = {a: 15 for a in ("COG", "COO", "INT", "REF", "SAV", "SOM", "WIL")}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def members_of(campaign) -> list[str]:
    return sorted(CampaignMember.objects.filter(campaign=campaign)
                  .values_list("user__username", flat=True))


def state_of(campaign) -> tuple:
    """Every row this feature writes for ``campaign``: unchanged by a refusal."""
    return (members_of(campaign),
            sorted(CampaignInvitation.objects.filter(campaign=campaign)
                   .values_list("code", "uses", "revoked_at")),
            sorted(CampaignJoinRequest.objects.filter(campaign=campaign)
                   .values_list("user__username", "state")))


@pytest.fixture
def cw(db):
    """A closed homebrew campaign taking requests: its GM, carol its co-GM, alice a player
    (a member with a character), a stranger, a staff member; and an open campaign."""
    from homebrew.services import homebrew_character_create

    w = type("W", (), {})()
    w.gm = factories.user("gm")
    w.carol = factories.user("carol")
    w.alice = factories.user("alice")
    w.stranger = factories.user("stranger")
    w.staff = factories.user("staffer", is_staff=True)
    w.campaign = factories.HomebrewCampaignFactory(name="Closed", game_master=w.gm,
                                                   is_open=False, accepts_requests=True)
    w.open = factories.HomebrewCampaignFactory(name="Open", game_master=w.gm)
    campaign_master_add(user=w.gm, campaign_id=w.campaign.pk, username="carol")
    w.campaign.refresh_from_db()
    w.invitation = invitation_create(user=w.gm, campaign_id=w.campaign.pk)
    invitation_accept(user=w.alice, code=w.invitation.code)
    w.aria = homebrew_character_create(user=w.alice, campaign=w.campaign, name="Aria",
                                       values=SPREAD)
    return w


# --- admits, the one predicate ----------------------------------------------------------------

def test_admits_a_member_and_whoever_oversees_a_closed_campaign(cw):
    for user in (cw.gm, cw.carol, cw.alice, cw.staff):
        assert admits(user, cw.campaign)
    assert not admits(cw.stranger, cw.campaign)
    assert admits(cw.stranger, cw.open)
    cw.stranger.is_active = False
    assert not admits(cw.stranger, cw.open)
    from django.contrib.auth.models import AnonymousUser
    assert not admits(AnonymousUser(), cw.open)


def test_admits_costs_a_query_only_for_a_closed_campaign_not_overseen(
        cw, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert admits(cw.stranger, cw.open) and admits(cw.carol, cw.campaign)
    with django_assert_num_queries(1):
        assert admits(cw.alice, cw.campaign)


def test_the_lists_to_create_in_are_the_campaigns_admitting(cw):
    def names(user):
        return [c.name for c in campaigns_admitting(user=user)]
    assert names(cw.stranger) == ["Open"]
    assert names(cw.alice) == ["Closed", "Open"]
    assert names(cw.carol) == ["Closed", "Open"]
    assert names(cw.staff) == ["Closed", "Open"]
    html = client_of(cw.stranger).get(reverse("characters:list")).content.decode()
    assert "Open</option>" in html and "Closed</option>" not in html
    html = client_of(cw.alice).get(reverse("characters:list")).content.decode()
    assert "Closed</option>" in html
    api = client_of(cw.alice).get("/api/campaigns/").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert [c["name"] for c in rows] == ["Closed", "Open"]


# --- the five creation places: a member of a closed campaign, a stranger ---------------------

def _ew1(cw):
    campaign = factories.campaign(name="EW closed")
    campaign.is_open, campaign.game_master = False, cw.gm
    campaign.save()
    invitation = invitation_create(user=cw.gm, campaign_id=campaign.pk)
    invitation_accept(user=cw.carol, code=invitation.code)  # carol: a member here
    return campaign


def _create_ew1(user, campaign, name):
    from characters.services import character_create
    return character_create(user=user, campaign=campaign, name=name, rng=random.Random(1))


def _draft(user, campaign, name):
    from ew1.creation import draft_roll
    return draft_roll(user=user, campaign=campaign, name=name, rng=random.Random(1))


def _confirm(user, campaign, name):
    """A draft rolled while the campaign was open, confirmed once it is closed: the
    confirmation asks again."""
    from campaigns.models import Campaign
    from ew1.creation import draft_confirm, draft_roll
    Campaign.objects.filter(pk=campaign.pk).update(is_open=True)
    campaign.is_open = True
    draft = draft_roll(user=user, campaign=campaign, name=name, rng=random.Random(1))
    Campaign.objects.filter(pk=campaign.pk).update(is_open=False)
    campaign.is_open = False
    return draft_confirm(user=user, draft_id=draft.pk, rng=random.Random(2))


def _homebrew(user, campaign, name):
    from homebrew.services import homebrew_character_create
    return homebrew_character_create(user=user, campaign=campaign, name=name, values=SPREAD)


def _eclipse(user, campaign, name):
    from eclipse.services import eclipse_character_create
    return eclipse_character_create(user=user, campaign=campaign, name=name,
                                    aptitudes=APTITUDES)


def _closed(cw, factory):
    campaign = factory(name="Closed " + factory.__name__, game_master=cw.gm, is_open=False)
    invitation = invitation_create(user=cw.gm, campaign_id=campaign.pk)
    invitation_accept(user=cw.carol, code=invitation.code)
    return campaign


@pytest.mark.parametrize("place", ["ew1", "draft", "confirm", "homebrew", "eclipse"])
def test_each_creation_place_admits_a_member_and_refuses_a_stranger(cw, place):
    from characters.models import Character
    create = {"ew1": _create_ew1, "draft": _draft, "confirm": _confirm, "homebrew": _homebrew,
              "eclipse": _eclipse}[place]
    if place in ("ew1", "draft", "confirm"):
        campaign = _ew1(cw)
    elif place == "homebrew":
        campaign = _closed(cw, factories.HomebrewCampaignFactory)
    else:
        campaign = _closed(cw, factories.EclipseCampaignFactory)
    made = create(cw.carol, campaign, "Carla")
    assert made.campaign_id == campaign.pk
    before = Character.objects.count()
    with pytest.raises(CampaignClosed) as refused:
        create(cw.stranger, campaign, "Stan")
    assert refused.value.code == "campaign_closed"
    assert Character.objects.count() == before


# --- invitations -------------------------------------------------------------------------------

def test_an_invitation_makes_a_member_once_and_counts_its_uses(cw):
    invitation = invitation_create(user=cw.carol, campaign_id=cw.campaign.pk, days="7",
                                   max_uses="2")
    assert len(invitation.code) == 22 and invitation.max_uses == 2
    assert invitation.expires_at - timezone.now() > timedelta(days=6, hours=23)
    bob = factories.user("bob")
    member = invitation_accept(user=bob, code=invitation.code)
    assert member.via == "invitation" and member.invitation_id == invitation.pk
    assert admits(bob, cw.campaign)
    with pytest.raises(AlreadyAdmitted) as again:
        invitation_accept(user=bob, code=invitation.code)
    assert again.value.code == "already_member"
    with pytest.raises(AlreadyAdmitted) as gm:
        invitation_accept(user=cw.carol, code=invitation.code)
    assert gm.value.code == "already_runs_campaign"
    invitation.refresh_from_db()
    assert invitation.uses == 1  # the refusals counted nothing


@pytest.mark.parametrize("make", ["used_up", "expired", "revoked"])
def test_an_invitation_that_admits_no_more_says_why(cw, make):
    invitation = invitation_create(user=cw.gm, campaign_id=cw.campaign.pk, max_uses=1)
    if make == "used_up":
        invitation_accept(user=factories.user("first"), code=invitation.code)
    elif make == "expired":
        CampaignInvitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1))
    else:
        invitation_revoke(user=cw.carol, campaign_id=cw.campaign.pk,
                          invitation_id=invitation.pk)
    before = state_of(cw.campaign)
    with pytest.raises(InvitationRefused) as refused:
        invitation_accept(user=cw.stranger, code=invitation.code)
    assert refused.value.code == f"invitation_{make}" and refused.value.status == 409
    assert state_of(cw.campaign) == before and not admits(cw.stranger, cw.campaign)


@pytest.mark.parametrize("code", ["", "nope", "x" * 400, "a\x00b", "é" * 10])
def test_a_code_that_is_none_is_not_found(cw, code):
    with pytest.raises(NotFound) as refused:
        invitation_accept(user=cw.stranger, code=code)
    assert refused.value.key == "no_such_invitation"


@pytest.mark.parametrize(("days", "uses", "key"), [
    ("0", "", "invitation_days"), ("366", "", "invitation_days"), ("-1", "", "invitation_days"),
    ("1.5", "", "invitation_days"), ("x", "", "invitation_days"), ("٣", "", "invitation_days"),
    ("", "0", "invitation_uses"), ("", "1001", "invitation_uses"), ("", "9" * 30, "invitation_uses"),
    (True, "", "invitation_days"),
])
def test_an_invitation_out_of_bounds_is_refused(cw, days, uses, key):
    before = state_of(cw.campaign)
    with pytest.raises(InvalidInput) as refused:
        invitation_create(user=cw.gm, campaign_id=cw.campaign.pk, days=days, max_uses=uses)
    assert refused.value.key == key
    assert state_of(cw.campaign) == before


def test_only_who_oversees_makes_or_revokes_invitations(cw):
    before = state_of(cw.campaign)
    for outsider in (cw.alice, cw.stranger):
        with pytest.raises(NotFound):
            invitation_create(user=outsider, campaign_id=cw.campaign.pk)
        with pytest.raises(NotFound):
            invitation_revoke(user=outsider, campaign_id=cw.campaign.pk,
                              invitation_id=cw.invitation.pk)
    other = invitation_create(user=cw.gm, campaign_id=cw.open.pk)
    with pytest.raises(NotFound) as wrong:  # another campaign's invitation
        invitation_revoke(user=cw.carol, campaign_id=cw.campaign.pk, invitation_id=other.pk)
    assert wrong.value.key == "no_such_invitation"
    assert state_of(cw.campaign) == before
    invitation_create(user=cw.staff, campaign_id=cw.campaign.pk)


def test_a_revoked_invitation_leaves_its_members_in(cw):
    invitation_revoke(user=cw.gm, campaign_id=cw.campaign.pk, invitation_id=cw.invitation.pk)
    invitation_revoke(user=cw.gm, campaign_id=cw.campaign.pk, invitation_id=cw.invitation.pk)
    assert admits(cw.alice, cw.campaign)


def test_an_inactive_or_anonymous_user_accepts_nothing(cw):
    from django.contrib.auth.models import AnonymousUser
    cw.stranger.is_active = False
    for user in (cw.stranger, AnonymousUser()):
        with pytest.raises(Forbidden):
            invitation_accept(user=user, code=cw.invitation.code)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_users_racing_for_the_last_use_get_one_membership():
    gm = factories.user("gm")
    one, two = factories.user("one"), factories.user("two")
    campaign = factories.HomebrewCampaignFactory(name="Race", game_master=gm, is_open=False)
    invitation = invitation_create(user=gm, campaign_id=campaign.pk, max_uses=1)
    for _round in range(3):
        results = run_together(lambda: invitation_accept(user=one, code=invitation.code),
                               lambda: invitation_accept(user=two, code=invitation.code))
        if _round == 0:
            assert sum(isinstance(r, CampaignMember) for r in results) == 1
            assert [r.code for r in results if isinstance(r, Exception)] == [
                "invitation_used_up"]
        else:  # one is a member now: the other is still refused, nothing counted
            assert all(isinstance(r, (InvitationRefused, AlreadyAdmitted)) for r in results)
    invitation.refresh_from_db()
    assert invitation.uses == 1 and CampaignMember.objects.filter(campaign=campaign).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_user_twice_at_once_joins_once():
    gm, one = factories.user("gm"), factories.user("one")
    campaign = factories.HomebrewCampaignFactory(name="Twice", game_master=gm, is_open=False)
    invitation = invitation_create(user=gm, campaign_id=campaign.pk)
    results = run_together(lambda: invitation_accept(user=one, code=invitation.code),
                           lambda: invitation_accept(user=one, code=invitation.code))
    assert sum(isinstance(r, CampaignMember) for r in results) == 1
    assert [r.code for r in results if isinstance(r, Exception)] == ["already_member"]
    invitation.refresh_from_db()
    assert invitation.uses == 1


# --- requests to join -------------------------------------------------------------------------

def test_a_request_accepted_makes_a_member_and_is_announced(cw, django_capture_on_commit_callbacks):
    heard = []
    on_join_request(lambda **kw: heard.append(kw))
    bob = factories.user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        request = join_request_create(user=bob, campaign_id=cw.campaign.pk, message=" Hello ")
    assert request.message == "Hello" and request.state == "pending"
    with pytest.raises(AlreadyAdmitted) as twice:
        join_request_create(user=bob, campaign_id=cw.campaign.pk)
    assert twice.value.code == "join_request_pending"
    assert not admits(bob, cw.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        join_request_answer(user=cw.carol, campaign_id=cw.campaign.pk, request_id=request.pk,
                            accept=True)
    assert admits(bob, cw.campaign)
    member = CampaignMember.objects.get(campaign=cw.campaign, user=bob)
    assert member.via == "request" and member.request_id == request.pk
    assert [h["event"] for h in heard][-2:] == ["asked", "accepted"]
    with pytest.raises(AlreadyAdmitted) as answered:
        join_request_answer(user=cw.gm, campaign_id=cw.campaign.pk, request_id=request.pk,
                            accept=False)
    assert answered.value.code == "join_request_answered"


def test_a_request_refused_admits_nothing_and_may_be_asked_again(cw):
    request = join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    join_request_answer(user=cw.gm, campaign_id=cw.campaign.pk, request_id=request.pk,
                        accept=False)
    request.refresh_from_db()
    assert request.state == "refused" and request.answered_by == cw.gm
    assert not admits(cw.stranger, cw.campaign)
    again = join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    join_request_withdraw(user=cw.stranger, request_id=again.pk)
    again.refresh_from_db()
    assert again.state == "withdrawn"


def test_requests_refused_say_why_and_change_nothing(cw):
    closed_to_requests = factories.HomebrewCampaignFactory(name="Private", game_master=cw.gm,
                                                           is_open=False)
    request = join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    before = state_of(cw.campaign)
    cases = [
        (dict(user=cw.alice, campaign_id=cw.campaign.pk), AlreadyAdmitted, "already_member"),
        (dict(user=cw.carol, campaign_id=cw.campaign.pk), AlreadyAdmitted,
         "already_runs_campaign"),
        (dict(user=cw.stranger, campaign_id=cw.open.pk), AlreadyAdmitted, "campaign_is_open"),
        (dict(user=cw.stranger, campaign_id=closed_to_requests.pk), NotFound, "not_found"),
        (dict(user=cw.stranger, campaign_id=10**9), NotFound, "not_found"),
        (dict(user=factories.user("bob"), campaign_id=cw.campaign.pk, message="x" * 501),
         InvalidInput, "invalid_input"),
        (dict(user=factories.user("dan"), campaign_id=cw.campaign.pk, message="a\x00"),
         InvalidInput, "invalid_input"),
    ]
    for kwargs, error, code in cases:
        with pytest.raises(error) as refused:
            join_request_create(**kwargs)
        assert refused.value.code == code, kwargs
    for outsider in (cw.alice, cw.stranger):  # a player, a stranger: no such campaign
        with pytest.raises(NotFound) as hidden:
            join_request_answer(user=outsider, campaign_id=cw.campaign.pk,
                                request_id=request.pk, accept=True)
        assert hidden.value.key == "no_such_campaign"
    with pytest.raises(NotFound) as other:  # the request of another campaign
        join_request_answer(user=cw.gm, campaign_id=cw.open.pk, request_id=request.pk,
                            accept=True)
    assert other.value.key == "no_such_request"
    with pytest.raises(NotFound):  # another's request
        join_request_withdraw(user=cw.alice, request_id=request.pk)
    assert state_of(cw.campaign) == before


def test_an_invitation_answers_a_pending_request(cw):
    request = join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    invitation_accept(user=cw.stranger, code=cw.invitation.code)
    request.refresh_from_db()
    assert request.state == "accepted"


# --- the pages, by role ------------------------------------------------------------------------

ROLES = ("gm", "co_gm", "staff", "player", "stranger")


def _user(cw, role):
    return {"gm": cw.gm, "co_gm": cw.carol, "staff": cw.staff, "player": cw.alice,
            "stranger": cw.stranger}[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_members_pages_answer_each_role(cw, role):
    oversees = role in ("gm", "co_gm", "staff")
    client = client_of(_user(cw, role))
    pk = cw.campaign.pk
    request = join_request_create(user=factories.user("bob"), campaign_id=pk)
    page = client.get(reverse("campaigns:members", args=[pk]))
    assert page.status_code == (200 if oversees else 404)
    if oversees:
        html = page.content.decode()
        assert 'data-testid="member-alice"' in html and 'data-testid="join-request-bob"' in html
        assert cw.invitation.code in html
    before = CampaignInvitation.objects.count()
    made = client.post(reverse("campaigns:invitation_new", args=[pk]), {"days": "3"})
    assert made.status_code == (302 if oversees else 404)
    assert CampaignInvitation.objects.count() == before + oversees
    revoked = client.post(reverse("campaigns:invitation_revoke", args=[pk, cw.invitation.pk]))
    assert revoked.status_code == (302 if oversees else 404)
    cw.invitation.refresh_from_db()
    assert (cw.invitation.revoked_at is not None) == oversees
    accepted = client.post(reverse("campaigns:join_request_accept", args=[pk, request.pk]))
    assert accepted.status_code == (302 if oversees else 404)
    assert ("bob" in members_of(cw.campaign)) == oversees


def test_the_members_page_query_count_is_pinned(cw, django_assert_num_queries):
    client = client_of(cw.gm)
    url = reverse("campaigns:members", args=[cw.campaign.pk])
    client.get(url)
    # the session, its user, the campaign, its members, invitations, pending requests
    with django_assert_num_queries(6):
        assert client.get(url).status_code == 200
    for n in range(4):
        bob = factories.user(f"p{n}")
        invitation_accept(user=bob, code=invitation_create(user=cw.gm,
                                                           campaign_id=cw.campaign.pk).code)
        join_request_create(user=factories.user(f"q{n}"), campaign_id=cw.campaign.pk)
    with django_assert_num_queries(6):
        assert client.get(url).status_code == 200


def test_htmx_refusals_are_the_part_with_the_coded_refusal_in_french(cw):
    client = client_of(cw.gm)
    url = reverse("campaigns:invitation_new", args=[cw.campaign.pk])
    response = client.post(url, {"days": "999"}, HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    html = response.content.decode()
    assert response.status_code == 422 and html.startswith("<section")
    assert 'data-code="invalid_input"' in html and "Une invitation dure de 1 à 365" in html
    plain = client.post(url, {"max_uses": "0"})
    assert plain.status_code == 400 and b'data-testid="members-error"' in plain.content
    done = client.post(url, {"max_uses": "5"}, **HTMX)
    assert done.status_code == 200 and b"/ 5" in done.content
    other = invitation_create(user=cw.gm, campaign_id=cw.open.pk)
    wrong = client.post(reverse("campaigns:invitation_revoke", args=[cw.campaign.pk, other.pk]))
    assert wrong.status_code == 404


def test_the_invitation_link_joins_and_refuses_in_words(cw):
    bob = factories.user("bob")
    client = client_of(bob)
    invitation = invitation_create(user=cw.gm, campaign_id=cw.campaign.pk, max_uses=1)
    url = reverse("campaigns:invitation", args=[invitation.code])
    page = client.get(url)
    assert page.status_code == 200 and b'data-testid="invitation-accept"' in page.content
    joined = client.post(url)
    assert joined.status_code == 302 and joined["Location"] == reverse("characters:list")
    assert admits(bob, cw.campaign)
    assert b"Closed</option>" in client.get(joined["Location"]).content
    late = client_of(factories.user("late")).post(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert late.status_code == 409
    assert b'data-code="invitation_used_up"' in late.content
    assert "a servi autant de fois" in late.content.decode()
    assert client.get(reverse("campaigns:invitation", args=["nope"])).status_code == 404


def test_a_signed_out_visitor_is_sent_to_log_in_or_sign_up_and_back(cw):
    url = reverse("campaigns:invitation", args=[cw.invitation.code])
    client = Client()
    response = client.get(url)
    assert response.status_code == 302
    login = response["Location"]
    assert login.startswith("/accounts/login/") and "next=" in login
    html = client.get(login).content.decode()
    signup = html.split('data-testid="signup-link"')[0].rsplit('href="', 1)[1].split('"')[0]
    assert "next=" in signup
    form = client.get(signup).content.decode()
    assert f'name="next" value="{url}"' in form
    made = client.post(reverse("signup"), {"username": "newbie", "email": "newbie@example.invalid",
                                           "password1": "S3cret-pass-99",
                                           "password2": "S3cret-pass-99", "next": url})
    assert made.status_code == 302 and made["Location"] == url
    evil = Client().post(reverse("signup"), {"username": "evil", "email": "evil@example.invalid",
                                              "password1": "S3cret-pass-99",
                                              "password2": "S3cret-pass-99",
                                              "next": "https://evil.example/"})
    assert evil.status_code == 302 and not evil["Location"].startswith("https://evil")


def test_the_join_page_asks_and_shows_where_the_reader_stands(cw, django_assert_num_queries):
    client = client_of(cw.stranger)
    url = reverse("campaigns:join")
    client.get(url)
    # the session, its user, the user's requests, the campaigns, the memberships
    with django_assert_num_queries(5):
        html = client.get(url).content.decode()
    assert f'data-testid="ask-{cw.campaign.pk}"' in html and "<strong>Open</strong>" not in html
    asked = client.post(reverse("campaigns:join_request", args=[cw.campaign.pk]),
                        {"message": "Hi"}, **HTMX)
    assert asked.status_code == 200 and b'data-status="pending"' in asked.content
    twice = client.post(reverse("campaigns:join_request", args=[cw.campaign.pk]), **HTMX)
    assert twice.status_code == 422 and b'data-code="join_request_pending"' in twice.content
    assert client.post(reverse("campaigns:join_request",
                               args=[cw.open.pk])).status_code == 409
    private = factories.HomebrewCampaignFactory(name="Private", is_open=False)
    assert client.post(reverse("campaigns:join_request",
                               args=[private.pk])).status_code == 404
    request = CampaignJoinRequest.objects.get(user=cw.stranger)
    join_request_answer(user=cw.gm, campaign_id=cw.campaign.pk, request_id=request.pk,
                        accept=False)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Votre dernière demande a été refusée." in html
    assert client.get(url, {"code": cw.invitation.code})["Location"] == reverse(
        "campaigns:invitation", args=[cw.invitation.code])
    assert client.get(url, {"code": "../x"}).status_code == 404
    # the GM's page shows a new request; the player, once a member, sees it
    join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    again = CampaignJoinRequest.objects.get(user=cw.stranger, state="pending")
    client_of(cw.gm).post(reverse("campaigns:join_request_accept",
                                  args=[cw.campaign.pk, again.pk]))
    assert 'data-status="member"' in client.get(url).content.decode()


def test_the_invitation_page_query_count_is_pinned(cw, django_assert_num_queries):
    client = client_of(cw.stranger)
    url = reverse("campaigns:invitation", args=[cw.invitation.code])
    client.get(url)
    with django_assert_num_queries(4):  # the session, its user, the invitation, the membership
        assert client.get(url).status_code == 200
    invitation_accept(user=cw.stranger, code=cw.invitation.code)
    with django_assert_num_queries(4):
        html = client.get(url).content.decode()
    assert 'data-testid="invitation-not-needed"' in html


def test_staff_oversee_every_campaigns_players(cw):
    client = client_of(cw.staff)
    assert client.get(reverse("campaigns:members", args=[cw.open.pk])).status_code == 200
    request = join_request_create(user=cw.stranger, campaign_id=cw.campaign.pk)
    refused = client.post(reverse("campaigns:join_request_refuse", args=[cw.campaign.pk,
                                                                         request.pk]))
    assert refused.status_code == 302
    request.refresh_from_db()
    assert request.state == "refused" and request.answered_by == cw.staff
