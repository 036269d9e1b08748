"""Read-only queries about campaigns."""

from __future__ import annotations

from campaigns.errors import NotFound
from campaigns.models import Campaign


def campaign_get(*, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign


def campaigns_overseen(*, user):
    """The campaigns ``user`` oversees (campaigns.permissions.oversees: those they are the game
    master of; every one for staff and superusers), by name."""
    from campaigns.permissions import oversees_every_campaign

    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    campaigns = Campaign.objects.order_by("name", "pk")
    return campaigns if oversees_every_campaign(user) else campaigns.filter(game_master=user)
