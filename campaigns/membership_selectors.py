"""Read-only views of a campaign's players (campaigns.membership): the members' page of those
who oversee it, the list of campaigns taking requests to join, an invitation as its visitor
reads it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.membership import invitation_find
from campaigns.models import Campaign, CampaignInvitation, CampaignJoinRequest, CampaignMember
from campaigns.permissions import oversees, owns


@dataclass(frozen=True)
class MembersView:
    """The members' page of a campaign: its members (each with its user and the invitation
    it came by), its invitations (each with its state at ``now``: usable, used_up, expired,
    revoked; newest first), the pending requests to join (each with its user, oldest first),
    and whether the reader owns the campaign (campaigns.permissions.owns)."""

    campaign: Campaign
    members: list[CampaignMember]
    invitations: list[tuple[CampaignInvitation, str]]
    requests: list[CampaignJoinRequest]
    can_manage_masters: bool
    now: datetime


def campaign_members(*, user, campaign_id: int, now: datetime | None = None) -> MembersView:
    """The :class:`MembersView` of a campaign ``user`` oversees, else NotFound: four queries
    (the campaign, its members, invitations, pending requests), whatever their number."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    now = now or timezone.now()
    members = list(CampaignMember.objects.filter(campaign=campaign)
                   .select_related("user", "invitation"))
    invitations = [(i, i.state(now)) for i in CampaignInvitation.objects.filter(campaign=campaign)]
    requests = list(CampaignJoinRequest.objects.filter(
        campaign=campaign, state=CampaignJoinRequest.State.PENDING).select_related("user"))
    return MembersView(campaign, members, invitations, requests, owns(user, campaign), now)


@dataclass(frozen=True)
class JoinChoice:
    """A campaign taking requests to join, as ``user`` reads it: ``status`` "member" (or
    "runs": they oversee it), "pending" (their request waits, ``request`` it), else "none" (they
    may ask; ``request`` their last answered request, refused or withdrawn, if any)."""

    campaign: Campaign
    status: str
    request: CampaignJoinRequest | None


def join_choices(*, user) -> list[JoinChoice]:
    """The closed campaigns taking requests to join (``Campaign.accepts_requests``), by name,
    each with where ``user`` stands (:class:`JoinChoice`), and the campaigns of the user's
    other requests (a campaign that stopped taking them: its answer still shows). Three
    queries: the campaigns, the user's memberships, the user's requests."""
    if user is None or not user.is_authenticated:
        return []
    requests = list(CampaignJoinRequest.objects.filter(user=user).select_related("campaign")
                    .order_by("created_at", "id"))
    last = {r.campaign_id: r for r in requests}  # each campaign's latest request
    campaigns = list(Campaign.objects.filter(is_open=False, accepts_requests=True)
                     .order_by("name", "pk"))
    listed = {c.pk for c in campaigns}
    campaigns += sorted((r.campaign for r in last.values() if r.campaign_id not in listed),
                        key=lambda c: (c.name, c.pk))
    member_of = set(CampaignMember.objects.filter(user=user).values_list("campaign_id",
                                                                         flat=True))
    choices = []
    for campaign in campaigns:
        request = last.get(campaign.pk)
        if oversees(user, campaign):
            status = "runs"
        elif campaign.pk in member_of:
            status = "member"
        elif request is not None and request.state == CampaignJoinRequest.State.PENDING:
            status = "pending"
        else:
            status = "none"
        choices.append(JoinChoice(campaign, status, request))
    return choices


@dataclass(frozen=True)
class InvitationView:
    """An invitation as its visitor reads it: its campaign, its state at now (usable,
    used_up, expired, revoked) and whether the visitor needs it (False: a member already, or
    they run the campaign)."""

    invitation: CampaignInvitation
    state: str
    needed: bool


def invitation_view(*, user, code: str) -> InvitationView:
    """The :class:`InvitationView` of ``code`` (NotFound ``no_such_invitation`` for none):
    two queries (the invitation with its campaign, the visitor's membership)."""
    invitation = invitation_find(code=code)
    campaign = invitation.campaign
    needed = not (oversees(user, campaign) or CampaignMember.objects.filter(
        campaign=campaign, user=user).exists())
    return InvitationView(invitation, invitation.state(timezone.now()), needed)
