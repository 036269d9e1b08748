"""An Eclipse Phase campaign: a GM, Alice's Ash (a splicer biomorph) and Bob's Brick (a synth),
a guard (a creature, the GM's, in a pod), the morph, weapon and armour templates."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from characters.models import Character
from eclipse.models import APTITUDE_FIELDS, EclipseSheet, MorphTemplate, Sleeve
from gamerules.eclipse_phase.sheet import ranks_for
from tests import factories

APTITUDES = {"cognition": 15, "coordination": 20, "intuition": 15, "reflexes": 20,
             "savvy": 10, "somatics": 15, "willpower": 10}


def sleeve_in(sheet: EclipseSheet, template: MorphTemplate, now, **state) -> Sleeve:
    return factories.SleeveFactory(owner=sheet, template=template, created_at=now, **state)


def stored_skills(ratings, values) -> dict:
    """``ratings`` under the ego's own aptitudes (``values`` by field name), as the ranks a
    sheet stores."""
    return ranks_for(ratings, {a: values[f] for a, f in APTITUDE_FIELDS.items()})


def make_character(campaign, name, *, owner=None, kind=Character.Kind.PLAYER, morph=None,
                   now=None, **fields) -> Character:
    """``skills`` given as ratings under the ego's own aptitudes (stored as ranks)."""
    values = {**APTITUDES, **fields}
    if "skills" in values:
        values["ratings"] = values.pop("skills")
    sheet = factories.EclipseSheetFactory(character__campaign=campaign, character__owner=owner,
                                          character__name=name, character__kind=kind, **values)
    if morph is not None:
        sleeve_in(sheet, morph, now or timezone.now())
    return sheet.character


@pytest.fixture
def ep(db, alice, bob):
    return build_world(alice, bob)


def build_world(alice, bob) -> SimpleNamespace:
    gm = factories.user("gm")
    campaign = factories.EclipseCampaignFactory(name="Eclipse test", game_master=gm)
    now = timezone.now()
    morph = factories.MorphTemplateFactory
    splicer = morph(campaign=campaign, name="Splicer", durability=30, aptitude_bonus={"SOM": 5})
    synth = morph(campaign=campaign, name="Synth", kind="synthmorph", durability=40,
                  armour_energy=6, armour_kinetic=6, speed=2, aptitude_bonus={"SOM": 5})
    pod = morph(campaign=campaign, name="Pleasure pod", kind="pod", durability=30,
                traits=["ambidextrous"])
    pistol = factories.EclipseWeaponFactory(
        campaign=campaign, name="Medium pistol", dv="1d10+2", ap=2, mode_ss=True, mode_sa=True,
        magazine=12, range_short=10, range_medium=30, range_long=50, range_extreme=100)
    knife = factories.EclipseWeaponFactory(campaign=campaign, name="Knife", skill="blades",
                                           dv="1d10", ap=1, melee=True)
    vest = factories.ArmourTemplateFactory(campaign=campaign, name="Armour vest", energy=6,
                                           kinetic=6)
    ash = make_character(campaign, "Ash", owner=alice, morph=splicer, now=now,
                         skills={"fray": 40, "kinetic_weapons": 50, "blades": 30})
    brick = make_character(campaign, "Brick", owner=bob, morph=synth, now=now,
                           skills={"fray": 30, "kinetic_weapons": 40})
    guard = make_character(campaign, "Guard", kind=Character.Kind.CREATURE, morph=pod, now=now,
                           skills={"kinetic_weapons": 35})
    carry = factories.CarriedWeaponFactory
    carry(sheet=ash.eclipse, template=pistol, loaded=12, spares=2)
    carry(sheet=ash.eclipse, template=knife, loaded=0, spares=0)
    carry(sheet=guard.eclipse, template=pistol, loaded=12, spares=1)
    factories.WornArmourFactory(sleeve=ash.eclipse.sleeve, template=vest)
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
