"""Campaigns whose journals hold every kind their rule system declares, played through the
services with seeded dice (tests/i18n/test_journal_words.py reads them on the pages).

Each ``*_world`` returns a ``World``: the campaign, the pages to read (url, user) and the
characters. A kind a system declares but no world plays fails the test: a new kind needs a line
here, and so a rendering."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from characters.models import Character
from tests import factories


@dataclass
class World:
    campaign: object
    pages: list = field(default_factory=list)  # (url, user)
    extra: dict = field(default_factory=dict)


def character_pages(campaign, users: dict) -> list:
    """Every character's page, read by its owner (the GM for the others)."""
    return [(reverse("characters:detail", args=[c.pk]), users.get(c.owner_id, users["gm"]))
            for c in Character.objects.filter(campaign=campaign).order_by("pk")]


def chat_played(world: World) -> World:
    """The chat's free rolls (every system): a sum and a test, each graded face shown, posted by
    the campaign's game master; the campaign's chat page read by them."""
    from chat import services

    campaign = world.campaign
    gm = campaign.game_master
    for text, seed in (("/roll 2d6+3", 1), ("/roll d100 <= 55", 2), ("/roll d100 <= 55", 5)):
        services.message_post(user=gm, campaign_id=campaign.pk, text=text,
                              rng=random.Random(seed))
    world.pages.append((reverse("chat:campaign", args=[campaign.pk]), gm))
    return world


def factions_played(*, leader_user, leader, member_user, member, third_user=None, third=None):
    """Every faction kind: a faction founded, joined, led by another, left, a member removed,
    dissolved."""
    from factions import services as f

    faction = f.faction_create(user=leader_user, character_id=leader.pk, name="The Band")
    f.faction_join(user=member_user, character_id=member.pk, faction_id=faction.pk)
    f.leadership_transfer(user=leader_user, faction_id=faction.pk, character_id=member.pk)
    f.faction_leave(user=leader_user, character_id=leader.pk, faction_id=faction.pk)
    if third is not None:
        f.faction_join(user=third_user, character_id=third.pk, faction_id=faction.pk)
        f.member_remove(user=member_user, faction_id=faction.pk, character_id=third.pk)
    f.faction_dissolve(user=member_user, faction_id=faction.pk)


# --- Eternal War One II -----------------------------------------------------------------------

EW1_SKILLS = {"brawl": 60, "melee": 50, "ranged": 50, "magic": 60, "dodge": 10, "throw": 50,
              "game": 40}


def ew1_world(alice, bob) -> World:
    from combat import services as board
    from ew1.equipment import item_equip, item_grant, item_use
    from ew1.models import EternalWarSheet, ItemTemplate
    from ew1.progression import grant_xp, level_up_spend
    from magic.casting import spell_cast
    from magic.models import KnownSpell, Spell
    from magic.spellbook import spell_grant, spell_offer_answer, spell_offer_pending

    rng, now = random.Random(19), timezone.now()
    gm = factories.user("gm")
    campaign = factories.campaign(name="EW1 words", width=12, height=12)
    campaign.game_master = gm
    campaign.save(update_fields=["game_master"])
    stats = dict(FOR=12, DEF=10, TAI=12, INT=12, DEX=12, LUK=10, skills=EW1_SKILLS)
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=now,
                               **stats)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5), now=now,
                              **stats)
    mage = factories.character(owner=alice, campaign=campaign, name="Mage", at=(5, 8), now=now,
                               **stats)
    carol = factories.user("carol")
    third = factories.character(owner=carol, campaign=campaign, name="Third", at=(1, 1),
                                now=now, **stats)
    sword = ItemTemplate.objects.create(name="Sword", kind=ItemTemplate.Kind.MELEE,
                                        damage_dice="1d8")
    bow = ItemTemplate.objects.create(name="Bow", kind=ItemTemplate.Kind.RANGED,
                                      damage_dice="1d6", range_cells=4)
    potion = ItemTemplate.objects.create(name="Potion", kind=ItemTemplate.Kind.MISC,
                                         heal_dice="2d4+2")
    for t in (sword, bow):
        item = item_grant(character=hero, template=t, rng=rng, now=now)
        item_equip(user=alice, character_id=hero.pk, item_id=item.pk)
    drink = item_grant(character=hero, template=potion, rng=rng, now=now)
    board.action_move(user=alice, character_id=hero.pk, dx=0, dy=1, now=now)
    board.action_move(user=alice, character_id=hero.pk, dx=0, dy=-1, now=now)
    for kind in ("brawl", "melee", "ranged", "throw"):
        board.action_attack(user=alice, character_id=hero.pk, target_id=foe.pk, kind=kind,
                            rng=rng, now=now)
    board.action_game(user=bob, character_id=foe.pk, rng=rng, now=now)
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=50)
    item_use(user=alice, character_id=hero.pk, item_id=drink.pk, rng=rng, now=now)
    # the mage: a spell cast on the foe's cell, a level gained, its points spent and the spell
    # offers of two levels, one learnt and one declined
    fireball = Spell.objects.create(name="Fireball", effect="damage", dice="1d6+1",
                                    range_cells=5)
    for i in range(1, 4):
        Spell.objects.create(name=f"Rune {i}", effect="damage", dice="1d4", campaign=campaign)
    spell_grant(character=mage, spell=fireball, source=KnownSpell.Source.GRANTED, now=now)
    spell_cast(user=alice, character_id=mage.pk, spell_id=fireball.pk, x=6, y=5, rng=rng,
               now=now)
    sheet = EternalWarSheet.objects.select_related("character__campaign").get(pk=mage.pk)
    grant_xp(sheet, 1000, campaign.parameters)
    sheet.save()
    level_up_spend(user=alice, character_id=mage.pk, add_skills={"magic": 1},
                   add_characteristics={}, now=now)
    mage = Character.objects.select_related("ew1", "campaign").get(pk=mage.pk)
    offer = spell_offer_pending(character=mage, rng=rng, now=now)
    spell_offer_answer(user=alice, character_id=mage.pk, offer_id=offer.pk,
                       spell_id=offer.spells.first().pk, now=now)
    offer = spell_offer_pending(character=mage, rng=rng, now=now)
    spell_offer_answer(user=alice, character_id=mage.pk, offer_id=offer.pk, spell_id=None,
                       now=now)
    factions_played(leader_user=bob, leader=foe, member_user=carol, member=third,
                    third_user=alice, third=mage)
    # the foe leaves the board by its own hand and comes back once the cooldown is over
    board.character_suicide(user=bob, character_id=foe.pk, now=now)
    board.character_reincarnate(user=bob, character_id=foe.pk, rng=rng,
                                now=now + timedelta(days=30))
    users = {alice.pk: alice, bob.pk: bob, carol.pk: carol, "gm": gm}
    return World(campaign, character_pages(campaign, users))


# --- the homebrew d100 ------------------------------------------------------------------------

def homebrew_world(alice, bob) -> World:
    """Aria, Bran (players) and a goblin; out of an encounter: tests, a posture, an attack and
    its reaction, a critical failure and its effect, a rest; in an encounter with a rolled
    order: an attack parried, one on a target in offensive posture (no reaction possible), a
    miss, a posture at the start of a turn, a move, another action, a move the GM counts."""
    from encounters import services as enc
    from homebrew import play, services as hb
    from tests.gamerules.fakes import FakeRandom
    from tests.homebrew.conftest import build_world

    w = build_world(alice, bob)
    now = w.now
    carol = factories.user("carol")
    cara = hb.homebrew_character_create(user=carol, campaign=w.campaign, name="Cara",
                                        values=_HB_SPREAD, now=now)
    hb.roll_test(user=alice, character=w.aria, code="physique", rng=FakeRandom(3), now=now)
    hb.roll_test(user=w.gm, character=w.aria, code="force", difficulty=-1,
                 assists=[("Bran", 1)], rng=FakeRandom(2), now=now)
    hb.posture_set(user=bob, character=w.bran, posture="defensive", now=now)
    declared = hb.attack(w.aria, w.bran, w.sword, rng=FakeRandom(40, 5), user=alice, now=now)
    hb.resolve(declared, "parry", rng=FakeRandom(3), user=bob, now=now)
    fumble = hb.attack(w.aria, w.goblin, w.sword, rng=FakeRandom(98), user=alice, now=now)
    hb.fumble_choose(user=w.gm, declared=fumble, code="off_balance", now=now)
    hb.rest_grant(user=w.gm, campaign=w.campaign, kind="short", now=now)
    # the encounter: initiative rolled (1d100 each: Aria 90, Bran 50, the goblin 10)
    e = enc.encounter_create(user=w.gm, campaign_id=w.campaign.pk, name="Ford")
    enc.combatants_add(user=w.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (w.aria, w.bran, w.goblin)])
    enc.encounter_start(user=w.gm, encounter_id=e.pk, mode="rolled", rng=FakeRandom(90, 50, 10),
                        now=now)
    e.refresh_from_db()
    c = {x.character_id: x for x in e.combatants.all()}
    # Aria: a sword thrust Bran parries, then (a hit goes on) the goblin, in offensive posture
    step = play.encounter_attack(user=alice, encounter_id=e.pk, combatant_id=c[w.aria.pk].pk,
                                 target_id=c[w.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=w.sword.pk, description="A thrust"),
                                 rng=FakeRandom(40, 5), now=now)
    enc.answer_reaction(user=bob, reaction_id=step.reaction.pk, choice="parry",
                        rng=FakeRandom(3), now=now)
    _next(w.gm, e)
    # Bran: back to offensive posture, a fireball on the goblin (no reaction possible)
    play.encounter_posture(user=bob, encounter_id=e.pk, combatant_id=c[w.bran.pk].pk,
                           posture="offensive", now=now)
    play.encounter_other(user=bob, encounter_id=e.pk, combatant_id=c[w.bran.pk].pk,
                         name="to the ford", move=play.Move(), now=now)
    play.encounter_attack(user=bob, encounter_id=e.pk, combatant_id=c[w.bran.pk].pk,
                          target_id=c[w.goblin.pk].pk, choices=play.AttackChoices(weapon_id=w.fireball.pk),
                          rng=FakeRandom(20, 3), now=now)
    _next(w.gm, e)
    # the goblin misses Aria (in offensive posture too)
    play.encounter_attack(user=w.gm, encounter_id=e.pk, combatant_id=c[w.goblin.pk].pk,
                          target_id=c[w.aria.pk].pk, choices=play.AttackChoices(weapon_id=w.claws.pk),
                          rng=FakeRandom(70), now=now)
    e.refresh_from_db()
    # round 2, Aria: the GM counts her long move as the action; then a named action next round
    enc.encounter_spend_action(user=w.gm, encounter_id=e.pk, turn=e.turn_serial, now=now)
    _next(w.gm, e)
    play.encounter_other(user=bob, encounter_id=e.pk, combatant_id=c[w.bran.pk].pk,
                         name="Shout a warning", now=now)
    factions_played(leader_user=alice, leader=w.aria, member_user=bob, member=w.bran,
                    third_user=carol, third=cara)
    users = {alice.pk: alice, bob.pk: bob, carol.pk: carol, "gm": w.gm}
    pages = [(reverse("encounters:play", args=[e.pk]), w.gm),
             (reverse("encounters:play", args=[e.pk]), alice),
             *character_pages(w.campaign, users)]
    return World(w.campaign, pages, {"encounter": e})


_HB_SPREAD = {"physique": 60, "perception": 50, "mental": 60, "force": 3, "dexterite": 3,
              "sens": 2, "ether": 3, "esprit": 4, "intelligence": 2}


def _next(gm, e):
    from encounters import services as enc

    e.refresh_from_db()
    enc.encounter_next_turn(user=gm, encounter_id=e.pk, turn=e.turn_serial)
    e.refresh_from_db()


# --- Eclipse Phase ----------------------------------------------------------------------------

def eclipse_world(alice, bob) -> World:
    """The encounter of tests/eclipse_play/journal_world.every_kind (moves, attacks, a volley,
    suppressive fire, an explosion, reloads, actions, the end of the turn); a second one set
    up with an ambush, its order rolled, its gravity set, the GM counting a move as the
    action; the sheets' own kinds (creation, resleeve, gear, healing, stress and its recovery,
    Moxie)."""
    from eclipse import ambush, environment, services as ep_services
    from eclipse.models import ArmourTemplate, EclipseSheet, MorphTemplate, WeaponTemplate
    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world
    from tests.eclipse_play.journal_world import every_kind
    from tests.gamerules.fakes import FakeRandom

    ep = build_world(alice, bob)
    now = ep.now
    e, _c = every_kind(ep)
    # the second encounter: Ava and Bo surprised by the guard, initiative rolled
    for c, skill, value in ((ep.ava, "perception", 50), (ep.bo, "perception", 60),
                            (ep.guard, "infiltration", 60)):
        s = EclipseSheet.objects.get(pk=c.pk)
        s.skills = {**s.skills, skill: value - 15}
        s.save(update_fields=["skills"])
    f = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Ambush")
    enc.combatants_add(user=ep.gm, encounter_id=f.pk, entries=[
        enc.CombatantEntry(character_id=c.pk, surprised=c != ep.guard)
        for c in (ep.ava, ep.bo, ep.guard)])
    fc = {x.character_id: x for x in f.combatants.all()}
    ambush.encounter_ambush(user=ep.gm, encounter_id=f.pk, ambusher_id=fc[ep.guard.pk].pk,
                            rng=FakeRandom(35, 20, 15, 20), now=now)
    enc.encounter_start(user=ep.gm, encounter_id=f.pk, mode="rolled", rng=FakeRandom(5, 5, 5),
                        now=now)
    environment.encounter_gravity_set(user=ep.gm, encounter_id=f.pk, gravity_g="1.6", now=now)
    f.refresh_from_db()
    enc.encounter_spend_action(user=ep.gm, encounter_id=f.pk, turn=f.turn_serial, now=now)
    # the sheets: a new ego, resleeved, gear taken and dropped, healed, stressed, recovering
    morph = MorphTemplate.objects.create(campaign=ep.campaign, name="Fury", durability=50)
    ash = ep_services.eclipse_character_create(
        user=alice, campaign=ep.campaign, name="Ash", morph_id=morph.pk, now=now,
        aptitudes={"COG": 15, "COO": 20, "INT": 15, "REF": 20, "SAV": 10, "SOM": 15, "WIL": 10},
        skills={"fray": 40})
    splicer = MorphTemplate.objects.get(campaign=ep.campaign, name="Splicer")
    ep_services.resleeve(user=alice, character=ash.pk, morph_id=splicer.pk, now=now)
    knife = WeaponTemplate.objects.get(campaign=ep.campaign, name="Knife")
    carried = ep_services.weapon_equip(user=alice, character=ash.pk, template_id=knife.pk,
                                       now=now)
    ep_services.weapon_unequip(user=alice, character=ash.pk, carried_id=carried.pk, now=now)
    vest = ArmourTemplate.objects.get(campaign=ep.campaign, name="Vest")
    worn = ep_services.armour_wear(user=alice, character=ash.pk, template_id=vest.pk, now=now)
    ep_services.armour_remove(user=alice, character=ash.pk, worn_id=worn.pk, now=now)
    ep_services.stress_inflict(user=ep.gm, character=ash.pk, sv="1d10", source="a horror",
                               rng=FakeRandom(9, 80), now=now)
    ep_services.stress_recover(user=ep.gm, character=ash.pk, method="rest", stress=2, now=now)
    ep_services.derangement_name(user=ep.gm, character=ash.pk, name="Fear of the dark", now=now)
    ep_services.heal(user=ep.gm, character=ep.guard.pk, damage=5, wounds=1, now=now)
    ep_services.moxie_spend(user=alice, character=ash.pk, reason="a lucky break", now=now)
    ep_services.moxie_refresh(user=ep.gm, character=ash.pk, now=now)
    carol = factories.user("carol")
    cy = ep_services.eclipse_character_create(
        user=carol, campaign=ep.campaign, name="Cy", morph_id=morph.pk, now=now,
        aptitudes={"COG": 15, "COO": 20, "INT": 15, "REF": 20, "SAV": 10, "SOM": 15, "WIL": 10})
    factions_played(leader_user=alice, leader=ep.ava, member_user=bob, member=ep.bo,
                    third_user=carol, third=cy)
    users = {alice.pk: alice, bob.pk: bob, carol.pk: carol, "gm": ep.gm}
    pages = [(reverse("encounters:play", args=[x.pk]), who) for x in (e, f)
             for who in (ep.gm, alice)]
    return World(ep.campaign, [*pages, *character_pages(ep.campaign, users)], {"encounter": e})
