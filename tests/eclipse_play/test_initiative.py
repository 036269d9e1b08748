"""Eclipse Phase rolls initiative at the start of every action turn (issue 12, item 3; the
first edition: 1d10 + base - initiative_per_wound per wound and per trauma), on the shared
encounter's re-roll each round (encounters.hooks.register_initiative_each_round)."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord
from eclipse.models import EclipseSheet, Sleeve
from encounters import hooks
from encounters import services as enc
from tests.gamerules.fakes import FakeRandom


def rolled(ep, faces):
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ep.ava, ep.bo, ep.guard)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="rolled", rng=FakeRandom(*faces))
    e.refresh_from_db()
    return e


def next_turn(ep, e, rng):
    e.refresh_from_db()
    enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial, rng=rng)
    e.refresh_from_db()
    return e


def names(e):
    return [c.name for c in e.combatants.filter(rank__isnull=False).order_by("rank")]


def test_eclipse_phase_registers_the_roll_each_action_turn():
    assert hooks.initiative_each_round("eclipse_phase")
    assert not hooks.initiative_each_round("homebrew")


@pytest.mark.django_db
def test_each_action_turn_rolls_again_with_the_wounds_and_traumas_of_the_moment(ep):
    e = rolled(ep, (9, 5, 1))  # Ava, Bo, Guard (entry order), SPD 1 each
    assert names(e) == ["Ava", "Bo", "Guard"]
    start = {c.name: c.initiative for c in e.combatants.all()}
    base = start["Ava"] - 9  # the same splicer numbers for Ava and Bo
    assert start["Bo"] == 5 + base
    # Bo takes two wounds and a trauma during round 1: -3 at the next roll (1 per each)
    Sleeve.objects.filter(pk=ep.sheets[ep.bo.pk].sleeve_id).update(wounds=2, damage=12)
    EclipseSheet.objects.filter(pk=ep.sheets[ep.bo.pk].pk).update(traumas=1)
    next_turn(ep, e, FakeRandom())
    next_turn(ep, e, FakeRandom())
    e = next_turn(ep, e, FakeRandom(6, 8, 1))  # Ava 6, Bo 8 - 3 = 5, Guard 1
    assert e.round == 2
    now = {c.name: c.initiative for c in e.combatants.all()}
    assert (now["Ava"], now["Bo"]) == (6 + base, 8 + base - 3)
    assert names(e) == ["Ava", "Bo", "Guard"] and e.current.name == "Ava"
    entry = ActionRecord.objects.filter(kind="encounter_initiative",
                                        summary__round=2).get()
    bo = entry.rolls.get(actor=ep.bo)
    labels = {m["source"]: m["value"] for m in bo.modifiers}
    assert (labels["wounds"], labels["traumas"]) == (-2, -1)
    assert bo.total == 8


@pytest.mark.django_db
def test_the_wounds_turn_the_order_over(ep):
    e = rolled(ep, (9, 5, 1))
    Sleeve.objects.filter(pk=ep.sheets[ep.ava.pk].sleeve_id).update(wounds=3, damage=18)
    next_turn(ep, e, FakeRandom())
    next_turn(ep, e, FakeRandom())
    e = next_turn(ep, e, FakeRandom(7, 5, 1))  # Ava 7 - 3 = 4 < Bo 5
    assert names(e) == ["Bo", "Ava", "Guard"] and e.current.name == "Bo"
