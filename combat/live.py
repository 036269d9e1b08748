"""The ``board-<campaign id>`` live topic (campaigns.live, announced by campaigns.versions on
every bump of a campaign's board counters): every Eternal War One II board page of the campaign.
Who reads it: who may open a board page in it (a player of one of its characters, its game
masters). The event says only "something changed": the page refetches with its poll token
(combat.polls), which answers 204 when nothing in its view did."""

from __future__ import annotations

from campaigns.permissions import oversees

KIND = "board"


def can_read(user, campaign_id: int) -> bool:
    """At most two queries: the campaign, then (a player) one of their characters in it."""
    from campaigns.models import Campaign
    from characters.models import Character

    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return False
    return oversees(user, campaign) or Character.objects.filter(
        campaign_id=campaign_id, owner_id=user.pk).exists()
