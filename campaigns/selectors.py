"""Read-only queries about campaigns."""

from __future__ import annotations

from django.db.models import QuerySet

from campaigns.errors import NotFound
from campaigns.models import Campaign
from characters.models import Character

LEADERBOARD_ORDERS = {
    "kills": ("-kills", "deaths", "name"),
    "level": ("-ew1__level", "-ew1__xp", "name"),
    "attacks": ("-attacks", "name"),
    "dodges": ("-dodges", "name"),
    "deaths": ("-deaths", "name"),
}


def campaign_get(*, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign


def leaderboard(*, campaign: Campaign, order: str = "kills", limit: int = 50
                ) -> QuerySet[Character]:
    """The campaign's player characters ranked by ``order`` (kills, level, attacks, dodges,
    deaths), with their owner and sheet: one query. Unknown orders fall back to kills."""
    ordering = LEADERBOARD_ORDERS.get(order, LEADERBOARD_ORDERS["kills"])
    return (Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER,
                                     ew1__isnull=False)
            .select_related("owner", "ew1").order_by(*ordering)[:limit])
