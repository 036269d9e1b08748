"""The data the admin walk (test_admin_walk.py) edits: a campaign of each rule system with
characters, templates and sheets of every kind the admin shows, and a second EW1 campaign
whose rows must not be linked to the first's."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from django.utils import timezone

from campaigns.models import Board, Campaign, RuleSystem
from characters.models import Character
from eclipse.models import (ArmourTemplate, CarriedWeapon, EclipseSheet, MorphTemplate, Sleeve,
                            SquadNetwork, WornArmour)
from eclipse.models import WeaponTemplate as EPWeapon
from eclipse.services import MORPH_FIELDS
from encounters.models import EncounterEffect
from encounters.services import CombatantEntry, combatants_add, encounter_create
from ew1.models import ItemInstance, ItemTemplate
from ew1.services import piece_create
from factions.models import Faction, JoinRequest, Membership
from homebrew.models import HomebrewSheet
from homebrew.models import WeaponTemplate as HBWeapon
from homebrew.services import homebrew_character_create
from magic.models import ActiveEffect, KnownSpell, Scroll, Spell, SpellOffer
from tests import factories

SPREAD = {"physique": 60, "perception": 50, "mental": 60, "force": 3, "dexterite": 3,
          "sens": 2, "ether": 3, "esprit": 4, "intelligence": 2}


def build() -> SimpleNamespace:  # noqa: PLR0915  one row of each model, in order
    now = timezone.now()
    gm = factories.user("gm", is_staff=True, is_superuser=True)
    alice, bob = factories.user("alice"), factories.user("bob")
    w = SimpleNamespace(now=now, gm=gm, alice=alice, bob=bob)

    # Eternal War One II: a 15x15 board, a player and a creature on it, the catalogue.
    w.ew = factories.campaign(name="Ardent", width=15, height=15)
    w.ew_other = factories.campaign(name="Brume", width=5, height=5)
    Campaign.objects.filter(pk__in=[w.ew.pk, w.ew_other.pk]).update(game_master=gm)
    w.hero = factories.character(owner=alice, campaign=w.ew, name="Hero", at=(5, 5))
    w.villain = factories.character(owner=bob, campaign=w.ew, name="Villain", at=(8, 8))
    w.stranger = factories.character(owner=bob, campaign=w.ew_other, name="Stranger", at=(1, 1))
    w.ogre = piece_create(campaign=w.ew, kind="creature", name="Ogre", x=6, y=6, pv=80,
                          fixed_reduction=1)
    w.sword = ItemTemplate.objects.create(campaign=w.ew, name="Sword", kind="melee",
                                          damage_dice="1d8")
    w.axe = ItemTemplate.objects.create(campaign=w.ew_other, name="Axe", kind="melee",
                                        damage_dice="1d6")
    w.item = ItemInstance.objects.create(owner=w.hero, template=w.sword)
    w.spell = Spell.objects.create(campaign=w.ew, name="Fireball", effect="damage", dice="1d6")
    w.frost = Spell.objects.create(campaign=w.ew_other, name="Frost", effect="damage",
                                   dice="1d4")
    w.known = KnownSpell.objects.create(character=w.hero, spell=w.spell, source="granted",
                                        learned_at=now)
    w.offer = SpellOffer.objects.create(character=w.hero, level=1, created_at=now)
    w.offer.spells.add(w.spell)
    w.effect = ActiveEffect.objects.create(target=w.hero, caster=w.ogre, spell=w.spell,
                                           amount=2, expires_at=now + timedelta(days=1))
    w.scroll = Scroll.objects.create(board=w.ew.board, x=1, y=1, spell=w.spell)
    w.faction = Faction.objects.create(campaign=w.ew, name="Wolves", leader=w.hero)
    Membership.objects.create(faction=w.faction, character=w.hero)
    w.request = JoinRequest.objects.create(faction=w.faction, character=w.villain,
                                           kind="request")

    # The homebrew d100: a player, a creature, a character without a sheet, an encounter.
    w.hb = Campaign.objects.create(name="Gué", rule_system=RuleSystem.HOMEBREW, game_master=gm)
    w.hb_other = Campaign.objects.create(name="Ravin", rule_system=RuleSystem.HOMEBREW,
                                         game_master=gm)
    w.aria = homebrew_character_create(user=alice, campaign=w.hb, name="Aria", values=SPREAD,
                                       now=now)
    w.goblin = Character.objects.create(campaign=w.hb, name="Goblin",
                                        kind=Character.Kind.CREATURE)
    HomebrewSheet.objects.create(character=w.goblin, physique=50, perception=40, mental=20,
                                 force=2, dexterite=3, hp=8, hp_max=8, mp=0, mp_max=0)
    w.hb_bare = Character.objects.create(campaign=w.hb, name="Bare", kind=Character.Kind.CREATURE)
    w.hb_board = Board.objects.create(campaign=w.hb, width=5, height=5)  # a stray board
    w.hb_sword = HBWeapon.objects.create(campaign=w.hb, name="Sword", die="1d6")
    w.hb_far = HBWeapon.objects.create(campaign=w.hb_other, name="Spear", die="1d8")
    w.encounter = encounter_create(user=gm, campaign_id=w.hb.pk, name="Ford")
    w.fighters = combatants_add(user=gm, encounter_id=w.encounter.pk, entries=[
        CombatantEntry(character_id=w.aria.pk), CombatantEntry(character_id=w.goblin.pk)])
    w.other_encounter = encounter_create(user=gm, campaign_id=w.hb.pk, name="Bridge")
    w.elsewhere = combatants_add(user=gm, encounter_id=w.other_encounter.pk,
                                 entries=[CombatantEntry(name="Troll")])[0]
    w.encounter_effect = EncounterEffect.objects.create(
        encounter=w.encounter, name="Blessed", bearer=w.fighters[0], anchor=w.fighters[0],
        edge="end", rounds=2, created_round=0, expires_round=2)

    # Eclipse Phase: an ego sleeved in a Fury with a pistol and a vest, one without a sheet.
    w.ep = Campaign.objects.create(name="Locus", rule_system=RuleSystem.ECLIPSE_PHASE,
                                   game_master=gm)
    w.ep_other = Campaign.objects.create(name="Titan", rule_system=RuleSystem.ECLIPSE_PHASE,
                                         game_master=gm)
    w.fury = MorphTemplate.objects.create(campaign=w.ep, name="Fury", durability=50,
                                          aptitude_bonus={"SOM": 5}, traits=["ambidextrous"])
    w.far_morph = MorphTemplate.objects.create(campaign=w.ep_other, name="Case", durability=20)
    w.pistol = EPWeapon.objects.create(campaign=w.ep, name="Pistol", dv="1d10+2", ap=2,
                                       mode_ss=True, mode_sa=True, magazine=12, range_short=10,
                                       range_medium=30, range_long=50, range_extreme=100)
    w.far_weapon = EPWeapon.objects.create(campaign=w.ep_other, name="Rifle", dv="2d10",
                                           mode_fa=True, magazine=30)
    w.vest = ArmourTemplate.objects.create(campaign=w.ep, name="Vest", energy=6, kinetic=6)
    w.far_armour = ArmourTemplate.objects.create(campaign=w.ep_other, name="Crash suit",
                                                 energy=10, kinetic=10)
    w.ash = Character.objects.create(campaign=w.ep, owner=alice, name="Ash")
    w.ash_sheet = EclipseSheet.objects.create(character=w.ash, skills={"fray": 20})
    w.ash_sleeve = Sleeve.objects.create(owner=w.ash_sheet, template=w.fury, created_at=now,
                                         **{f: getattr(w.fury, f) for f in MORPH_FIELDS})
    EclipseSheet.objects.filter(pk=w.ash.pk).update(sleeve=w.ash_sleeve)
    w.carried = CarriedWeapon.objects.create(sheet=w.ash_sheet, template=w.pistol, loaded=12)
    w.worn = WornArmour.objects.create(sleeve=w.ash_sleeve, template=w.vest)
    w.brick = Character.objects.create(campaign=w.ep, owner=bob, name="Brick")
    w.brick_sheet = EclipseSheet.objects.create(character=w.brick)
    w.brick_sleeve = Sleeve.objects.create(owner=w.brick_sheet, template=w.fury, created_at=now,
                                           **{f: getattr(w.fury, f) for f in MORPH_FIELDS})
    w.ep_bare = Character.objects.create(campaign=w.ep, name="Drone",
                                         kind=Character.Kind.CREATURE)
    w.tacnet = SquadNetwork.objects.create(campaign=w.ep, name="Squad")
    return w
