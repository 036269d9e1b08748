"""An Eclipse Phase campaign: a GM, Alice's Ash (a splicer biomorph) and Bob's Brick (a synth),
a guard (a creature, the GM's, in a pod), the morph, weapon and armour templates."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from eclipse.models import (ArmourTemplate, CarriedWeapon, EclipseSheet, MorphTemplate, Sleeve,
                            WeaponTemplate, WornArmour)
from eclipse.services import MORPH_FIELDS
from tests import factories

APTITUDES = {"cognition": 15, "coordination": 20, "intuition": 15, "reflexes": 20,
             "savvy": 10, "somatics": 15, "willpower": 10}


def sleeve_in(sheet: EclipseSheet, template: MorphTemplate, now, **state) -> Sleeve:
    sleeve = Sleeve.objects.create(owner=sheet, template=template, created_at=now,
                                   **{f: getattr(template, f) for f in MORPH_FIELDS}, **state)
    EclipseSheet.objects.filter(pk=sheet.pk).update(sleeve=sleeve)
    sheet.sleeve = sleeve
    return sleeve


def make_character(campaign, name, *, owner=None, kind=Character.Kind.PLAYER, morph=None,
                   now=None, **fields) -> Character:
    character = Character.objects.create(campaign=campaign, owner=owner, name=name, kind=kind)
    sheet = EclipseSheet.objects.create(character=character, **{**APTITUDES, **fields})
    if morph is not None:
        sleeve_in(sheet, morph, now or timezone.now())
    return character


@pytest.fixture
def ep(db, alice, bob):
    return build_world(alice, bob)


def build_world(alice, bob) -> SimpleNamespace:
    gm = factories.user("gm")
    campaign = Campaign.objects.create(name="Eclipse test", rule_system=RuleSystem.ECLIPSE_PHASE,
                                       game_master=gm)
    now = timezone.now()
    splicer = MorphTemplate.objects.create(campaign=campaign, name="Splicer", durability=30,
                                           aptitude_bonus={"SOM": 5})
    synth = MorphTemplate.objects.create(campaign=campaign, name="Synth", kind="synthmorph",
                                         durability=40, armour_energy=6, armour_kinetic=6,
                                         speed=2, aptitude_bonus={"SOM": 5})
    pod = MorphTemplate.objects.create(campaign=campaign, name="Pleasure pod", kind="pod",
                                       durability=30, traits=["ambidextrous"])
    pistol = WeaponTemplate.objects.create(campaign=campaign, name="Medium pistol", dv="1d10+2",
                                           ap=2, mode_ss=True, mode_sa=True, magazine=12,
                                           range_short=10, range_medium=30, range_long=50,
                                           range_extreme=100)
    knife = WeaponTemplate.objects.create(campaign=campaign, name="Knife", skill="blades",
                                          dv="1d10", ap=1, melee=True)
    vest = ArmourTemplate.objects.create(campaign=campaign, name="Armour vest", energy=6,
                                         kinetic=6)
    ash = make_character(campaign, "Ash", owner=alice, morph=splicer, now=now,
                         skills={"fray": 40, "kinetic_weapons": 50, "blades": 30})
    brick = make_character(campaign, "Brick", owner=bob, morph=synth, now=now,
                           skills={"fray": 30, "kinetic_weapons": 40})
    guard = make_character(campaign, "Guard", kind=Character.Kind.CREATURE, morph=pod, now=now,
                           skills={"kinetic_weapons": 35})
    CarriedWeapon.objects.create(sheet_id=ash.pk, template=pistol, loaded=12, spares=2)
    CarriedWeapon.objects.create(sheet_id=ash.pk, template=knife)
    CarriedWeapon.objects.create(sheet_id=guard.pk, template=pistol, loaded=12, spares=1)
    WornArmour.objects.create(sleeve=EclipseSheet.objects.get(pk=ash.pk).sleeve, template=vest)
    return SimpleNamespace(campaign=campaign, gm=gm, alice=alice, bob=bob, ash=ash, brick=brick,
                           guard=guard, splicer=splicer, synth=synth, pod=pod, pistol=pistol,
                           knife=knife, vest=vest, now=now)


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """The cache in process memory (throttles, journal versions): query counts then do not
    depend on whether the cache is the database (default) or Redis (CI)."""
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "eclipse-tests"}}
    caches["default"].clear()
