"""Two encounters whose journals hold every kind their rule system's play writes
(encounters.hooks.journal_kinds), each kind with several combatants in it, played through the
services with seeded dice and positions: what tests/encounters/test_hidden_kinds.py reads as a
player with one combatant hidden at a time. Everyone is visible while the encounter is played
(a player may not name a hidden combatant); the GM hides one afterwards, and what was
journaled is read again: the filter reads the journal, it never rewrites it."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace

from encounters import services as enc
from encounters.models import Combatant, Encounter, EncounterEffect
from tests import factories
from tests.gamerules.fakes import FakeRandom


def _next(gm, e: Encounter) -> Encounter:
    e.refresh_from_db()
    enc.encounter_next_turn(user=gm, encounter_id=e.pk, turn=e.turn_serial)
    e.refresh_from_db()
    return e


def _play(gm, e: Encounter, plan: dict[tuple[int, str], Callable[[Encounter], None]],
          end_of_round: Callable[[Encounter], None] | None = None) -> None:
    """Play the encounter's turns, each combatant's ``plan[(round, name)]`` on its turn (the
    order is rolled: who comes when is the dice's), until every planned turn is played;
    ``end_of_round`` before each new round."""
    for _step in range(60):
        if not plan:
            return
        e.refresh_from_db()
        name = Combatant.objects.get(pk=e.current_id).name
        act = plan.pop((e.round, name), None)
        before, serial = e.round, e.turn_serial
        if act is not None:
            act(e)
        if not plan:  # the last one played: no new round (and no more initiative) after it
            return
        e.refresh_from_db()
        if e.turn_serial == serial:  # the action did not end the turn
            e = _next(gm, e)
        if e.round != before and end_of_round is not None and plan:
            end_of_round(e)
    raise AssertionError(f"turns never played: {sorted(plan)}")


# --- homebrew ---------------------------------------------------------------------------------

def homebrew_world(hb) -> SimpleNamespace:
    """Aria (Alice's), Bran (Bob's), the Goblin, a Wolf (a creature in defensive posture, who
    parries for the Goblin) and a Shade (a name only, no sheet), placed, the order rolled.
    Round 1: Aria changes posture, moves and hits the Goblin with her sword, the Wolf parrying
    for it; Bran changes posture and the GM counts his move as his action; the Goblin claws
    Aria (no reaction possible: resolved at once); the Wolf howls. Round 2: Bran shouts."""
    from homebrew import play
    from homebrew.models import HomebrewSheet

    wolf = factories.HomebrewCreatureSheetFactory(
        character__campaign=hb.campaign, character__name="Wolf", perception=50, mental=10,
        force=4, dexterite=2, hp=10, hp_max=10, mp=10, mp_max=10, posture="defensive").character
    wolf.homebrew.weapons.add(hb.claws)
    HomebrewSheet.objects.filter(pk=hb.goblin.pk).update(posture="defensive")
    gm, now = hb.gm, hb.now
    e = enc.encounter_create(user=gm, campaign_id=hb.campaign.pk, name="Ford")
    enc.combatants_add(user=gm, encounter_id=e.pk, entries=[
        *(enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.bran, hb.goblin, wolf)),
        enc.CombatantEntry(name="Shade")])
    c = {x.name: x for x in e.combatants.all()}
    for i, name in enumerate(("Aria", "Bran", "Goblin", "Wolf", "Shade")):
        enc.combatant_place(user=gm, encounter_id=e.pk, combatant_id=c[name].pk, x=3 * i + 1,
                            y=2 * i + 7)
    enc.encounter_start(user=gm, encounter_id=e.pk, mode="rolled", now=now,
                        rng=random.Random(11))

    def aria(e):
        me = c["Aria"].pk
        play.encounter_posture(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                               posture="offensive", now=now)
        play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                             name="to the ford", move=play.Move(), now=now)
        step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                                     target_id=c["Goblin"].pk,
                                     choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                     rng=FakeRandom(30, 6), now=now)
        enc.answer_reaction(user=gm, reaction_id=step.reaction.pk, choice=f"parry:{wolf.pk}",
                            rng=FakeRandom(4), now=now)

    def bran(e):
        play.encounter_posture(user=hb.bob, encounter_id=e.pk, combatant_id=c["Bran"].pk,
                               posture="defensive", now=now)
        enc.encounter_spend_action(user=gm, encounter_id=e.pk, turn=e.turn_serial,
                                   reason="move", now=now)

    def goblin(e):
        play.encounter_attack(user=gm, encounter_id=e.pk, combatant_id=c["Goblin"].pk,
                              target_id=c["Aria"].pk, choices=play.AttackChoices(weapon_id=hb.claws.pk),
                              rng=FakeRandom(20, 2), now=now)

    def wolf_turn(e):
        play.encounter_other(user=gm, encounter_id=e.pk, combatant_id=c["Wolf"].pk,
                             name="Howls", now=now)

    def shout(e):
        play.encounter_other(user=hb.bob, encounter_id=e.pk, combatant_id=c["Bran"].pk,
                             name="Shouts a warning", now=now)

    _play(gm, e, {(1, "Aria"): aria, (1, "Bran"): bran, (1, "Goblin"): goblin,
                  (1, "Wolf"): wolf_turn, (2, "Bran"): shout})
    e.refresh_from_db()
    return SimpleNamespace(e=e, c=c, gm=gm, system="homebrew",
                           readers={"Aria": hb.bob}, reader=hb.alice, campaign=hb.campaign)


# --- Eclipse Phase ----------------------------------------------------------------------------

def _eclipse_started(ep, rng):
    """The encounter of ``eclipse_world`` up to its start: Ava, Bo (surprised) and the Guard
    placed at 1.5 g, the TACNet of Ava and Bo with the Guard perceived by Ava, the Guard's
    ambush on Bo and the rolled order. Returns (encounter, combatants by name, network)."""
    from eclipse import environment, tacnet
    from eclipse.ambush import encounter_ambush

    gm, now = ep.gm, ep.now
    e = enc.encounter_create(user=gm, campaign_id=ep.campaign.pk, name="Locus")
    enc.combatants_add(user=gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=ep.ava.pk), enc.CombatantEntry(character_id=ep.bo.pk,
                                                                       surprised=True),
        enc.CombatantEntry(character_id=ep.guard.pk)])
    c = {x.name: x for x in e.combatants.all()}
    for name, x, y in (("Ava", 0, 0), ("Guard", 12, 0), ("Bo", 14, 3)):
        enc.combatant_place(user=gm, encounter_id=e.pk, combatant_id=c[name].pk, x=x, y=y)
    net = tacnet.tacnet_create(user=gm, campaign_id=ep.campaign.pk, name="Squad")
    for who in (ep.ava, ep.bo):
        tacnet.tacnet_join(user=gm, network_id=net.pk, character_id=who.pk, now=now)
    tacnet.tacnet_perceive(user=gm, encounter_id=e.pk, network_id=net.pk,
                           opponent_id=c["Guard"].pk, by_id=c["Ava"].pk, note="behind the crate",
                           now=now)
    environment.encounter_gravity_set(user=gm, encounter_id=e.pk, gravity_g="1.5", now=now)
    encounter_ambush(user=gm, encounter_id=e.pk, ambusher_id=c["Guard"].pk, rng=rng, now=now)
    enc.encounter_start(user=gm, encounter_id=e.pk, mode="rolled", now=now, rng=rng)
    return e, c, net


def eclipse_world(ep) -> SimpleNamespace:
    """Ava (Alice's), Bo (Bob's, surprised) and the Guard, placed, in an Eclipse Phase
    encounter at 1.5 g; a TACNet of Ava and Bo, the GM marking the Guard perceived by Ava.
    Before the start the Guard ambushes Bo; the order is rolled (and again each action turn).
    Round 1: Ava walks and fires SA at the Guard and Bo (a volley of two targets, each
    defending); Bo goes into full defence and aims; the Guard opens suppressive fire towards
    Ava (the zone's free attacks) and the GM calls the zone's free attack on Bo; at the end of
    the action turn the Guard's stun wears off. Round 2: the Guard holds Ava (a hold) and Ava
    escapes it; Bo reloads and shouts; the GM counts the Guard's move as an action and
    the Guard draws. Round 3: Ava's grenade goes off on the
    Guard (the blast's reach from positions: Guard, Bo and Ava); the GM inflicts stress on the
    Guard (journaled outside the encounter's log)."""
    from eclipse import services
    from eclipse.actions import (Destination, encounter_aim, encounter_escape,
                                 encounter_full_defence, encounter_move, encounter_other,
                                 encounter_reload)
    from eclipse.attack import encounter_attack
    from eclipse.blasts import BlastAim, encounter_explode
    from eclipse.defence import HOLD_ROUNDS, _effect_on, held_by
    from eclipse.models import Sleeve
    from eclipse.turn_end import encounter_turn_end
    from eclipse.zones import ZONE, FireZone, encounter_suppressive_fire, encounter_zone_attack

    gm, now = ep.gm, ep.now
    rng = random.Random(5)
    e, c, net = _eclipse_started(ep, rng)

    def answer_all(step):
        from encounters.models import PendingReaction

        for r in PendingReaction.objects.filter(encounter=e, status="pending").order_by("pk"):
            who = ep.bob if r.target_id == c["Bo"].pk else gm
            enc.answer_reaction(user=who, reaction_id=r.pk, choice=r.default, now=now, rng=rng)

    def ava_1(e):
        me = c["Ava"].pk
        encounter_move(user=ep.alice, encounter_id=e.pk, combatant_id=me, pace="walk",
                       to=Destination(x=2, y=0, name="behind the crate"), now=now)
        step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=me,
                                target_id=c["Guard"].pk, other_target_ids=[c["Bo"].pk],
                                weapon_id=ep.w.ava_pistol.pk, mode="SA", rng=rng, now=now)
        answer_all(step)

    def bo_1(e):
        me = c["Bo"].pk
        encounter_aim(user=ep.bob, encounter_id=e.pk, combatant_id=me, kind="quick",
                      now=now)
        encounter_full_defence(user=ep.bob, encounter_id=e.pk, combatant_id=me, now=now)

    def guard_1(e):
        encounter_suppressive_fire(user=gm, encounter_id=e.pk,
                                   combatant_id=c["Guard"].pk,
                                   weapon_id=ep.w.guard_rifle.pk,
                                   fire=FireZone(target_ids=[], aim_id=c["Ava"].pk),
                                   rng=rng, now=now)
        zone = EncounterEffect.objects.get(encounter=e, name=ZONE,
                                           expired_round__isnull=True)
        encounter_zone_attack(user=gm, encounter_id=e.pk, zone_id=zone.pk,
                              target_id=c["Bo"].pk, rng=rng, now=now)
        Sleeve.objects.filter(pk=ep.sheets[ep.guard.pk].sleeve_id).update(stunned=1)

    def ava_2(e):
        _effect_on(e, c["Ava"], c["Guard"], held_by("Guard"), HOLD_ROUNDS)
        encounter_escape(user=ep.alice, encounter_id=e.pk, combatant_id=c["Ava"].pk,
                         how="opposed", rng=rng, now=now)

    def bo_2(e):
        me = c["Bo"].pk
        encounter_reload(user=ep.bob, encounter_id=e.pk, combatant_id=me,
                         weapon_id=ep.w.bo_pistol.pk, now=now)
        encounter_other(user=ep.bob, encounter_id=e.pk, combatant_id=me,
                        name="Shouts a warning", kind="quick", now=now)

    def guard_2(e):
        enc.encounter_spend_action(user=gm, encounter_id=e.pk, turn=e.turn_serial,
                                   reason="move", now=now)
        encounter_other(user=gm, encounter_id=e.pk, combatant_id=c["Guard"].pk,
                        name="Draws a knife", kind="quick", now=now)

    def ava_3(e):
        encounter_explode(user=ep.alice, encounter_id=e.pk, combatant_id=c["Ava"].pk,
                          weapon_id=ep.w.ava_grenade.pk,
                          aim=BlastAim(targets=[], centre_id=c["Guard"].pk), rng=rng, now=now)
        services.stress_inflict(user=gm, character=ep.guard.pk, sv=3, rng=rng, now=now)

    def turn_end(e):  # once, as round 2 begins: the Guard's stun wears off
        if e.round == 2:
            encounter_turn_end(user=gm, encounter_id=e.pk, now=now)

    _play(gm, e, {(1, "Ava"): ava_1, (1, "Bo"): bo_1, (1, "Guard"): guard_1,
                  (2, "Ava"): ava_2, (2, "Bo"): bo_2, (2, "Guard"): guard_2,
                  (3, "Ava"): ava_3}, end_of_round=turn_end)
    e.refresh_from_db()
    return SimpleNamespace(e=e, c=c, gm=gm, system="eclipse_phase", network=net,
                           readers={"Ava": ep.bob}, reader=ep.alice, campaign=ep.campaign)
