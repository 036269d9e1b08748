"""An Eclipse Phase campaign for the encounter tests: a GM, Alice's Ava and Bob's Bo (players,
splicer morphs: DUR 30, WT 6, SPD 1, light armour 4/4), the GM's Guard (a pod, DUR 30), a
pistol (2d10, AP 2, SS/SA/BF, 12 rounds, one spare), a rifle (2d10+2, FA, 20 rounds), a knife
(1d10, melee) and a psi lash (1d10 psi)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from characters.models import Character
from eclipse.models import CarriedWeapon, EclipseSheet, MorphTemplate, WeaponTemplate
from encounters import services as enc
from tests import factories

SKILLS = {"fray": 40, "kinetic_weapons": 60, "blades": 50, "psi_assault": 50}


def sheet(character: Character, morph: MorphTemplate, armour=(), **fields) -> EclipseSheet:
    """``SKILLS`` (or ``skills``) as ratings under the ego's own aptitudes, stored as ranks."""
    values = {"reflexes": 20, "somatics": 20, "ratings": dict(SKILLS), **fields}
    if "skills" in values:
        values["ratings"] = values.pop("skills")
    s = factories.EclipseSheetFactory(character=character, moxie=2, moxie_max=3, **values)
    factories.SleeveFactory(owner=s, template=morph, armour=list(armour))
    return s


def carry(s: EclipseSheet, template: WeaponTemplate, spares: int = 1) -> CarriedWeapon:
    return factories.CarriedWeaponFactory(sheet=s, template=template, spares=spares)


def build_world(alice, bob) -> SimpleNamespace:
    gm = factories.user("gm")
    campaign = factories.EclipseCampaignFactory(name="Eclipse test", game_master=gm)
    splicer = factories.MorphTemplateFactory(campaign=campaign, name="Splicer", durability=30)
    pod = factories.MorphTemplateFactory(campaign=campaign, name="Pod", kind="pod",
                                         durability=30)
    vest = factories.ArmourTemplateFactory(campaign=campaign, name="Vest", energy=4, kinetic=4)
    weapon = factories.EclipseWeaponFactory
    pistol = weapon(
        campaign=campaign, name="Pistol", dv="2d10", ap=2, mode_ss=True, mode_sa=True,
        mode_bf=True, magazine=12, range_short=10, range_medium=30, range_long=50,
        range_extreme=100)
    rifle = weapon(
        campaign=campaign, name="Rifle", dv="2d10+2", ap=4, mode_fa=True, magazine=20,
        range_short=50, range_medium=150, range_long=250, range_extreme=500)
    knife = weapon(campaign=campaign, name="Knife", skill="blades", dv="1d10", melee=True)
    lash = weapon(campaign=campaign, name="Psi lash", skill="psi_assault", dv="1d10",
                  damage_type="psi", melee=True)
    grenade = weapon(
        campaign=campaign, name="Frag grenade", skill="throwing_weapons", dv="3d10",
        blast="blast", blast_radius_m=10, magazine=1, trigger="impact", range_short=10,
        range_medium=20, range_long=30, range_extreme=40)
    character = factories.CharacterFactory
    ava = character(campaign=campaign, name="Ava", owner=alice)
    bo = character(campaign=campaign, name="Bo", owner=bob)
    guard = factories.CreatureFactory(campaign=campaign, name="Guard")
    sheets = {c.pk: sheet(c, splicer if c != guard else pod, armour=[vest])
              for c in (ava, bo, guard)}
    w = SimpleNamespace()
    for c in (ava, bo):
        w.__dict__[f"{c.name.lower()}_pistol"] = carry(sheets[c.pk], pistol)
        w.__dict__[f"{c.name.lower()}_knife"] = carry(sheets[c.pk], knife)
    w.ava_lash = carry(sheets[ava.pk], lash)
    w.ava_grenade = carry(sheets[ava.pk], grenade, spares=0)
    w.guard_rifle = carry(sheets[guard.pk], rifle)
    w.guard_knife = carry(sheets[guard.pk], knife)
    return SimpleNamespace(campaign=campaign, gm=gm, alice=alice, bob=bob, ava=ava, bo=bo,
                           guard=guard, sheets=sheets, w=w, pistol=pistol, rifle=rifle,
                           knife=knife, now=timezone.now())


@pytest.fixture
def ep(db, alice, bob):
    return build_world(alice, bob)


def running(ep, *, surprised=()):
    """Ava, Bo and the Guard in that order (the GM's), started."""
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk, surprised=c in surprised)
        for c in (ep.ava, ep.bo, ep.guard)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    e.refresh_from_db()
    return e, {c.character_id: c for c in e.combatants.all()}
