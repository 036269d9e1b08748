"""Eclipse Phase: its campaign (with a game master), morph, weapon and armour templates, the ego
(``EclipseSheetFactory``, skills given as ratings under its own aptitudes and stored as ranks),
the morph it wears (``SleeveFactory``: the template's numbers copied, as resleeving does), the
weapons it carries and the armour its sleeve wears."""

from __future__ import annotations

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from campaigns.models import RuleSystem
from characters.models import Character
from eclipse.models import (APTITUDE_FIELDS, ArmourTemplate, CarriedWeapon, EclipseSheet,
                            MorphTemplate, Sleeve, WeaponTemplate, WornArmour)
from eclipse.services import MORPH_FIELDS
from gamerules.eclipse_phase.sheet import ranks_for

from .core import CampaignFactory, CharacterFactory, UserFactory


class EclipseCampaignFactory(CampaignFactory):
    name = factory.Sequence(lambda n: f"Eclipse campaign {n}")
    rule_system = RuleSystem.ECLIPSE_PHASE
    game_master = factory.SubFactory(UserFactory, username="gm")


class MorphTemplateFactory(DjangoModelFactory):
    """A biomorph of durability 30 (the model's defaults otherwise)."""

    class Meta:
        model = MorphTemplate

    campaign = factory.SubFactory(EclipseCampaignFactory)
    name = factory.Sequence(lambda n: f"Morph {n}")
    durability = 30


class EclipseWeaponFactory(DjangoModelFactory):
    """A 1d10 weapon (the model's defaults otherwise: its skill, modes, magazine)."""

    class Meta:
        model = WeaponTemplate

    campaign = factory.SubFactory(EclipseCampaignFactory)
    name = factory.Sequence(lambda n: f"Weapon {n}")
    dv = "1d10"


class ArmourTemplateFactory(DjangoModelFactory):
    class Meta:
        model = ArmourTemplate

    campaign = factory.SubFactory(EclipseCampaignFactory)
    name = factory.Sequence(lambda n: f"Armour {n}")
    energy = 4
    kinetic = 4


def _ranks(sheet) -> dict:
    own = {a: getattr(sheet, f) for a, f in APTITUDE_FIELDS.items()}
    return ranks_for(dict(sheet.ratings), own)


class EclipseSheetFactory(DjangoModelFactory):
    """An ego with the given aptitudes (15 unless told) and ``ratings`` (skill ratings under
    those aptitudes, stored as the ranks a sheet keeps), for ``character`` (a new player
    character of a new Eclipse Phase campaign unless given). No sleeve: ``SleeveFactory``."""

    class Meta:
        model = EclipseSheet
        exclude = ("ratings",)

    class Params:
        ratings = factory.Dict({})

    character = factory.SubFactory(CharacterFactory,
                                   campaign=factory.SubFactory(EclipseCampaignFactory))
    cognition = 15
    coordination = 15
    intuition = 15
    reflexes = 15
    savvy = 15
    somatics = 15
    willpower = 15
    skills = factory.LazyAttribute(_ranks)


class EclipseCreatureSheetFactory(EclipseSheetFactory):
    character = factory.SubFactory(CharacterFactory, kind=Character.Kind.CREATURE,
                                   name=factory.Sequence(lambda n: f"Creature {n}"),
                                   campaign=factory.SubFactory(EclipseCampaignFactory))


class SleeveFactory(DjangoModelFactory):
    """``owner`` sleeved in ``template`` (its numbers copied); ``worn=False`` keeps it in
    storage rather than making it the ego's current sleeve; ``armour=[...]`` worn on it."""

    class Meta:
        model = Sleeve
        skip_postgeneration_save = True

    owner = factory.SubFactory(EclipseSheetFactory)
    template = factory.SubFactory(MorphTemplateFactory,
                                  campaign=factory.SelfAttribute("..owner.character.campaign"))
    created_at = factory.LazyFunction(timezone.now)
    worn = True  # not a field: taken out in _create

    @classmethod
    def _create(cls, model_class, *args, worn=True, **kwargs):
        template = kwargs["template"]
        numbers = {f: getattr(template, f) for f in MORPH_FIELDS}
        sleeve = super()._create(model_class, *args, **{**numbers, **kwargs})
        if worn:
            owner = sleeve.owner
            EclipseSheet.objects.filter(pk=owner.pk).update(sleeve=sleeve)
            owner.sleeve = sleeve
        return sleeve

    @factory.post_generation
    def armour(self, create, extracted, **kwargs):
        for template in (extracted or ()) if create else ():
            WornArmour.objects.create(sleeve=self, template=template)


class CarriedWeaponFactory(DjangoModelFactory):
    """``template`` carried by ``sheet``, its magazine full, one spare."""

    class Meta:
        model = CarriedWeapon

    sheet = factory.SubFactory(EclipseSheetFactory)
    template = factory.SubFactory(EclipseWeaponFactory,
                                  campaign=factory.SelfAttribute("..sheet.character.campaign"))
    loaded = factory.LazyAttribute(lambda o: o.template.magazine)
    spares = 1


class WornArmourFactory(DjangoModelFactory):
    class Meta:
        model = WornArmour

    sleeve = factory.SubFactory(SleeveFactory)
    template = factory.SubFactory(
        ArmourTemplateFactory, campaign=factory.SelfAttribute("..sleeve.owner.character.campaign"))
