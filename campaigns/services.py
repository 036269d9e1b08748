"""The changes of a campaign itself, called from its pages (campaigns.pages): made by anyone
signed up, who is its game master (docs/campaigns.md)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from campaigns.errors import CampaignNameTaken, Forbidden
from campaigns.models import Campaign, EnemyState


def _signed_up(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def campaign_create(*, user, name: str, rule_system: str,
                    rule_parameters: dict[str, Any] | None = None, description: str = "",
                    is_open: bool = True, enemy_state: str = EnemyState.DESCRIBED) -> Campaign:
    """A new campaign whose game master is ``user`` (anyone signed up and active, else
    Forbidden). ``rule_parameters`` only the values that differ from the system's defaults,
    checked as the admin checks them (``Campaign.clean``: a ValidationError); a name another
    campaign took meanwhile: CampaignNameTaken. One transaction."""
    if not _signed_up(user):
        raise Forbidden()
    campaign = Campaign(name=name, rule_system=rule_system, rule_parameters=rule_parameters or {},
                        description=description, is_open=is_open, enemy_state=enemy_state,
                        game_master=user)
    campaign.full_clean(exclude=["game_master"], validate_unique=False)  # user: signed in
    try:
        with transaction.atomic():
            campaign.save()
    except IntegrityError:
        raise CampaignNameTaken(name=name) from None
    return campaign
