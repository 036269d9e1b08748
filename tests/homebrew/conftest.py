"""A homebrew campaign: a GM, Alice's Aria and Bob's Bran (players), a goblin (an enemy), a
sword (1d6, physical) and a fireball (1d8, magical, 3 MP)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from encounters import services as enc
from characters.models import Character
from homebrew.models import HomebrewSheet
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
    campaign = factories.HomebrewCampaignFactory(name="Homebrew test", game_master=gm)
    now = timezone.now()
    aria = homebrew_character_create(user=alice, campaign=campaign, name="Aria", values=SPREAD,
                                     now=now)
    bran = homebrew_character_create(user=bob, campaign=campaign, name="Bran", values=SPREAD,
                                     now=now)
    goblin = factories.HomebrewCreatureSheetFactory(character__campaign=campaign,
                                                    character__name="Goblin").character
    weapon = factories.HomebrewWeaponFactory
    sword = weapon(campaign=campaign, name="Sword", die="1d6")
    fireball = weapon(campaign=campaign, name="Fireball", die="1d8", kind="magical", mp_cost=3)
    claws = weapon(campaign=campaign, name="Claws", die="1d4")
    for c in (aria, bran):
        c.homebrew.weapons.add(sword, fireball)
    goblin.homebrew.weapons.add(claws)
    return SimpleNamespace(campaign=campaign, gm=gm, alice=alice, bob=bob, aria=aria, bran=bran,
                           goblin=goblin, sword=sword, fireball=fireball, claws=claws, now=now)


def in_view(hb, *, hidden=False):
    """Aria and the goblin (hidden or not) in an encounter being set up."""
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=hb.aria.pk),
        enc.CombatantEntry(character_id=hb.goblin.pk, hidden=hidden)])
    return e
