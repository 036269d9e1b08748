"""Read-only queries about campaigns."""

from __future__ import annotations

from campaigns.errors import NotFound
from campaigns.models import Campaign


def campaign_get(*, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign
