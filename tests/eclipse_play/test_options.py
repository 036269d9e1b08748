"""The options of issue 12 item 7 on the encounter (eclipse.attack, eclipse.defence), with
scripted dice: the defender's Moxie flip, a surprised defence by a quick action, several
targets per volley, the GM's weapon mishap, receiving a charge, subdue and escape, beam sweep
and concentration, blind and indirect fire, the disarm test, the suppressive zone."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord
from eclipse.acting import phase_actions
from eclipse.actions import (encounter_brace, encounter_escape, encounter_full_defence,
                             encounter_other)
from eclipse.attack import attack_mishap_choose, encounter_attack, reaction_range_correct
from eclipse.defence import QUICK_OWED, held_by
from eclipse.models import CarriedWeapon, EclipseSheet, WeaponTemplate
from eclipse.play_errors import BadChoice, GameMasterOnly, PlayError
from eclipse.zones import FireZone, encounter_suppressive_fire, encounter_zone_attack
from encounters import services as enc
from encounters.models import EncounterEffect, PendingReaction
from gamerules.eclipse_phase.errors import ActionsSpent, ManoeuvreRefused
from tests.eclipse_play.conftest import carry, running
from tests.eclipse_play.test_play import entries, next_turn, shoot, sleeve
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


def answer(ep, step, choice, *faces):
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice=choice,
                        rng=FakeRandom(*faces), now=ep.now)
    return [a for a in entries(step_encounter(step)) if a.kind == "eclipse_attack"][-1]


def step_encounter(step):
    return step.reaction.encounter


def moxie(character):
    return EclipseSheet.objects.get(character=character).moxie


def test_the_defender_flips_a_failed_dodge_with_moxie_and_wins(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom())
    # Attack 15 < 60; dodge/2 = 20: 91 fails, flipped 19 < 20 succeeds and beats 15.
    entry = answer(ep, step, "dodge+moxie", 15, 91)
    [shot] = entry.summary["result"]["shots"]
    assert not shot["hit"] and shot["defence"]["flipped_from"] == 91
    assert shot["defence"]["reading"] == 19 and entry.summary["result"]["defence_moxie_spent"] == 1
    assert moxie(ep.guard) == 1 and moxie(ep.ava) == 2


def test_a_flip_that_still_fails_is_not_spent(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom())
    # 92 flipped is 29, not under 20: the dodge fails, the point is kept; 2d10 = 1 + 1.
    entry = answer(ep, step, "dodge+moxie", 15, 92, 1, 1)
    [shot] = entry.summary["result"]["shots"]
    assert shot["hit"] and shot["defence"]["flipped_from"] is None
    assert moxie(ep.guard) == 2


def test_a_surprised_quick_defence_rolls_and_costs_a_quick_action_of_its_next_phase(ep):
    e, c = running(ep, surprised=(ep.guard,))
    step = shoot(ep, e, c, FakeRandom())
    entry = answer(ep, step, "quick:dodge", 15, 19)  # 15 < 60; 19 < 20 beats 15
    result = entry.summary["result"]
    assert result["spend_quick"] and result["shots"][0]["defence_cost"] == "quick"
    assert result["shots"][0]["defence"]["target"] == 20
    assert EncounterEffect.objects.filter(bearer=c[ep.guard.pk], name=QUICK_OWED,
                                          expired_round__isnull=True).exists()
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)
    encounter_full_defence(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk)
    e.refresh_from_db()
    assert (phase_actions(e).quick, phase_actions(e).complex) == (1, 1)
    with pytest.raises(ActionsSpent):  # one quick and one complex: the phase is full
        encounter_other(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                        name="shout", kind="quick")


def test_a_semi_auto_second_target_takes_20_and_is_prompted_too(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), mode="SA", other_target_ids=[c[ep.bo.pk].pk])
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 10
    assert step.reaction.payload["others"] == [c[ep.bo.pk].pk]
    bo_prompt = PendingReaction.objects.get(lead=step.reaction)
    assert (bo_prompt.target_id, bo_prompt.default) == (c[ep.bo.pk].pk, "dodge")
    enc.answer_reaction(user=ep.bob, reaction_id=bo_prompt.pk, choice="none", now=ep.now)
    assert not entries(e)  # the volley waits for the Guard's answer
    # The Guard: 50 < 60, dodge 90 fails, 2d10 = 1 + 1 + 5 = 7 - 2 = 5. Bo: 60 - 20 = 40,
    # 50 misses (no defence: Bo answered none).
    entry = answer(ep, step, "dodge", 50, 90, 1, 1, 50)
    result = entry.summary["result"]
    assert result["target"] == "Guard" and result["damage"] == 5
    [bo] = result["others"]
    assert bo["target"] == "Bo" and bo["hits"] == 0 and bo["defence"] == "none"
    assert bo["shots"][0]["attack"]["target"] == 40
    assert [r.label for r in entry.rolls.order_by("id")] == [
        "kinetic_weapons", "dodge/2", "damage", "kinetic_weapons"]


def test_every_target_of_a_volley_defends_with_its_own_answer_in_one_entry(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), mode="SA", other_target_ids=[c[ep.bo.pk].pk])
    bo_prompt = PendingReaction.objects.get(lead=step.reaction)
    assert "dodge+moxie" in bo_prompt.options  # Bo has Moxie: its own options
    with pytest.raises(Exception) as refused:  # Bo's player cannot answer for the Guard
        enc.answer_reaction(user=ep.bob, reaction_id=step.reaction.pk, choice="none",
                            now=ep.now)
    assert refused.value.code == "not_yours_to_answer"
    with pytest.raises(PlayError):  # the band is the attack's: corrected on its first prompt
        reaction_range_correct(user=ep.gm, reaction_id=bo_prompt.pk, range_band="long")
    enc.answer_reaction(user=ep.bob, reaction_id=bo_prompt.pk, choice="dodge", now=ep.now)
    # The Guard: 50 hits, dodge/2 90 fails, 1 + 1 + 5 - 2 = 5. Bo: 30 < 40 hits (MoS 30: +5),
    # Bo's own dodge/2 95 fails, 1 + 1 + 5 - 2 = 5.
    entry = answer(ep, step, "dodge", 50, 90, 1, 1, 30, 95, 1, 1)
    result = entry.summary["result"]
    [bo] = result["others"]
    assert (bo["defence"], bo["damage"], result["damage"]) == ("dodge", 5, 5)
    assert entry.summary["answers"][0]["choice"] == "dodge"
    assert [r.label for r in entry.rolls.order_by("id")] == [
        "kinetic_weapons", "dodge/2", "damage", "kinetic_weapons", "dodge/2", "damage"]
    assert len([a for a in entries(e) if a.kind == "eclipse_attack"]) == 1


def test_a_burst_reaches_two_targets_without_malus_and_a_single_shot_one(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), mode="BF", other_target_ids=[c[ep.bo.pk].pk])
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 9
    assert [s["modifiers"] for s in step.reaction.payload["shots"]] == [[], []]
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="none",
                        rng=FakeRandom(90, 90), now=ep.now)
    e2, c2 = running(ep)
    with pytest.raises(BadChoice):
        shoot(ep, e2, c2, FakeRandom(), mode="SS", other_target_ids=[c2[ep.bo.pk].pk])
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 9


def test_the_gm_chooses_the_weapon_mishap(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom())
    entry = answer(ep, step, "dodge", 15, 11)  # the defender's critical: jammed by default
    with pytest.raises(GameMasterOnly):
        attack_mishap_choose(user=ep.alice, action_id=entry.pk, state="destroyed")
    with pytest.raises(BadChoice):
        attack_mishap_choose(user=ep.gm, action_id=entry.pk, state="working")
    attack_mishap_choose(user=ep.gm, action_id=entry.pk, state="destroyed")
    entry.refresh_from_db()
    assert entry.summary["result"]["weapon_mishap"] == "destroyed"
    assert entry.summary["result"]["weapon_mishap_default"] == "jammed"
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).state == "destroyed"


def test_no_mishap_to_choose_without_a_critical(ep):
    e, c = running(ep)
    entry = answer(ep, shoot(ep, e, c, FakeRandom()), "none", 90)
    with pytest.raises(PlayError):
        attack_mishap_choose(user=ep.gm, action_id=entry.pk, state="damaged")


def test_a_braced_target_receives_a_charge_at_plus_20(ep):
    e, c = running(ep)
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)
    encounter_brace(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk)
    next_turn(ep.gm, e)  # round 2: Ava charges
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_knife.pk,
                            charge=True, now=ep.now)
    # Blades 50 - 10 (charging) = 40: 30 hits; the Guard's blades 50 + 20 = 70: 60 wins.
    entry = answer(ep, step, "melee:blades", 30, 60)
    [shot] = entry.summary["result"]["shots"]
    assert entry.summary["result"]["braced"] and not shot["hit"]
    assert shot["defence"]["target"] == 70
    assert ("receiving a charge", 20) in [(m["label"], m["value"])
                                          for m in shot["defence"]["modifiers"]]


@pytest.mark.parametrize("face, held", [(30, True), (29, False)])
def test_subdue_needs_a_margin_of_the_targets_durability_then_escape(ep, face, held):
    e, c = running(ep)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_knife.pk,
                            subdue=True, now=ep.now)
    entry = answer(ep, step, "none", face)  # blades 50; DUR 30: margin 30 holds, 29 not
    [shot] = entry.summary["result"]["shots"]
    assert shot["subdued"] is held and "dv" not in shot and sleeve(ep.guard).damage == 0
    hold = EncounterEffect.objects.filter(bearer=c[ep.guard.pk], name=held_by("Ava"),
                                          expired_round__isnull=True)
    assert hold.exists() is held
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)
    if not held:
        with pytest.raises(PlayError) as refused:
            encounter_escape(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                             how="somx3", rng=FakeRandom(10))
        assert refused.value.code == "ep_not_held"
        return
    # SOM 20 x 3 - 30 = 30: 10 frees the Guard.
    escaped = encounter_escape(user=ep.gm, encounter_id=e.pk,
                               combatant_id=c[ep.guard.pk].pk, how="somx3",
                               rng=FakeRandom(10))
    assert escaped.summary["free"] and escaped.summary["test"]["target"] == 30
    assert not hold.exists()


def test_subdue_with_a_gun_is_refused_and_spends_nothing(ep):
    e, c = running(ep)
    with pytest.raises(ManoeuvreRefused):
        shoot(ep, e, c, FakeRandom(), subdue=True)
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12


@pytest.fixture
def laser(ep):
    template = WeaponTemplate.objects.create(
        campaign=ep.campaign, name="Laser", skill="beam_weapons", dv="2d10", beam=True,
        mode_sa=True, mode_bf=True, magazine=20, range_short=30, range_medium=80,
        range_long=150, range_extreme=300)
    sheet = EclipseSheet.objects.get(character=ep.ava)
    sheet.skills = {**sheet.skills, "beam_weapons": 45}  # COO 15 + 45 ranks: 60
    sheet.save(update_fields=["skills"])
    return carry(sheet, template)


def test_a_beam_sweep_gives_the_second_shot_20_after_a_miss(ep, laser):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), weapon_id=laser.pk, mode="SA", shots=2, beam="sweep")
    # 70 misses 60; the second at 80: 75 hits, dodge 90 fails, 2d10 = 1 + 1 + 10 - 4: one
    # wound, SOMx3 50: 10 stands.
    entry = answer(ep, step, "dodge", 70, 75, 90, 1, 1, 10)
    first, second = entry.summary["result"]["shots"]
    assert not first["hit"] and second["hit"] and second["attack"]["target"] == 80
    assert ("beam sweep (second shot)", 20) in [(m["label"], m["value"])
                                                for m in second["attack"]["modifiers"]]


def test_a_beam_concentration_doubles_the_first_hit_and_forgoes_the_second(ep, laser):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), weapon_id=laser.pk, mode="SA", shots=2,
                 beam="concentrate")
    # 45 hits, dodge 90 fails; (3 + 4 + 5) x 2 = 24, energy armour 4: 20.
    entry = answer(ep, step, "dodge", 45, 90, 3, 4, 100)
    result = entry.summary["result"]
    [shot] = result["shots"]
    assert (shot["dv"], shot["dv_multiplier"], shot["damage"]) == (24, 2, 20)
    assert result["concentrated"] and result["forgone"]


def test_a_beam_manoeuvre_needs_a_beam_and_two_shots(ep, laser):
    e, c = running(ep)
    with pytest.raises(ManoeuvreRefused):
        shoot(ep, e, c, FakeRandom(), mode="SA", shots=2, beam="sweep")
    with pytest.raises(BadChoice):
        shoot(ep, e, c, FakeRandom(), weapon_id=laser.pk, mode="SA", shots=1, beam="sweep")
    assert CarriedWeapon.objects.get(pk=laser.pk).loaded == 20


@pytest.mark.parametrize("perception, fired", [(99, False), (100, True)])
def test_blind_fire_needs_a_perception_test_then_takes_30(ep, perception, fired):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), situations={"blind": 1})
    faces = (perception, 20, 90, 1, 1) if fired else (perception,)
    entry = answer(ep, step, "dodge", *faces)
    result = entry.summary["result"]
    assert result["blind_fire"]["fired"] is fired
    if fired:  # 60 - 30 = 30, the row counted once
        assert result["shots"][0]["attack"]["target"] == 30
    else:
        assert result["shots"] == [] and result["hits"] == 0


def test_indirect_fire_needs_a_spotter_then_takes_30(ep):
    e, c = running(ep)
    with pytest.raises(ManoeuvreRefused):
        shoot(ep, e, c, FakeRandom(), indirect=True)
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12
    step = shoot(ep, e, c, FakeRandom(), indirect=True, spotter=True)
    assert ("indirect fire", -30) in [(m["label"], m["value"])
                                      for m in step.reaction.payload["extra"]]


def test_a_disarming_called_shot_halves_the_dv_and_asks_somx3(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), called_shot="disarm")
    # 45 < 50 (margin 45), dodge 90 fails; (3 + 4 + 5) // 2 = 6, armour 2: 4; SOMx3 60: 70.
    entry = answer(ep, step, "dodge", 45, 90, 3, 4, 70)
    [shot] = entry.summary["result"]["shots"]
    assert shot["called_effect"] == "disarm" and shot["dv_halved"] and shot["dv"] == 6
    assert shot["disarm_test"]["target"] == 60 and shot["disarmed"]


def test_a_precise_called_shot_keeps_the_effect_described(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), called_shot="precise",
                 precise_effect="  the visor  ")
    entry = answer(ep, step, "none", 45, 3, 4, 10)
    [shot] = entry.summary["result"]["shots"]
    assert shot["called_effect"] == "precise" and shot["precise_effect"] == "the visor"


def test_the_suppressive_zone_lasts_until_the_attackers_next_phase(ep):
    e, c = running(ep)
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)
    fire = encounter_suppressive_fire(
        user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
        weapon_id=ep.w.guard_rifle.pk,
        fire=FireZone(target_ids=[c[ep.ava.pk].pk], in_cover_ids=(c[ep.ava.pk].pk,)),
        rng=FakeRandom(), now=ep.now)
    zone = fire.summary["zone"]
    with pytest.raises(GameMasterOnly):
        encounter_zone_attack(user=ep.alice, encounter_id=e.pk, zone_id=zone,
                              target_id=c[ep.bo.pk].pk)
    spared = encounter_zone_attack(user=ep.gm, encounter_id=e.pk, zone_id=zone,
                                   target_id=c[ep.ava.pk].pk, in_cover=True)
    assert spared.summary["targets"][0]["spared"] == "cover"
    # Kinetic 60, no modifier: 45 hits, Bo's dodge/2 20: 30 fails; 2d10+2 = 1 + 1 + 2 + 5 = 9,
    # armour 4 - AP 4: 9 damage, one wound; SOMx3 60 - 10: 10 stands.
    hit = encounter_zone_attack(user=ep.gm, encounter_id=e.pk, zone_id=zone,
                                target_id=c[ep.bo.pk].pk, rng=FakeRandom(45, 30, 1, 1, 10),
                                now=ep.now)
    [line] = hit.summary["targets"]
    assert line["free_attack"] and line["damage"] == 9 and line["shots"][0]["attack"]["target"] == 60
    assert CarriedWeapon.objects.get(pk=ep.w.guard_rifle.pk).loaded == 0  # no round more
    next_turn(ep.gm, e)
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)  # the Guard's next phase: the zone is over
    with pytest.raises(PlayError):
        encounter_zone_attack(user=ep.gm, encounter_id=e.pk, zone_id=zone,
                              target_id=c[ep.bo.pk].pk)
    assert ActionRecord.objects.filter(kind="eclipse_suppressive").count() == 3
