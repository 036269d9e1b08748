"""Read-only queries for the faction pages and the API. Each runs a fixed number of queries,
whatever the number of members, requests or characters."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from collections.abc import Sequence

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from campaigns import rule_systems
from campaigns.errors import NotFound
from campaigns.models import Campaign
from campaigns.permissions import allowed
from campaigns.selectors import campaign_get, campaigns_admitting
from characters.models import Character
from factions.models import Faction, JoinRequest, Membership


def factions_of(*, campaign: Campaign) -> QuerySet[Faction]:
    """The campaign's factions with their leader (and its player) and their size: one query."""
    return (Faction.objects.filter(campaign=campaign)
            .select_related("leader", "leader__owner")
            .annotate(size=Count("memberships")).order_by("name", "id"))


def faction_get(*, faction_id: int) -> Faction:
    """The faction with campaign, leader (and its player) and ``size``: one query. NotFound."""
    faction = (Faction.objects.select_related("campaign", "leader", "leader__owner")
               .annotate(size=Count("memberships")).filter(pk=faction_id).first())
    if faction is None:
        raise NotFound("no_such_faction")
    return faction


def members_of(faction: Faction) -> list[Membership]:
    """The members with their character, player and sheet, the leader first: one query. A
    member without a sheet (saved around the admin) is left out."""
    sheets = [f"character__{name}" for name in rule_systems.sheet_relations()]
    members = list(Membership.objects.filter(rule_systems.has_sheet_q("character__"),
                                             faction=faction)
                   .select_related("character", "character__owner", *sheets)
                   .order_by("character__name", "character_id"))
    members.sort(key=lambda m: m.character_id != faction.leader_id)
    return members


def characters_without_faction(*, campaign: Campaign, owner=None) -> QuerySet[Character]:
    """Player characters of the campaign in no faction (of ``owner`` only, if given)."""
    qs = Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER,
                                  membership__isnull=True)
    if owner is not None:
        qs = qs.filter(owner=owner)
    return qs.select_related("owner").order_by("name", "id")


def pending_invitations(*, user, campaign: Campaign | None = None,
                        faction: Faction | None = None) -> list[JoinRequest]:
    """Pending invitations to the user's characters (in one campaign or from one faction), with
    the faction and the character: one query."""
    qs = JoinRequest.objects.filter(kind=JoinRequest.Kind.INVITATION,
                                    state=JoinRequest.State.PENDING, character__owner=user)
    if campaign is not None:
        qs = qs.filter(faction__campaign=campaign)
    if faction is not None:
        qs = qs.filter(faction=faction)
    return list(qs.select_related("faction", "character").order_by("created_at", "id"))


@dataclass(frozen=True)
class CampaignFactions:
    """The faction list of a campaign, what the user may create, and their invitations."""

    campaign: Campaign
    factions: list[Faction]
    founders: list[Character]  # the user's characters here without a faction
    invitations: list[JoinRequest]


def campaign_factions(*, user, campaign_id: int) -> CampaignFactions:
    """Four queries: the campaign, its factions, the user's characters without a faction, their
    pending invitations."""
    campaign = campaign_get(campaign_id=campaign_id)
    return CampaignFactions(campaign, list(factions_of(campaign=campaign)),
                            list(characters_without_faction(campaign=campaign, owner=user)),
                            pending_invitations(user=user, campaign=campaign))


@dataclass(frozen=True)
class FactionView:
    """The public page of a faction, as ``user`` sees it."""

    faction: Faction
    can_view_members: bool
    can_manage: bool
    members: list[Membership] | None  # None when the user may not see them
    mine: list[Character]  # the user's characters in the campaign, with ``membership``
    requests: list[JoinRequest]  # the user's pending requests to this faction
    invitations: list[JoinRequest]  # this faction's pending invitations to the user's characters

    @property
    def joinable(self) -> list[Character]:
        """The user's characters that may join (or ask to): no faction, nothing pending here."""
        pending = {r.character_id for r in self.requests} | {
            i.character_id for i in self.invitations}
        return [c for c in self.mine if c.faction_id_cached is None and c.pk not in pending]

    @property
    def members_here(self) -> list[Character]:
        """The user's characters that are members of this faction (they may leave)."""
        return [c for c in self.mine if c.faction_id_cached == self.faction.pk]


def faction_view(*, user, faction_id: int) -> FactionView:
    """Everything the faction page shows: the faction (1 query), the member check of a private
    faction's permission (1 query, only when the user is neither its leader nor staff), the
    members when allowed (1), the user's characters in the campaign (1) and their pending
    requests and invitations here (1)."""
    faction = faction_get(faction_id=faction_id)
    can_view = allowed(user, "factions.view_members", faction)
    mine = list(Character.objects.filter(owner=user, campaign_id=faction.campaign_id,
                                         kind=Character.Kind.PLAYER)
                .annotate_faction().order_by("name", "id"))
    pending = list(JoinRequest.objects.filter(faction=faction, state=JoinRequest.State.PENDING,
                                              character__owner=user)
                   .select_related("character").order_by("created_at", "id"))
    return FactionView(
        faction, can_view, allowed(user, "factions.manage_faction", faction),
        members_of(faction) if can_view else None, mine,
        [r for r in pending if r.kind == JoinRequest.Kind.REQUEST],
        [r for r in pending if r.kind == JoinRequest.Kind.INVITATION])


@dataclass(frozen=True)
class ManageView:
    """The leader's page: members with their numbers, pending requests and invitations, and who
    may be invited."""

    faction: Faction
    members: list[Membership]
    requests: list[JoinRequest]
    invitations: list[JoinRequest]
    candidates: list[Character]
    now: datetime = field(default_factory=timezone.now)


def faction_manage(*, user, faction_id: int, now: datetime | None = None) -> ManageView:
    """The leader's page, if ``user`` has ``factions.manage_faction`` (NotFound otherwise, like a
    missing faction). Four queries: the faction, the members with their sheets (PV brought up
    to ``now`` in memory), the pending requests and invitations, the characters of the campaign
    without a faction (those already invited left out)."""
    now = now or timezone.now()
    faction = faction_get(faction_id=faction_id)
    if not allowed(user, "factions.manage_faction", faction):
        raise NotFound("no_such_faction")
    params = faction.campaign.parameters
    members = members_of(faction)
    spec = rule_systems.get(faction.campaign.rule_system)
    for m in members:
        if spec is not None and spec.refresh is not None:
            spec.refresh(m.character, params=params, now=now)
    pending = list(JoinRequest.objects.filter(faction=faction, state=JoinRequest.State.PENDING)
                   .select_related("character", "character__owner").order_by("created_at", "id"))
    invitations = [r for r in pending if r.kind == JoinRequest.Kind.INVITATION]
    invited = {r.character_id for r in pending}
    candidates = [c for c in characters_without_faction(campaign=faction.campaign)
                  if c.pk not in invited]
    return ManageView(faction, members, [r for r in pending if r.kind == JoinRequest.Kind.REQUEST],
                      invitations, candidates, now)


def pending_for(*, user, faction: Faction) -> list[JoinRequest]:
    """For the API: the faction's pending requests and invitations ``user`` takes part in (all
    of them for its leader, those of the user's characters otherwise): one query."""
    qs = JoinRequest.objects.filter(faction=faction, state=JoinRequest.State.PENDING)
    if not allowed(user, "factions.manage_faction", faction):
        qs = qs.filter(character__owner=user)
    return list(qs.select_related("character", "faction").order_by("created_at", "id"))


def _waiting_for(user) -> QuerySet[JoinRequest]:
    """The pending requests that wait for ``user``'s answer: invitations to the user's
    characters, and requests to join the factions the user's characters lead."""
    return JoinRequest.objects.filter(state=JoinRequest.State.PENDING).filter(
        Q(kind=JoinRequest.Kind.INVITATION, character__owner=user)
        | Q(kind=JoinRequest.Kind.REQUEST, faction__leader__owner=user))


def pending_count(*, user) -> int:
    """How many requests and invitations wait for ``user``'s answer (the navigation bar's
    count): one query."""
    return _waiting_for(user).count()


@dataclass(frozen=True)
class FactionIndex:
    """Where the nav's "Factions" link leads: what waits for the user's answer (invitations to
    their characters, requests to the factions they lead), the user's characters with their
    faction, and the campaigns whose factions the user may look at (theirs and the open
    ones)."""

    characters: list[Character]
    campaigns: list[Campaign]
    invitations: Sequence[JoinRequest] = ()
    requests: Sequence[JoinRequest] = ()


def faction_index(*, user) -> FactionIndex:
    """Three queries: what waits for the user's answer (with faction, campaign, character and
    player), the user's characters with campaign and faction, the campaigns."""
    waiting = list(_waiting_for(user).select_related(
        "faction", "faction__campaign", "character", "character__owner")
        .order_by("created_at", "id"))
    characters = list(Character.objects.filter(owner=user, kind=Character.Kind.PLAYER)
                      .select_related("campaign", "membership__faction")
                      .order_by("campaign__name", "name", "id"))
    mine = {c.campaign_id for c in characters}
    campaigns = list(Campaign.objects.filter(
        Q(pk__in=mine) | Q(pk__in=campaigns_admitting(user=user).values("pk")))
                     .order_by("name", "id"))
    return FactionIndex(characters, campaigns,
                        [r for r in waiting if r.kind == JoinRequest.Kind.INVITATION],
                        [r for r in waiting if r.kind == JoinRequest.Kind.REQUEST])
