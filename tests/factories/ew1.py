"""Eternal War One II: item templates and the items a character carries. Characters with their
sheet come from ``tests.factories.character`` (the real ``character_create``, seeded dice)."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from ew1.models import ItemInstance, ItemTemplate

from .core import BoardCampaignFactory, CharacterFactory


class ItemTemplateFactory(DjangoModelFactory):
    """A 1d6 melee weapon available in every campaign (``campaign=None``) unless given one;
    ``kind``, ``damage_dice``, ``heal_dice``, ``armour`` and the rest as the model names them."""

    class Meta:
        model = ItemTemplate

    campaign = None
    name = factory.Sequence(lambda n: f"Item {n}")
    kind = ItemTemplate.Kind.MELEE
    damage_dice = "1d6"


class PotionTemplateFactory(ItemTemplateFactory):
    name = factory.Sequence(lambda n: f"Potion {n}")
    kind = ItemTemplate.Kind.MISC
    damage_dice = ""
    heal_dice = "1d4"


class ItemFactory(DjangoModelFactory):
    """An item of ``template`` carried by ``owner`` (not equipped)."""

    class Meta:
        model = ItemInstance

    template = factory.SubFactory(ItemTemplateFactory)
    owner = factory.SubFactory(CharacterFactory, campaign=factory.SubFactory(BoardCampaignFactory))
    equipped = False
