"""A journal holding every kind the Eclipse Phase play writes, played through the services with
seeded dice (tests/eclipse_play/test_journal.py renders it)."""

from __future__ import annotations

import random

from eclipse.actions import (Destination, encounter_aim, encounter_full_defence, encounter_move,
                             encounter_other, encounter_reload)
from eclipse.attack import encounter_attack
from eclipse.blasts import BlastAim, encounter_explode
from eclipse.turn_end import encounter_turn_end
from eclipse.zones import FireZone, encounter_suppressive_fire
from encounters import services as enc
from tests.eclipse_play.conftest import running


def every_kind(ep, seed=15):
    """Round 1: Ava walks 2 m (positions) and fires two SA shots at the Guard 10 m away (a
    superior position), the GM dodges;
    Bo goes into full defence; the Guard opens suppressive fire on Ava and Bo; the end of the
    action turn. Round 2: Ava throws her grenade at the Guard and Bo, then aims; Bo reloads his
    pistol and names another action. Returns the encounter and its combatants."""
    rng = random.Random(seed)
    e, c = running(ep)
    for who, x, y in ((ep.ava, 0, 0), (ep.guard, 12, 0), (ep.bo, 30, 40)):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    encounter_move(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                   pace="walk", to=Destination(x=2, y=0, name="behind the crate"), now=ep.now)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="SA", shots=2, situations={"superior_position": 1},
                            rng=rng, now=ep.now)
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge", now=ep.now,
                        rng=rng)
    _next(ep, e)
    encounter_full_defence(user=ep.bob, encounter_id=e.pk, combatant_id=c[ep.bo.pk].pk,
                           now=ep.now)
    _next(ep, e)
    encounter_suppressive_fire(user=ep.gm, encounter_id=e.pk,
                               combatant_id=c[ep.guard.pk].pk,
                               weapon_id=ep.w.guard_rifle.pk,
                               fire=FireZone(target_ids=[c[ep.ava.pk].pk, c[ep.bo.pk].pk]), rng=rng,
                               now=ep.now)
    encounter_turn_end(user=ep.gm, encounter_id=e.pk, now=ep.now)
    _next(ep, e)
    encounter_explode(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                      weapon_id=ep.w.ava_grenade.pk,
                      aim=BlastAim(targets=[(c[ep.guard.pk].pk, 3), (c[ep.bo.pk].pk, 8)]), rng=rng,
                      now=ep.now)
    encounter_aim(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                  kind="quick", now=ep.now)
    _next(ep, e)
    encounter_reload(user=ep.bob, encounter_id=e.pk, combatant_id=c[ep.bo.pk].pk,
                     weapon_id=ep.w.bo_pistol.pk, now=ep.now)
    encounter_other(user=ep.bob, encounter_id=e.pk, combatant_id=c[ep.bo.pk].pk,
                    name="Shout a warning", kind="quick", now=ep.now)
    return e, c


def _next(ep, e):
    e.refresh_from_db()
    enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial)
    e.refresh_from_db()
