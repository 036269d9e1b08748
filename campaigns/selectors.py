"""Read-only queries about campaigns."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from campaigns.errors import NotFound
from campaigns.models import Campaign, CampaignMaster


def campaign_get(*, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign


def campaigns_overseen(*, user):
    """The campaigns ``user`` oversees (campaigns.permissions.oversees: those they are the game
    master or a co-game master of; every one for staff and superusers), by name."""
    from campaigns.permissions import oversees_every_campaign

    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    campaigns = Campaign.objects.order_by("name", "pk")
    if oversees_every_campaign(user):
        return campaigns
    return campaigns.filter(Q(game_master=user) | Q(masters__user=user)).distinct()


def campaigns_admitting(*, user):
    """The campaigns ``user`` may make a character in (campaigns.permissions.admits, as one
    queryset: no query until read): the open ones, those they are a member of or oversee; every
    one for staff and superusers; none for an anonymous or inactive user."""
    from campaigns.models import CampaignMember
    from campaigns.permissions import oversees_every_campaign

    campaigns = Campaign.objects.order_by("name", "pk")
    if user is None or not user.is_authenticated or not user.is_active:
        return campaigns.none()
    if oversees_every_campaign(user):
        return campaigns
    return campaigns.filter(
        Q(is_open=True) | Q(game_master=user)
        | Q(pk__in=CampaignMember.objects.filter(user=user).values("campaign_id"))
        | Q(pk__in=CampaignMaster.objects.filter(user=user).values("campaign_id")))


@dataclass(frozen=True)
class MastersView:
    """The game masters' page of a campaign: the campaign with its game master, its co-game
    masters (each a CampaignMaster with its user, and whether the reader may remove it:
    campaigns.permissions.may_remove_co_master) and whether the reader may add and remove
    them (campaigns.permissions.owns; a co-GM may only step down)."""

    campaign: Campaign
    masters: list[tuple[CampaignMaster, bool]]
    can_manage: bool


def campaign_masters(*, user, campaign_id: int) -> MastersView:
    """The :class:`MastersView` of a campaign ``user`` oversees, else NotFound: two queries."""
    from campaigns.permissions import may_remove_co_master, oversees, owns

    campaign = Campaign.objects.select_related("game_master").filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    masters = [(m, may_remove_co_master(user, campaign, m.user_id))
               for m in CampaignMaster.objects.filter(campaign=campaign).select_related("user")]
    return MastersView(campaign=campaign, masters=masters, can_manage=owns(user, campaign))
