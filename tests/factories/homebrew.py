"""The homebrew d100: its campaign (with a game master), weapon templates and sheets. A player's
character made through the creation service is ``homebrew_character_create``'s; these build the
rows directly (creatures, sheets at given numbers)."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from campaigns.models import RuleSystem
from characters.models import Character
from homebrew.models import HomebrewSheet, WeaponTemplate

from .core import CampaignFactory, CharacterFactory, UserFactory


class HomebrewCampaignFactory(CampaignFactory):
    name = factory.Sequence(lambda n: f"Homebrew campaign {n}")
    rule_system = RuleSystem.HOMEBREW
    game_master = factory.SubFactory(UserFactory, username="gm")


class HomebrewWeaponFactory(DjangoModelFactory):
    """A 1d6 physical weapon; ``kind="magical"`` and ``mp_cost`` for a spell."""

    class Meta:
        model = WeaponTemplate

    campaign = factory.SubFactory(HomebrewCampaignFactory)
    name = factory.Sequence(lambda n: f"Weapon {n}")
    die = "1d6"


class HomebrewSheetFactory(DjangoModelFactory):
    """A sheet at the model's defaults (or the numbers given) for ``character`` (a new player
    character of a new homebrew campaign unless given: ``character__kind=Character.Kind.CREATURE``,
    ``character__campaign=...``); ``weapons=[...]`` adds those templates."""

    class Meta:
        model = HomebrewSheet
        skip_postgeneration_save = True

    character = factory.SubFactory(CharacterFactory,
                                   campaign=factory.SubFactory(HomebrewCampaignFactory))

    @factory.post_generation
    def weapons(self, create, extracted, **kwargs):
        if create and extracted:
            self.weapons.add(*extracted)


class HomebrewCreatureSheetFactory(HomebrewSheetFactory):
    """A creature (the GM's) with a goblin's sheet: 50/40/20, Force 2, Dextérité 3, 8 HP, no MP."""

    character = factory.SubFactory(CharacterFactory, kind=Character.Kind.CREATURE,
                                   name=factory.Sequence(lambda n: f"Creature {n}"),
                                   campaign=factory.SubFactory(HomebrewCampaignFactory))
    physique = 50
    perception = 40
    mental = 20
    force = 2
    dexterite = 3
    hp = 8
    hp_max = 8
    mp = 0
    mp_max = 0
