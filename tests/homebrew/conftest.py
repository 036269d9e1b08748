"""A homebrew campaign: a GM, Alice's Aria and Bob's Bran (players), a goblin (an enemy), a
sword (1d6, physical) and a fireball (1d8, magical, 3 MP)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from homebrew.models import HomebrewSheet, WeaponTemplate
from homebrew.services import homebrew_character_create
from tests import factories

SPREAD = {"physique": 60, "perception": 50, "mental": 60, "force": 3, "dexterite": 3,
          "sens": 2, "ether": 3, "esprit": 4, "intelligence": 2}


def make_sheet(character: Character, **fields) -> HomebrewSheet:
    if fields:
        HomebrewSheet.objects.filter(pk=character.pk).update(**fields)
    return HomebrewSheet.objects.select_related("character__campaign").get(pk=character.pk)


@pytest.fixture
def hb(db, alice, bob):
    return build_world(alice, bob)


def build_world(alice, bob) -> SimpleNamespace:
    gm = factories.user("gm")
    campaign = Campaign.objects.create(name="Homebrew test", rule_system=RuleSystem.HOMEBREW,
                                       game_master=gm)
    now = timezone.now()
    aria = homebrew_character_create(user=alice, campaign=campaign, name="Aria", values=SPREAD,
                                     now=now)
    bran = homebrew_character_create(user=bob, campaign=campaign, name="Bran", values=SPREAD,
                                     now=now)
    goblin = Character.objects.create(campaign=campaign, name="Goblin",
                                      kind=Character.Kind.CREATURE)
    HomebrewSheet.objects.create(character=goblin, physique=50, perception=40, mental=20,
                                 force=2, dexterite=3, hp=8, hp_max=8, mp=0, mp_max=0)
    sword = WeaponTemplate.objects.create(campaign=campaign, name="Sword", die="1d6")
    fireball = WeaponTemplate.objects.create(campaign=campaign, name="Fireball", die="1d8",
                                             kind="magical", mp_cost=3)
    claws = WeaponTemplate.objects.create(campaign=campaign, name="Claws", die="1d4")
    for c in (aria, bran):
        c.homebrew.weapons.add(sword, fireball)
    goblin.homebrew.weapons.add(claws)
    return SimpleNamespace(campaign=campaign, gm=gm, alice=alice, bob=bob, aria=aria, bran=bran,
                           goblin=goblin, sword=sword, fireball=fireball, claws=claws, now=now)
