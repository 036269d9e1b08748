"""The demo Eclipse Phase campaign (seed 001_e6266c120d4801b4.txt): Alice's and Bob's squad (a
splicer biomorph and a synthmorph; a third, the GM's ally, in a pod), opponents copied from
the GM's templates, weapons of every firing mode (SS, SA, BF, FA, a beam, an explosive, a melee
weapon), armour, and an encounter ready to run (combatants added, not started). Loaded by
config.demo.load_demo; loading it twice adds nothing (the campaign's name is looked up first).
The numbers are the first edition's usual ones (ECLIPSE-PHASE-NOTES.md); each morph has the
first edition's aptitude maximum (the EPSheet compendium's morph data: splicer 25, fury, synth,
octomorph and pleasure pod 30). The skills are written as ratings under the ego's own
aptitudes and stored as the ranks they mean (``ranks_for``, the reading of migration 0004), so
a morph's bonus moves them. No demo morph has a pain filter as standard (the book's synth lists
none; its octomorph is an uplift biomorph): Brick's synth carries one as an implant added to
that body (docs/rules/eclipse-phase.md, "Characters")."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from eclipse.models import (ArmourTemplate, CarriedWeapon, EclipseSheet, MorphTemplate, Sleeve,
                            WeaponTemplate, WornArmour)
from eclipse.services import MORPH_FIELDS, armour_wear, eclipse_character_create, weapon_equip
from encounters.services import CombatantEntry, combatants_add, encounter_create
from gamerules.eclipse_phase.sheet import Aptitude, ranks_for

DEMO_CAMPAIGN = "Eclipse Phase: demo"
DEMO_ENCOUNTER = "Ambush on Locus station"

MORPHS = [  # name, kind, DUR, energy/kinetic armour, SPD, aptitude bonus, traits, limbs,
    # aptitude maximum (first edition)
    ("Splicer", "biomorph", 30, 0, 0, 1, {"SOM": 5}, [], 2, 25),
    ("Fury", "biomorph", 50, 0, 0, 2, {"SOM": 10, "REF": 5}, ["ambidextrous"], 2, 30),
    ("Synth", "synthmorph", 40, 6, 6, 2, {"SOM": 5}, [], 2, 30),
    ("Octomorph", "synthmorph", 30, 4, 4, 1, {"COO": 5}, ["extra_limbs"], 8, 30),
    ("Pleasure pod", "pod", 30, 0, 0, 1, {"INT": 5}, ["ambidextrous"], 2, 30),
]
IMPLANTS = {"Brick": ["pain_filter"]}  # implants added to a squad member's first body
WEAPONS = [  # name, skill, DV, AP, type, melee, modes, magazine, ranges, beam, blast, extra
    ("Monofilament sword", "blades", "2d10+3", 3, "kinetic", True, "", 0, (0, 0, 0, 0), False,
     "", {"two_handed": False, "reach": True}),
    ("Medium pistol", "kinetic_weapons", "1d10+2", 2, "kinetic", False, "SS SA", 12,
     (10, 30, 50, 100), False, "", {}),
    ("Assault rifle", "kinetic_weapons", "2d10", 6, "kinetic", False, "SA BF FA", 30,
     (30, 80, 125, 230), False, "", {"two_handed": True}),
    ("Sniper rifle", "kinetic_weapons", "2d10+4", 10, "kinetic", False, "SS", 8,
     (50, 150, 300, 500), False, "", {"two_handed": True}),
    ("Laser pulser", "beam_weapons", "2d10", 3, "energy", False, "SA BF", 100,
     (30, 100, 150, 300), True, "", {}),
    ("Frag grenade", "throwing_weapons", "3d10+6", 0, "kinetic", False, "", 1,
     (5, 10, 20, 40), False, "blast", {"blast_radius_m": 10, "trigger": "impact"}),
    ("Shock glove", "unarmed_combat", "1d10", 0, "energy", True, "", 0, (0, 0, 0, 0), False, "",
     {"touch": True}),
]
ARMOUR = [("Armour vest", 6, 6), ("Armour clothing", 3, 4), ("Crash suit", 9, 12)]
SQUAD = [  # username (None: the GM's ally), name, morph, aptitudes, skills, weapons, armour
    ("alice", "Ash Okonkwo", "Splicer",
     {"COG": 15, "COO": 20, "INT": 15, "REF": 20, "SAV": 10, "SOM": 15, "WIL": 10},
     {"fray": 45, "kinetic_weapons": 55, "blades": 40, "perception": 40, "infiltration": 35},
     [("Assault rifle", 2), ("Monofilament sword", 0)], ["Armour vest"]),
    ("bob", "Brick", "Synth",
     {"COG": 10, "COO": 20, "INT": 15, "REF": 15, "SAV": 10, "SOM": 20, "WIL": 15},
     {"fray": 35, "beam_weapons": 50, "throwing_weapons": 40, "unarmed_combat": 45},
     [("Laser pulser", 1), ("Frag grenade", 2), ("Shock glove", 0)], []),
    (None, "Vex", "Pleasure pod",
     {"COG": 15, "COO": 15, "INT": 20, "REF": 15, "SAV": 20, "SOM": 10, "WIL": 10},
     {"fray": 30, "kinetic_weapons": 40, "perception": 50, "psychosurgery": 45},
     [("Medium pistol", 2)], ["Armour clothing"]),
]
OPPONENTS = [  # name, morph, aptitudes (each), skills, weapons, armour
    ("Ultimate mercenary", "Fury", 15, {"fray": 50, "kinetic_weapons": 55, "blades": 50},
     [("Assault rifle", 1), ("Monofilament sword", 0)], ["Crash suit"]),
    ("Security octomorph", "Octomorph", 15, {"fray": 40, "kinetic_weapons": 45},
     [("Medium pistol", 1), ("Sniper rifle", 1)], []),
]


def _weapon(campaign, row) -> WeaponTemplate:
    name, skill, dv, ap, kind, melee, modes, magazine, ranges, beam, blast, extra = row
    flags = {f"mode_{m.lower()}": True for m in modes.split()}
    return WeaponTemplate(campaign=campaign, name=name, skill=skill, dv=dv, ap=ap,
                          damage_type=kind, melee=melee, magazine=magazine,
                          range_short=ranges[0], range_medium=ranges[1], range_long=ranges[2],
                          range_extreme=ranges[3], beam=beam, blast=blast, **flags, **extra)


@transaction.atomic
def load_eclipse_demo(*, gm, players: dict, now: datetime) -> Campaign:
    """The demo campaign with ``gm`` as its game master and the squad of ``players`` (username
    -> user). Idempotent: an existing demo campaign is returned as it is."""
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if existing is not None:
        return existing
    campaign = Campaign.objects.create(
        name=DEMO_CAMPAIGN, rule_system=RuleSystem.ECLIPSE_PHASE, game_master=gm,
        description="Demo campaign of Eclipse Phase (first edition's combat): a squad against "
                    "mercenaries, weapons of every firing mode.")
    morphs = {m.name: m for m in MorphTemplate.objects.bulk_create([
        MorphTemplate(campaign=campaign, name=n, kind=k, durability=d, armour_energy=e,
                      armour_kinetic=ki, speed=s, aptitude_bonus=b, traits=t, limbs=li,
                      aptitude_max=top)
        for n, k, d, e, ki, s, b, t, li, top in MORPHS])}
    weapons = {w.name: w for w in WeaponTemplate.objects.bulk_create(
        [_weapon(campaign, row) for row in WEAPONS])}
    armour = {a.name: a for a in ArmourTemplate.objects.bulk_create(
        [ArmourTemplate(campaign=campaign, name=n, energy=e, kinetic=k) for n, e, k in ARMOUR])}
    for username, name, morph, aptitudes, skills, arms, worn in SQUAD:
        owner = players.get(username) if username else gm
        ranks = ranks_for(skills, {Aptitude(k): v for k, v in aptitudes.items()})
        character = eclipse_character_create(user=owner, campaign=campaign, name=name,
                                             aptitudes=aptitudes, skills=ranks,
                                             morph_id=morphs[morph].pk, now=now)
        if name in IMPLANTS:
            Sleeve.objects.filter(owner_id=character.pk).update(implants=IMPLANTS[name])
        if username is None:  # the GM's ally: a creature of the GM's, not a player character
            Character.objects.filter(pk=character.pk).update(owner=None,
                                                             kind=Character.Kind.CREATURE)
        for weapon, spares in arms:
            weapon_equip(user=None, character=character.pk, template_id=weapons[weapon].pk,
                         spares=spares, now=now)
        for a in worn:
            armour_wear(user=None, character=character.pk, template_id=armour[a].pk, now=now)
    for name, morph, each, skills, arms, worn in OPPONENTS:  # templates the GM copies
        enemy = Character.objects.create(campaign=campaign, name=name,
                                         kind=Character.Kind.CREATURE)
        sheet = EclipseSheet.objects.create(
            character=enemy, skills=ranks_for(skills, {a: each for a in Aptitude}),
            cognition=each, coordination=each, intuition=each,
            reflexes=each, savvy=each, somatics=each, willpower=each, moxie=0, moxie_max=0)
        template = morphs[morph]
        sleeve = Sleeve.objects.create(owner=sheet, template=template, created_at=now,
                                       **{f: getattr(template, f) for f in MORPH_FIELDS})
        EclipseSheet.objects.filter(pk=sheet.pk).update(sleeve=sleeve)
        CarriedWeapon.objects.bulk_create([
            CarriedWeapon(sheet=sheet, template=weapons[w], loaded=weapons[w].magazine,
                          spares=s) for w, s in arms])
        WornArmour.objects.bulk_create([WornArmour(sleeve=sleeve, template=armour[a])
                                        for a in worn])
    _demo_encounter(gm=gm, campaign=campaign)
    return campaign


def _demo_encounter(*, gm, campaign: Campaign) -> None:
    """The squad, then two copies of the mercenary and one octomorph, in the GM's order (entry
    order; turns a round = SPD): the GM starts it, rolling initiative or not."""
    encounter = encounter_create(user=gm, campaign_id=campaign.pk, name=DEMO_ENCOUNTER)
    squad = list(Character.objects.filter(campaign=campaign, name__in=[s[1] for s in SQUAD])
                 .order_by("pk").values_list("pk", flat=True))
    templates = dict(Character.objects.filter(campaign=campaign,
                                              name__in=[o[0] for o in OPPONENTS])
                     .values_list("name", "pk"))
    combatants_add(user=gm, encounter_id=encounter.pk, entries=[
        *(CombatantEntry(character_id=pk) for pk in squad),
        CombatantEntry(template_id=templates["Ultimate mercenary"], name="Mercenary", count=2),
        CombatantEntry(template_id=templates["Security octomorph"], name="Octomorph")])
