"""Users, campaigns (with or without a board) and bare characters, for every rule system."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from campaigns.models import Board, Campaign, RuleSystem
from characters.models import Character

PASSWORD = "a-long-test-password-42"


class UserFactory(DjangoModelFactory):
    """A user whose password is ``PASSWORD``; an existing username is reused (``gm`` twice is
    one game master)."""

    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.invalid")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        manager = cls._get_manager(model_class)
        found = manager.filter(username=kwargs["username"]).first()
        if found is not None:
            return found
        return manager.create_user(kwargs.pop("username"), kwargs.pop("email"), PASSWORD,
                                   **kwargs)


class CampaignFactory(DjangoModelFactory):
    """A campaign of Eternal War One II with no board and no game master; ``params`` go to
    ``rule_parameters``."""

    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    rule_system = RuleSystem.ETERNAL_WAR
    rule_parameters = factory.Dict({})
    game_master = None


class BoardFactory(DjangoModelFactory):
    class Meta:
        model = Board
        django_get_or_create = ("campaign",)

    campaign = factory.SubFactory(CampaignFactory)
    width = 10
    height = 10


class BoardCampaignFactory(CampaignFactory):
    """An Eternal War One II campaign on a ``board__width`` x ``board__height`` board (10 x 10)."""

    class Meta:
        skip_postgeneration_save = True

    board = factory.RelatedFactory(BoardFactory, factory_related_name="campaign")


class CharacterFactory(DjangoModelFactory):
    """A bare character, no sheet: a player of ``owner`` or, ``kind=Character.Kind.CREATURE``,
    the game master's."""

    class Meta:
        model = Character

    campaign = factory.SubFactory(CampaignFactory)
    owner = None
    name = factory.Sequence(lambda n: f"Character {n}")
    kind = Character.Kind.PLAYER


class CreatureFactory(CharacterFactory):
    kind = Character.Kind.CREATURE
    name = factory.Sequence(lambda n: f"Creature {n}")
