"""The demo homebrew d100 campaign (seed 002_80873c4f1892db54.txt): Alice's and Bob's party,
goblins and a wolf, the weapons and spells they use, and an encounter ready to run (the party
against the enemies, in the GM's order, not started). Loaded by config.demo.load_demo."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from encounters.services import CombatantEntry, combatants_add, encounter_create
from homebrew.models import HomebrewSheet, WeaponTemplate
from homebrew.services import homebrew_character_create

DEMO_ENCOUNTER = "Embuscade au gué"

DEMO_CAMPAIGN = "Homebrew d100: demo"

WEAPONS = [  # name, die, kind, MP cost
    ("Épée longue", "1d6", "physical", 0),
    ("Dague", "1d4", "physical", 0),
    ("Pistosabre", "1d8", "physical", 1),  # a cartridge per shot, counted on the MP gauge
    ("Trait de feu", "1d8", "magical", 3),
    ("Éclair", "1d10", "magical", 5),
    ("Griffes", "1d4", "physical", 0),
    ("Gourdin", "1d6", "physical", 0),
]
# What a new player of the demo may start with (homebrew.services.starting_gear).
STARTING_GEAR = ("Épée longue", "Dague", "Pistosabre", "Trait de feu")
PARTY = [  # username, name, characteristics, MP gauge label, weapons, posture
    ("alice", "Lysandre",
     {"physique": 70, "perception": 50, "mental": 50, "force": 4, "dexterite": 3, "sens": 3,
      "ether": 2, "esprit": 3, "intelligence": 2}, "", ["Épée longue", "Trait de feu"],
     "defensive"),
    ("bob", "Tobin",
     {"physique": 60, "perception": 70, "mental": 40, "force": 2, "dexterite": 4, "sens": 4,
      "ether": 3, "esprit": 2, "intelligence": 2}, "Cartridges", ["Pistosabre", "Dague"],
     "offensive"),
]
ENEMIES = [  # name, physique, perception, mental, force, dexterite, HP, weapons, spared
    ("Gobelin éclaireur", 45, 50, 20, 2, 3, 8, ["Dague"], False),
    ("Gobelin chef", 60, 40, 40, 4, 2, 14, ["Gourdin", "Éclair"], True),
    ("Loup gris", 55, 60, 10, 3, 4, 10, ["Griffes"], False),
]


@transaction.atomic
def load_homebrew_demo(*, gm, players: dict, now: datetime) -> Campaign:
    """Create the demo homebrew campaign with ``gm`` as its game master and the party of
    ``players`` (username -> user). Call once (load_demo does, on an empty database)."""
    campaign = Campaign.objects.create(
        name=DEMO_CAMPAIGN, rule_system=RuleSystem.HOMEBREW, game_master=gm,
        description="Demo campaign of the homebrew d100 rules: a party, goblins and a wolf.",
        rule_parameters={"hp_max_default": 20, "mp_max_default": 10})
    weapons = {w.name: w for w in WeaponTemplate.objects.bulk_create(
        [WeaponTemplate(campaign=campaign, name=n, die=d, kind=k, mp_cost=c,
                        offered_at_creation=n in STARTING_GEAR)
         for n, d, k, c in WEAPONS])}
    for username, name, values, label, arms, posture in PARTY:
        character = homebrew_character_create(user=players[username], campaign=campaign,
                                              name=name, values=values, mp_label=label, now=now)
        HomebrewSheet.objects.filter(pk=character.pk).update(posture=posture)
        character.homebrew.weapons.set([weapons[a] for a in arms])
    for name, phy, per, men, force, dex, hp, arms, spared in ENEMIES:
        enemy = Character.objects.create(campaign=campaign, name=name,
                                         kind=Character.Kind.CREATURE)
        sheet = HomebrewSheet.objects.create(
            character=enemy, physique=phy, perception=per, mental=men, force=force,
            dexterite=dex, sens=2, ether=1, esprit=1, intelligence=1, hp=hp, hp_max=hp,
            mp=10 if "Éclair" in arms else 0, mp_max=10 if "Éclair" in arms else 0,
            spared=spared)
        sheet.weapons.set([weapons[a] for a in arms])
    _demo_encounter(gm=gm, campaign=campaign)
    return campaign


def _demo_encounter(*, gm, campaign: Campaign) -> None:
    """The party, then the enemies, in the GM's order (entry order): the GM starts it."""
    encounter = encounter_create(user=gm, campaign_id=campaign.pk, name=DEMO_ENCOUNTER)
    ids = list(Character.objects.filter(campaign=campaign).order_by("-kind", "pk")
               .values_list("pk", flat=True))
    combatants_add(user=gm, encounter_id=encounter.pk,
                   entries=[CombatantEntry(character_id=pk) for pk in ids])
