"""Who plays in a closed campaign (docs/campaigns.md, "Players: invitations and requests to
join"): its game masters invite by a link or a code, a signed-up user asks to join a campaign
that takes requests and its game masters accept or refuse. Both end in a ``CampaignMember``
row, which campaigns.permissions.admits reads at every character creation.

Who manages them: whoever oversees the campaign (campaigns.permissions.oversees: the game
master, co-game masters, staff). A player or a stranger is told the campaign does not exist
(NotFound), as on the masters' pages.

Listeners: ``on_join_request(callback)`` registers ``callback(request_id=, event=)``, called
after the commit of each request made ("asked"), accepted ("accepted"), refused ("refused") or
withdrawn ("withdrawn") (the notifications' hook: issue 22, item 4)."""

from __future__ import annotations

import functools

import secrets
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import AlreadyAdmitted, Forbidden, InvalidInput, InvitationRefused, NotFound
from campaigns.models import Campaign, CampaignInvitation, CampaignJoinRequest, CampaignMember
from campaigns.permissions import oversees

CODE_BYTES = 16  # secrets.token_urlsafe(16): 22 characters, 128 bits
CODE_MAX = 32  # CampaignInvitation.code's length: a longer code is none
DAYS_MAX = 365
USES_MAX = 1000
MESSAGE_MAX = 500

_LISTENERS: list[Callable[..., None]] = []


def on_join_request(callback: Callable[..., None]) -> None:
    """Call ``callback(request_id=, event=)`` after the commit of each change of a request to
    join (event: "asked", "accepted", "refused", "withdrawn"). Register from an
    ``AppConfig.ready()``; a callback registered twice is called once."""
    if callback not in _LISTENERS:
        _LISTENERS.append(callback)


def _announce(request_id: int, event: str) -> None:
    for callback in list(_LISTENERS):
        transaction.on_commit(functools.partial(callback, request_id=request_id, event=event))


def _signed_up(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def _overseen(*, user, campaign_id: int, lock: bool = False) -> Campaign:
    """The campaign if ``user`` oversees it, else NotFound (a player, a stranger: they cannot
    tell it exists)."""
    campaigns = Campaign.objects.select_for_update() if lock else Campaign.objects
    campaign = campaigns.filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    return campaign


def _whole(value, *, key: str, most: int) -> int | None:
    """``value`` (None, "" or a whole number 1..most, as an int or its digits) as an int or
    None; else InvalidInput(key, most=)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InvalidInput(key, most=most)
    if isinstance(value, str):
        value = value.strip()
        if not value.isascii() or not value.isdigit() or len(value) > len(str(most)):
            raise InvalidInput(key, most=most)
        value = int(value)
    if not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidInput(key, most=most)
    return value


# --- invitations -----------------------------------------------------------------------------

def invitation_create(*, user, campaign_id: int, days=None, max_uses=None,
                      now: datetime | None = None) -> CampaignInvitation:
    """A new invitation to the campaign, for whoever oversees it (else NotFound): valid for
    ``days`` (1..DAYS_MAX, None: no end) and ``max_uses`` times (1..USES_MAX, None: no limit);
    either out of range or not a whole number: InvalidInput (``invitation_days``,
    ``invitation_uses``). Its code: ``secrets.token_urlsafe``. Two queries."""
    campaign = _overseen(user=user, campaign_id=campaign_id)
    days = _whole(days, key="invitation_days", most=DAYS_MAX)
    max_uses = _whole(max_uses, key="invitation_uses", most=USES_MAX)
    now = now or timezone.now()
    return CampaignInvitation.objects.create(
        campaign=campaign, code=secrets.token_urlsafe(CODE_BYTES), created_by=user,
        expires_at=now + timedelta(days=days) if days else None, max_uses=max_uses)


def invitation_revoke(*, user, campaign_id: int, invitation_id: int,
                      now: datetime | None = None) -> CampaignInvitation:
    """Revoke an invitation of the campaign (whoever oversees it): it admits no one more;
    who joined by it stays a member. Revoking it again changes nothing. NotFound for another
    campaign's invitation or a campaign not overseen."""
    campaign = _overseen(user=user, campaign_id=campaign_id)
    invitation = CampaignInvitation.objects.filter(pk=invitation_id, campaign=campaign).first()
    if invitation is None:
        raise NotFound("no_such_invitation")
    if invitation.revoked_at is None:
        invitation.revoked_at = now or timezone.now()
        CampaignInvitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
            revoked_at=invitation.revoked_at)
    return invitation


def invitation_find(*, code: str) -> CampaignInvitation:
    """The invitation of ``code`` with its campaign (one query), whatever its state; NotFound
    (``no_such_invitation``) for a code none has (a malformed one included)."""
    code = (code or "").strip()
    if not code or len(code) > CODE_MAX or not code.isascii() or "\x00" in code:
        raise NotFound("no_such_invitation")
    invitation = (CampaignInvitation.objects.select_related("campaign")
                  .filter(code=code).first())
    if invitation is None:
        raise NotFound("no_such_invitation")
    return invitation


def _refuse_unusable(invitation: CampaignInvitation, now: datetime) -> None:
    state = invitation.state(now)
    if state != "usable":
        key = f"invitation_{state}"
        raise InvitationRefused(key, code=key)


def _refuse_admitted(user, campaign: Campaign) -> None:
    """AlreadyAdmitted if ``user`` needs no membership: runs the campaign, or is a member."""
    if oversees(user, campaign):
        raise AlreadyAdmitted("already_runs_campaign", code="already_runs_campaign",
                              name=campaign.name)
    if CampaignMember.objects.filter(campaign=campaign, user=user).exists():
        raise AlreadyAdmitted("already_member", name=campaign.name)


@transaction.atomic
def invitation_accept(*, user, code: str, now: datetime | None = None) -> CampaignMember:
    """Make ``user`` (signed up and active, else Forbidden) a member of the invitation's
    campaign and count the use. Locks the invitation row first (``select_for_update``), so
    that two users racing for its last use get one membership and one
    ``invitation_used_up``. Refusals: NotFound (``no_such_invitation``), InvitationRefused
    (``invitation_used_up``, ``invitation_expired``, ``invitation_revoked``), AlreadyAdmitted
    (``already_member``, ``already_runs_campaign``: the use is not counted). A pending request
    of the user to the campaign is answered by it (accepted). Five queries."""
    if not _signed_up(user):
        raise Forbidden()
    now = now or timezone.now()
    found = invitation_find(code=code)
    invitation = CampaignInvitation.objects.select_for_update().get(pk=found.pk)
    campaign = found.campaign
    _refuse_unusable(invitation, now)
    _refuse_admitted(user, campaign)
    try:
        with transaction.atomic():
            member = CampaignMember.objects.create(
                campaign=campaign, user=user, joined_at=now,
                via=CampaignMember.Via.INVITATION, invitation=invitation)
    except IntegrityError:  # the same user twice at once: the other call made it
        raise AlreadyAdmitted("already_member", name=campaign.name) from None
    CampaignInvitation.objects.filter(pk=invitation.pk).update(uses=invitation.uses + 1)
    CampaignJoinRequest.objects.filter(
        campaign=campaign, user=user, state=CampaignJoinRequest.State.PENDING).update(
        state=CampaignJoinRequest.State.ACCEPTED, answered_at=now)
    return member


# --- requests to join ------------------------------------------------------------------------

def _message(text: str) -> str:
    text = (text or "").strip()
    if len(text) > MESSAGE_MAX or any(unicodedata.category(ch) == "Cc" and ch not in "\n\r\t"
                                      for ch in text):
        raise InvalidInput("join_message_length", most=MESSAGE_MAX)
    return text


@transaction.atomic
def join_request_create(*, user, campaign_id: int, message: str = "") -> CampaignJoinRequest:
    """``user`` (signed up and active, else Forbidden) asks to join a closed campaign that
    takes requests (``Campaign.accepts_requests``), with a short ``message`` (at most
    MESSAGE_MAX characters: else InvalidInput ``join_message_length``). A campaign that takes
    none and that the user does not oversee: NotFound. Refusals: AlreadyAdmitted
    (``campaign_is_open``, ``already_runs_campaign``, ``already_member``,
    ``join_request_pending``: one pending request per user and campaign, the database's
    constraint deciding between two at once). Announced ("asked") after the commit."""
    if not _signed_up(user):
        raise Forbidden()
    text = _message(message)
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not (campaign.accepts_requests or campaign.is_open
                                or oversees(user, campaign)):
        raise NotFound("no_such_campaign")
    if campaign.is_open:
        raise AlreadyAdmitted("campaign_is_open", code="campaign_is_open", name=campaign.name)
    _refuse_admitted(user, campaign)
    try:
        with transaction.atomic():
            request = CampaignJoinRequest.objects.create(campaign=campaign, user=user,
                                                         message=text)
    except IntegrityError:
        raise AlreadyAdmitted("join_request_pending", code="join_request_pending",
                              name=campaign.name) from None
    _announce(request.pk, "asked")
    return request


@transaction.atomic
def join_request_answer(*, user, campaign_id: int, request_id: int, accept: bool,
                        now: datetime | None = None) -> CampaignJoinRequest:
    """Accept (a membership is made) or refuse a pending request to join the campaign:
    whoever oversees it (else NotFound). Locks the request row. Refusals: NotFound
    (``no_such_request``: none, or another campaign's), AlreadyAdmitted
    (``join_request_answered``). A requester who became a member meanwhile (an invitation):
    the request is marked accepted, no second membership. Announced after the commit."""
    campaign = _overseen(user=user, campaign_id=campaign_id)
    request = (CampaignJoinRequest.objects.select_for_update()
               .filter(pk=request_id, campaign=campaign).first())
    if request is None:
        raise NotFound("no_such_request")
    if request.state != CampaignJoinRequest.State.PENDING:
        raise AlreadyAdmitted("join_request_answered", code="join_request_answered")
    now = now or timezone.now()
    request.state = (CampaignJoinRequest.State.ACCEPTED if accept
                     else CampaignJoinRequest.State.REFUSED)
    request.answered_at, request.answered_by = now, user
    request.save(update_fields=["state", "answered_at", "answered_by"])
    if accept:
        CampaignMember.objects.get_or_create(
            campaign=campaign, user_id=request.user_id,
            defaults={"joined_at": now, "via": CampaignMember.Via.REQUEST, "request": request})
    _announce(request.pk, "accepted" if accept else "refused")
    return request


@transaction.atomic
def join_request_withdraw(*, user, request_id: int) -> CampaignJoinRequest:
    """The requester withdraws their pending request (NotFound for another's or none;
    AlreadyAdmitted ``join_request_answered`` once answered)."""
    request = (CampaignJoinRequest.objects.select_for_update()
               .filter(pk=request_id, user_id=getattr(user, "pk", None) or 0).first())
    if request is None or not _signed_up(user):
        raise NotFound("no_such_request")
    if request.state != CampaignJoinRequest.State.PENDING:
        raise AlreadyAdmitted("join_request_answered", code="join_request_answered")
    request.state = CampaignJoinRequest.State.WITHDRAWN
    request.save(update_fields=["state"])
    _announce(request.pk, "withdrawn")
    return request
