"""The changes of a campaign itself, called from its pages (campaigns.pages): made by anyone
signed up, who is its game master; its co-game masters, added and removed by the game master
alone (campaigns.permissions.owns; docs/campaigns.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import IntegrityError, transaction

from campaigns.errors import (CampaignNameTaken, CoMasterRefused, Forbidden, NotCampaignOwner,
                              NotFound)
from campaigns.models import Campaign, CampaignMaster, EnemyState
from campaigns.permissions import master_role, may_remove_co_master, oversees, owns


def _signed_up(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def campaign_create(*, user, name: str, rule_system: str,
                    rule_parameters: dict[str, Any] | None = None, description: str = "",
                    is_open: bool = True, accepts_requests: bool = False,
                    enemy_state: str = EnemyState.DESCRIBED) -> Campaign:
    """A new campaign whose game master is ``user`` (anyone signed up and active, else
    Forbidden). ``rule_parameters`` only the values that differ from the system's defaults,
    checked as the admin checks them (``Campaign.clean``: a ValidationError); a name another
    campaign took meanwhile: CampaignNameTaken. One transaction."""
    if not _signed_up(user):
        raise Forbidden()
    campaign = Campaign(name=name, rule_system=rule_system, rule_parameters=rule_parameters or {},
                        description=description, is_open=is_open,
                        accepts_requests=accepts_requests, enemy_state=enemy_state,
                        game_master=user)
    _refuse_nul(name=name, description=description)  # PostgreSQL's text cannot hold one
    campaign.full_clean(exclude=["game_master"], validate_unique=False)  # user: signed in
    try:
        with transaction.atomic():
            campaign.save()
    except IntegrityError:
        raise CampaignNameTaken(name=name) from None
    return campaign


def _refuse_nul(**texts: str) -> None:
    """A ValidationError on each of ``texts`` holding a NUL character (a model field has no
    check of its own, the form's fields have)."""
    errors = {}
    for field, text in texts.items():
        try:
            ProhibitNullCharactersValidator()(text)
        except ValidationError as exc:
            errors[field] = exc
    if errors:
        raise ValidationError(errors)


def _owned_for_update(*, user, campaign_id: int) -> Campaign:
    """The campaign locked, if ``user`` owns it (campaigns.permissions.owns). NotFound for
    whoever does not oversee it (a player, a stranger: they cannot tell it exists),
    NotCampaignOwner for a co-game master."""
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    if not owns(user, campaign):
        raise NotCampaignOwner()
    return campaign


def _keep_co_master_ids(campaign: Campaign) -> None:
    """``Campaign.co_master_ids`` from its rows, under the campaign's lock."""
    ids = sorted(CampaignMaster.objects.filter(campaign=campaign).values_list("user_id",
                                                                             flat=True))
    campaign.co_master_ids = ids
    Campaign.objects.filter(pk=campaign.pk).update(co_master_ids=ids)


@transaction.atomic
def campaign_master_add(*, user, campaign_id: int, username: str) -> CampaignMaster:
    """Make the active account ``username`` a co-game master of the campaign: its game master
    (or staff) only. Locks the campaign row first, so that two additions or an addition and a
    removal keep ``co_master_ids`` equal to the rows. Refusals: NotFound, NotCampaignOwner,
    CoMasterRefused (``no_such_user``, ``already_game_master``, ``already_co_master``)."""
    campaign = _owned_for_update(user=user, campaign_id=campaign_id)
    name = username.strip()
    found = (get_user_model().objects.filter(username=name, is_active=True).first()
             if name and "\x00" not in name else None)
    if found is None:
        raise CoMasterRefused("no_such_user", name=name[:150])
    role = master_role(found, campaign)
    if role is not None:
        raise CoMasterRefused(f"already_{role}", name=found.username)
    master = CampaignMaster.objects.create(campaign=campaign, user=found)
    _keep_co_master_ids(campaign)
    return master


@transaction.atomic
def campaign_master_remove(*, user, campaign_id: int, master_id: int) -> None:
    """Remove the co-game master whose user id is ``master_id``: the game master (or staff)
    does, or the co-GM themself steps down. Locks the campaign row first. Refusals: NotFound,
    NotCampaignOwner (another co-GM), CoMasterRefused (``no_such_co_master``)."""
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    if not may_remove_co_master(user, campaign, master_id):
        raise NotCampaignOwner()
    deleted, _rows = CampaignMaster.objects.filter(campaign=campaign, user_id=master_id).delete()
    if not deleted:
        raise CoMasterRefused("no_such_co_master")
    _keep_co_master_ids(campaign)
