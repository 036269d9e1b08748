"""Test data: factory-boy factories for the three systems (one module each, with the shared
users, campaigns and characters in ``core`` and encounters in ``encounters``), and the helpers
the suite has always called (``user``, ``campaign``, ``character``). Eternal War One II's
characters are made through the real ``character_create`` with seeded dice.

    from tests import factories
    factories.campaign()                                  # EW1, on a 10 x 10 board
    factories.HomebrewSheetFactory(character__name="Goblin")
    factories.SleeveFactory(owner=ego, template=splicer, armour=[vest])
"""

from __future__ import annotations

import random
from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from characters.services import character_create
from ew1.models import EternalWarSheet

from .core import (PASSWORD, BoardCampaignFactory, BoardFactory, CampaignFactory,
                   CharacterFactory, CreatureFactory, UserFactory)
from .eclipse import (ArmourTemplateFactory, CarriedWeaponFactory, EclipseCampaignFactory,
                      EclipseCreatureSheetFactory, EclipseSheetFactory, EclipseWeaponFactory,
                      MorphTemplateFactory, SleeveFactory, WornArmourFactory)
from .encounters import CombatantFactory, EncounterFactory, encounter_of
from .ew1 import ItemFactory, ItemTemplateFactory, PotionTemplateFactory
from .homebrew import (HomebrewCampaignFactory, HomebrewCreatureSheetFactory,
                       HomebrewSheetFactory, HomebrewWeaponFactory)

__all__ = [
    "PASSWORD", "ArmourTemplateFactory", "BoardCampaignFactory", "BoardFactory",
    "CampaignFactory", "CarriedWeaponFactory", "CharacterFactory", "CombatantFactory",
    "CreatureFactory", "EclipseCampaignFactory", "EclipseCreatureSheetFactory",
    "EclipseSheetFactory", "EclipseWeaponFactory", "EncounterFactory",
    "HomebrewCampaignFactory", "HomebrewCreatureSheetFactory", "HomebrewSheetFactory",
    "HomebrewWeaponFactory", "ItemFactory", "ItemTemplateFactory", "MorphTemplateFactory",
    "PotionTemplateFactory", "SleeveFactory", "UserFactory", "WornArmourFactory", "campaign",
    "character", "encounter_of", "user",
]


def user(username: str, **extra):
    """A new user ``username`` (its password ``PASSWORD``); a taken name is an error here, where
    ``UserFactory`` would reuse it."""
    return get_user_model().objects.create_user(username, f"{username}@example.invalid", PASSWORD,
                                                **extra)


def campaign(*, name: str = "Test campaign", width: int = 10, height: int = 10,
             rule_system: str = RuleSystem.ETERNAL_WAR, **params) -> Campaign:
    """A campaign on a ``width`` x ``height`` board; ``params`` are its rule parameters."""
    return BoardCampaignFactory(name=name, rule_system=rule_system, rule_parameters=params,
                                board__width=width, board__height=height)


def character(*, owner, campaign: Campaign, name: str, at: tuple[int, int] | None = None,
              seed: int = 7, acted: bool = True, now: datetime | None = None,
              **sheet_fields) -> Character:
    """A character made by ``character_create``; ``at`` moves it to that cell, ``acted`` marks
    its first action done (so it can be attacked), ``sheet_fields`` overwrite sheet values."""
    now = now or timezone.now()
    c = character_create(user=owner, campaign=campaign, name=name, rng=random.Random(seed),
                         now=now)
    updates = {}
    if at is not None:
        Character.objects.filter(pk=c.pk).update(board=None, x=None, y=None)
        updates.update(board=campaign.board, x=at[0], y=at[1])
    if acted:
        updates["first_action_at"] = now
    if updates:
        Character.objects.filter(pk=c.pk).update(**updates)
    if sheet_fields:
        EternalWarSheet.objects.filter(pk=c.pk).update(**sheet_fields)
    return Character.objects.select_related("ew1", "board", "campaign").get(pk=c.pk)
