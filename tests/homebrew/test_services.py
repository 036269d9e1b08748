"""The homebrew services with scripted dice (tests.gamerules.fakes.FakeRandom): every item 9-18
of issue 11 and the boundaries of its "Done when" (5 vs 6, 95 vs 96, a sub of 0 and of 6, HP
exactly 0 and exactly -max, the second dodge in a round, a parry against magic refused)."""

from __future__ import annotations

import pytest

from campaigns.errors import Forbidden, InvalidInput, NotFound
from campaigns.models import ActionRecord, Campaign, RollRecord
from gamerules.homebrew.characteristics import CharacteristicsError
from gamerules.homebrew.errors import ReactionRefused
from homebrew.errors import (AttackResolved, CannotAct, GameMasterOnly, HomebrewServiceError,
                             NoSuchWeapon, ReactionChoiceError)
from homebrew.models import Health, HomebrewSheet, PermanentInjury
from homebrew.services import (AttackTerms, attack, fumble_choose, homebrew_character_create,
                               posture_set, resolve, rest_grant, roll_test)
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import SPREAD, make_sheet

pytestmark = pytest.mark.django_db


def sheet(character) -> HomebrewSheet:
    return make_sheet(character)


# --- item 9: creation -------------------------------------------------------------------------

def test_creation_stores_the_spread_and_the_default_maxima(hb):
    s = sheet(hb.aria)
    assert s.characteristics().as_dict() == SPREAD
    assert (s.hp, s.hp_max, s.mp, s.mp_max) == (20, 20, 10, 10)
    assert s.posture == "offensive" and s.health == Health.STANDING
    record = ActionRecord.objects.get(actor=hb.aria, kind="homebrew_create")
    assert record.summary["characteristics"] == SPREAD


def test_creation_takes_the_campaigns_default_maxima_and_a_gauge_label(hb, alice):
    hb.campaign.rule_parameters = {"hp_max_default": 35, "mp_max_default": 0}
    hb.campaign.save()
    campaign = Campaign.objects.get(pk=hb.campaign.pk)
    c = homebrew_character_create(user=alice, campaign=campaign, name="Pistol",
                                  values=SPREAD, mp_label="Cartridges")
    s = sheet(c)
    assert (s.hp_max, s.mp_max, s.gauge_label) == (35, 0, "Cartridges")


@pytest.mark.parametrize("change,codes", [
    ({"perception": 49, "ether": 2}, ["points_total"]),  # 169 points
    ({"perception": 51}, ["points_total"]),  # 171
    ({"force": 4}, ["sub_points"]),  # 4 + 3 > 6 (Physique 60)
    ({"physique": 100, "perception": 10, "mental": 60, "force": 7, "dexterite": 0,
      "sens": 0, "ether": 0}, ["sub_out_of_range"]),  # 7 > 6 even with 10 points
    ({"physique": 101, "mental": 19, "esprit": 0, "intelligence": 0},
     ["main_out_of_range"]),
    ({"force": "3"}, ["not_whole"]),
])
def test_creation_refuses_anything_outside_the_budgets(hb, alice, change, codes):
    before = HomebrewSheet.objects.count()
    with pytest.raises(CharacteristicsError) as exc:
        homebrew_character_create(user=alice, campaign=hb.campaign, name="Bad",
                                  values={**SPREAD, **change})
    assert exc.value.code == "invalid_characteristics"
    assert [p.code for p in exc.value.problems] == codes
    assert HomebrewSheet.objects.count() == before


def test_subs_at_exactly_the_mains_tens_and_at_6_are_accepted(hb, alice):
    values = {"physique": 60, "perception": 40, "mental": 70, "force": 6, "dexterite": 0,
              "sens": 4, "ether": 0, "esprit": 6, "intelligence": 1}
    c = homebrew_character_create(user=alice, campaign=hb.campaign, name="Edge", values=values)
    assert sheet(c).force == 6


def test_creation_refuses_a_taken_name_and_another_system(hb, alice, campaign):
    with pytest.raises(InvalidInput) as exc:
        homebrew_character_create(user=alice, campaign=hb.campaign, name="aria", values=SPREAD)
    assert exc.value.code == "invalid_input" and exc.value.key == "name_taken"
    with pytest.raises(HomebrewServiceError) as exc:
        homebrew_character_create(user=alice, campaign=campaign, name="X", values=SPREAD)
    assert exc.value.code == "not_homebrew"


# --- item 10: tests ---------------------------------------------------------------------------

@pytest.mark.parametrize("face,grade", [(5, "critical_success"), (6, "success"),
                                        (60, "success"), (61, "failure"), (95, "failure"),
                                        (96, "critical_failure")])
def test_a_characteristic_test_is_graded_on_the_d100(hb, face, grade):
    outcome = roll_test(user=hb.alice, character=hb.aria, code="physique",
                        rng=FakeRandom(face))
    assert outcome.grade == grade
    row = RollRecord.objects.get(action_id=outcome.action_id)
    assert (row.expression, row.faces, row.total, row.target_score) == ("1d100", [face], face, 60)


def test_a_characteristic_of_95_still_fumbles_on_96_and_passes_on_95(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(physique=100)
    assert roll_test(user=None, character=hb.aria, code="physique",
                     rng=FakeRandom(95)).grade == "success"
    assert roll_test(user=None, character=hb.aria, code="physique",
                     rng=FakeRandom(96)).grade == "critical_failure"


def test_a_sub_of_0_never_succeeds_and_a_sub_of_6_always_does(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(force=0, dexterite=6)
    assert not roll_test(user=None, character=hb.aria, code="force", rng=FakeRandom(1)).success
    assert roll_test(user=None, character=hb.aria, code="dexterite", rng=FakeRandom(6)).success


def test_a_sub_succeeds_on_a_face_up_to_its_value(hb):
    # Force 3: faces 1-3 succeed, 4-6 fail.
    assert roll_test(user=None, character=hb.aria, code="force", rng=FakeRandom(3)).success
    assert not roll_test(user=None, character=hb.aria, code="force", rng=FakeRandom(4)).success


def test_the_gms_difficulty_and_assists_are_modifiers_on_the_journal(hb):
    outcome = roll_test(user=hb.gm, character=hb.aria, code="perception", rng=FakeRandom(55),
                        difficulty=-10, assists=[("Bran", 10), ("Goblin", 5)])
    assert outcome.d100.target == 55 and outcome.success
    row = RollRecord.objects.get(action_id=outcome.action_id)
    assert [(m["label"], m["value"], m["source"]) for m in row.modifiers] == [
        ("difficulty", -10, "gm"), ("assist: Bran", 10, "assist"), ("assist: Goblin", 5, "assist")]
    assert row.success is True


def test_an_assist_lifts_a_sub_of_0_and_a_larger_die_makes_6_fail(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(force=0, dexterite=6)
    assert roll_test(user=hb.gm, character=hb.aria, code="force", rng=FakeRandom(1),
                     assists=[("Bran", 1)]).success
    hard = roll_test(user=hb.gm, character=hb.aria, code="dexterite", rng=FakeRandom(7),
                     sides=10)
    assert not hard.success and hard.sub.sides == 10


def test_a_player_rolls_without_modifiers_and_not_for_another(hb):
    with pytest.raises(GameMasterOnly) as exc:
        roll_test(user=hb.alice, character=hb.aria, code="force", rng=FakeRandom(1),
                  difficulty=20)
    assert exc.value.code == "gm_only"
    assert exc.value.key == "gm_only_modifiers"
    with pytest.raises(NotFound):  # another player does not even see Aria
        roll_test(user=hb.bob, character=hb.aria, code="force", rng=FakeRandom(1))


def test_an_unknown_characteristic_is_refused(hb):
    with pytest.raises(HomebrewServiceError) as exc:
        roll_test(user=None, character=hb.aria, code="luck", rng=FakeRandom())
    assert exc.value.code == "invalid_input"


# --- items 12-13: attack and criticals --------------------------------------------------------

def test_a_physical_hit_rolls_the_weapon_die_and_is_journaled(hb):
    a = attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(40, 4), user=hb.alice,
               terms=AttackTerms(description="A cut at the head", round_key="1:1"))
    assert a.hit and a.damage == 4 and a.max_damage == 6 and a.reactions == ["none"]
    rolls = list(RollRecord.objects.filter(action=a.action).order_by("id"))
    assert [(r.label, r.expression, r.faces, r.total) for r in rolls] == [
        ("physique", "1d100", [40], 40), ("damage", "1d6", [4], 4)]
    assert rolls[0].target_score == 60 and rolls[0].success is True
    assert sheet(hb.goblin).hp == 8  # nothing taken before the reaction


@pytest.mark.parametrize("face,damage,grade", [(5, 11, "critical_success"), (6, 2, "success")])
def test_5_is_a_critical_for_max_damage_times_the_multiplier_and_6_is_not(hb, face, damage,
                                                                          grade):
    rng = FakeRandom(face) if face == 5 else FakeRandom(face, 2)
    a = attack(hb.aria, hb.goblin, hb.sword, rng=rng)
    assert a.damage == damage and a.test["grade"] == grade
    assert a.multiplier == ("1.75" if face == 5 else "")


@pytest.mark.parametrize("face,grade", [(95, "failure"), (96, "critical_failure")])
def test_95_misses_and_96_fumbles_and_the_gm_picks_the_effect(hb, face, grade):
    a = attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(face))
    assert not a.hit and a.test["grade"] == grade and a.reactions == ["none"]
    if face == 96:
        effect = fumble_choose(user=hb.gm, declared=a, code="off_balance")
        assert effect["malus"] == -10
        assert ActionRecord.objects.filter(kind="homebrew_fumble", actor=hb.aria).exists()
    else:
        with pytest.raises(HomebrewServiceError) as exc:
            fumble_choose(user=hb.gm, declared=a, code="off_balance")
        assert exc.value.code == "not_a_fumble"


def test_only_the_gm_picks_a_fumble(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(physique=100, perception=10)
    a = attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(99))
    with pytest.raises(GameMasterOnly):
        fumble_choose(user=hb.alice, declared=a, code="ridiculous")


def test_an_attacker_in_defensive_posture_rolls_the_halved_die_and_crits_for_less(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    a = attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(30, 3))
    assert (a.damage_expression, a.damage, a.max_damage) == ("1d3", 3, 3)
    crit = attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(1))
    assert crit.damage == 5  # 3 x 1.75 = 5.25


def test_an_attack_needs_an_equipped_weapon_and_a_standing_actor(hb):
    with pytest.raises(NoSuchWeapon):
        attack(hb.aria, hb.goblin, hb.claws, rng=FakeRandom())
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=0, health="unconscious")
    with pytest.raises(CannotAct):
        attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom())


def test_players_attack_with_their_own_characters_and_the_gm_with_enemies(hb):
    with pytest.raises(NotFound):
        attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(), user=hb.bob)
    with pytest.raises(Forbidden):
        attack(hb.aria, hb.goblin, hb.sword, rng=FakeRandom(), user=hb.gm)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(70), user=hb.gm)
    assert not a.hit


# --- items 14-15: postures, parry, dodge ------------------------------------------------------

def test_an_offensive_target_may_not_react_and_a_defensive_one_may_parry_or_dodge(hb):
    offensive = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 2))
    assert offensive.reactions == ["none"]
    with pytest.raises(ReactionRefused) as exc:
        resolve(offensive, "parry", rng=FakeRandom(1))
    assert exc.value.code == "needs_defensive_posture"
    posture_set(user=hb.alice, character=hb.aria, posture="defensive")
    defensive = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 2))
    assert defensive.reactions == ["none", "parry", "dodge"]
    assert ActionRecord.objects.filter(kind="homebrew_posture", actor=hb.aria).count() == 1


def test_a_successful_parry_blocks_the_force_tests_result(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4))
    resolved = resolve(a, "parry", rng=FakeRandom(3), user=hb.alice)
    assert resolved.outcome["blocked"] == 3 and resolved.outcome["damage"] == 1
    assert sheet(hb.aria).hp == 19
    row = RollRecord.objects.get(action_id=resolved.outcome["action"])
    assert (row.label, row.expression, row.faces, row.target_score, row.success) == (
        "force", "1d6", [3], 3, True)


def test_a_failed_parry_takes_the_damage_normally(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4))
    assert resolve(a, "parry", rng=FakeRandom(4)).outcome["damage"] == 4
    assert sheet(hb.aria).hp == 16


def test_a_parry_against_magic_is_refused(hb):
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive")
    a = attack(hb.aria, hb.bran, hb.fireball, rng=FakeRandom(10, 5))
    assert a.reactions == ["none", "dodge"]
    with pytest.raises(ReactionRefused) as exc:
        resolve(a, "parry", rng=FakeRandom(1))
    assert exc.value.code == "parry_against_magic"
    assert a.__class__.objects.get(pk=a.pk).pending


def test_an_ally_in_defensive_posture_parries_for_the_target(hb):
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive", force=5)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4), protectors=[hb.bran])
    assert a.reactions == ["none"] and a.protectors == [hb.bran.pk]
    assert a.options == ["none", f"parry:{hb.bran.pk}"]
    with pytest.raises(NotFound):  # Alice does not play Bran
        resolve(a, "parry", by=hb.bran, rng=FakeRandom(5), user=hb.alice)
    with pytest.raises(ReactionRefused) as exc:  # Aria herself is offensive
        resolve(a, "parry", rng=FakeRandom(5))
    assert exc.value.code == "needs_defensive_posture"
    resolved = resolve(a, f"parry:{hb.bran.pk}", rng=FakeRandom(5), user=hb.bob)
    assert resolved.outcome["blocked"] == 4 and sheet(hb.aria).hp == 20
    assert resolved.outcome["by"] == hb.bran.pk and resolved.outcome["for_ally"]


def test_an_ally_not_named_near_may_not_parry(hb):
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive")
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4))
    with pytest.raises(ReactionChoiceError) as exc:
        resolve(a, "parry", by=hb.bran, rng=FakeRandom(1))
    assert exc.value.code == "not_a_protector"
    for bad in (f"dodge:{hb.bran.pk}", "parry:x", "parry:999999"):
        with pytest.raises(ReactionChoiceError) as exc:
            resolve(a, bad, rng=FakeRandom(1))
        assert exc.value.code == "not_a_reaction"


def test_an_ally_cannot_parry_magic_for_the_target(hb):
    HomebrewSheet.objects.filter(pk=hb.bran.pk).update(posture="defensive")
    a = attack(hb.aria, hb.goblin, hb.fireball, rng=FakeRandom(10, 4), protectors=[hb.bran])
    assert a.protectors == [] and a.options == ["none"]
    with pytest.raises(ReactionRefused) as exc:
        resolve(a, f"parry:{hb.bran.pk}", rng=FakeRandom(1))
    assert exc.value.code == "parry_against_magic"


def test_without_journal_the_rolls_are_handed_back_for_the_encounters_entry(hb):
    """The encounter's two steps (attack_declare, attack_answer) write the sheets and hand the
    rolls and the summary back; the encounter journals them (issue 20: no journal flag)."""
    from django.db import transaction

    from homebrew.context import pending_of
    from homebrew.services import attack_answer, attack_declare
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    before = ActionRecord.objects.count()
    with transaction.atomic():
        a = attack_declare(user=None, actor_id=hb.goblin.pk, target_id=hb.aria.pk,
                           weapon_id=hb.claws.pk, rng=FakeRandom(10, 4), now=hb.now)
        a.context.write()
        row = a.row()
        row.save()
    assert [r["label"] for r in a.rolls] == ["physique", "damage"] and row.action_id is None
    with transaction.atomic():
        done = attack_answer(pending=pending_of(row), choice_text="parry", rng=FakeRandom(2),
                             now=hb.now, cause="Claws (Goblin)")
    assert [(r["label"], r["faces"]) for r in done.rolls] == [("force", [2])]
    assert done.result["blocked"] == 2 and done.result["hp"] == 18
    assert ActionRecord.objects.count() == before


def test_a_successful_dodge_cancels_and_keeps_dodging(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive", dexterite=3)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(1),
               terms=AttackTerms(round_key="1:1"))  # crit: 12
    resolved = resolve(a, "dodge", rng=FakeRandom(3))
    assert resolved.outcome["damage"] == 0 and sheet(hb.aria).hp == 20
    assert sheet(hb.aria).can_dodge("1:1")


def test_a_failed_dodge_takes_the_maximum_and_the_second_dodge_of_the_round_is_refused(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive", dexterite=3)
    first = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1),
                   terms=AttackTerms(round_key="1:1"))
    resolved = resolve(first, "dodge", rng=FakeRandom(4))
    assert resolved.outcome["damage"] == 4 and resolved.outcome["dodge_lost"]
    assert sheet(hb.aria).hp == 16 and sheet(hb.aria).dodge_lost_round == "1:1"
    second = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1),
                    terms=AttackTerms(round_key="1:1"))
    assert second.reactions == ["none", "parry"]
    with pytest.raises(ReactionRefused) as exc:
        resolve(second, "dodge", rng=FakeRandom(1))
    assert exc.value.code == "no_more_dodges"
    next_round = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1),
                        terms=AttackTerms(round_key="1:2"))
    assert "dodge" in next_round.reactions


def test_an_attack_is_resolved_once(hb):
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1))
    resolve(a, "none", rng=FakeRandom())
    with pytest.raises(AttackResolved) as exc:
        resolve(a, "none", rng=FakeRandom())
    assert exc.value.status == 409
    with pytest.raises(ReactionChoiceError) as exc:
        resolve(attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1)), "block",
                rng=FakeRandom())
    assert exc.value.code == "not_a_reaction"


def test_a_surprised_target_is_offered_no_reaction(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 1),
               terms=AttackTerms(target_surprised=True))
    assert a.reactions == ["none"]
    with pytest.raises(ReactionChoiceError):
        resolve(a, "dodge", rng=FakeRandom(1))


def test_a_missed_attack_has_nothing_to_react_to(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(51))
    with pytest.raises(ReactionRefused) as exc:
        resolve(a, "dodge", rng=FakeRandom(1))
    assert exc.value.code == "attack_missed"
    assert resolve(a, "none", rng=FakeRandom()).outcome["damage"] == 0


def test_posture_values_are_checked(hb):
    with pytest.raises(InvalidInput):
        posture_set(user=hb.alice, character=hb.aria, posture="sideways")
    with pytest.raises(NotFound):
        posture_set(user=hb.bob, character=hb.aria, posture="defensive")
    with pytest.raises(Forbidden):  # the GM sees Aria but does not play her
        posture_set(user=hb.gm, character=hb.aria, posture="defensive")


# --- item 16: magic ---------------------------------------------------------------------------

def test_a_spell_spends_mp_hit_or_miss(hb):
    a = attack(hb.aria, hb.goblin, hb.fireball, rng=FakeRandom(80))
    assert not a.hit and sheet(hb.aria).mp == 7
    assert ActionRecord.objects.get(pk=a.action_id).summary["mp"] == {
        "cost": 3, "mp_spent": 3, "hp_spent": 0}


def test_without_enough_mp_a_spell_spends_hp(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(mp=1, hp=2)
    attack(hb.aria, hb.goblin, hb.fireball, rng=FakeRandom(20, 8))
    s = sheet(hb.aria)
    assert (s.mp, s.hp, s.health) == (0, 0, Health.UNCONSCIOUS)


# --- item 17: health --------------------------------------------------------------------------

def _hit(hb, target, damage_face, **sheet_fields):
    HomebrewSheet.objects.filter(pk=target.pk).update(**sheet_fields)
    a = attack(hb.aria if target != hb.aria else hb.goblin, target,
               hb.sword if target != hb.aria else hb.claws, rng=FakeRandom(10, damage_face),
               terms=AttackTerms(round_key="2:1"))
    return resolve(a, "none", rng=FakeRandom())


def test_a_character_at_exactly_0_hp_falls_unconscious(hb):
    _hit(hb, hb.aria, 3, hp=3)
    assert sheet(hb.aria).health == Health.UNCONSCIOUS and sheet(hb.aria).hp == 0


def test_a_character_at_1_hp_still_stands(hb):
    _hit(hb, hb.aria, 2, hp=3)
    assert sheet(hb.aria).health == Health.STANDING


def test_exactly_minus_max_hp_is_a_permanent_injury_shown_on_the_sheet(hb):
    resolved = _hit(hb, hb.aria, 4, hp=-16, hp_max=20, health="unconscious")
    assert sheet(hb.aria).hp == -20
    injury = PermanentInjury.objects.get(sheet_id=hb.aria.pk)
    assert injury.round_key == "2:1" and resolved.outcome["permanent_injury"] == injury.pk


def test_one_above_minus_max_is_no_injury_and_an_injury_is_recorded_once(hb):
    _hit(hb, hb.aria, 3, hp=-16, hp_max=20, health="unconscious")
    assert not PermanentInjury.objects.exists()
    _hit(hb, hb.aria, 1, hp=-19)
    _hit(hb, hb.aria, 2)
    assert PermanentInjury.objects.count() == 1


def test_an_enemy_dies_at_0_unless_spared(hb):
    _hit(hb, hb.goblin, 6, hp=6)
    assert sheet(hb.goblin).health == Health.DEAD
    assert not PermanentInjury.objects.exists()
    _hit(hb, hb.goblin, 6, hp=6, health="standing", spared=True)
    assert sheet(hb.goblin).health == Health.UNCONSCIOUS


# --- item 18: rests ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind,hp,mp", [("short", 12, 4), ("medium", 15, 6), ("long", 20, 10)])
def test_rests_restore_the_parameters_amounts(hb, kind, hp, mp):
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(hp=10, mp=3)
    given = rest_grant(user=hb.gm, campaign=hb.campaign, kind=kind,
                       character_ids=[hb.aria.pk, hb.bran.pk])
    assert [g.name for g in given] == ["Aria", "Bran"]
    assert (sheet(hb.aria).hp, sheet(hb.aria).mp) == (hp, mp)
    assert ActionRecord.objects.filter(kind="homebrew_rest").count() == 2


def test_a_rest_with_the_gms_amounts_for_all_never_above_max_and_not_for_the_dead(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=0, health="unconscious", mp=9)
    HomebrewSheet.objects.filter(pk=hb.goblin.pk).update(hp=0, health="dead")
    given = rest_grant(user=hb.gm, campaign=hb.campaign, kind="short", hp_amount=4,
                       mp_amount=5)
    assert {g.name for g in given} == {"Aria", "Bran"}
    s = sheet(hb.aria)
    assert (s.hp, s.mp, s.health) == (4, 10, Health.STANDING)
    assert sheet(hb.goblin).hp == 0


def test_only_the_gm_grants_a_rest(hb):
    with pytest.raises(GameMasterOnly):
        rest_grant(user=hb.alice, campaign=hb.campaign, kind="long")
    with pytest.raises(InvalidInput):
        rest_grant(user=hb.gm, campaign=hb.campaign, kind="nap")


def test_a_weapon_counting_cartridges_on_the_gauge_spends_them_and_never_hp(hb):
    from homebrew.models import WeaponTemplate
    gun = WeaponTemplate.objects.create(campaign=hb.campaign, name="Pistosabre", die="1d8",
                                        mp_cost=1)
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(mp=1, mp_label="Cartridges")
    sheet(hb.aria).weapons.add(gun)
    attack(hb.aria, hb.goblin, gun, rng=FakeRandom(80))
    assert sheet(hb.aria).mp == 0
    with pytest.raises(CannotAct) as exc:
        attack(hb.aria, hb.goblin, gun, rng=FakeRandom())
    assert exc.value.code == "not_enough_resource"
    assert "1 Cartridges (0 left)" in exc.value.message and sheet(hb.aria).hp == 20


def test_the_encounters_resolver_resolves_the_attack_named_in_its_payload(hb):
    from types import SimpleNamespace

    from homebrew.encounter import payload_of, reaction_result
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive", dexterite=2)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 3),
               terms=AttackTerms(round_key="7:1"))
    ctx = SimpleNamespace(reaction=SimpleNamespace(payload=payload_of(a), options=a.options),
                          actor=SimpleNamespace(character=hb.goblin),
                          target=SimpleNamespace(character=hb.aria), choice="dodge",
                          rng=FakeRandom(5), now=hb.now)
    kind, summary, rolls = reaction_result(ctx)
    assert kind == "homebrew_attack" and summary["damage"] == 4 and summary["dodge_lost"]
    assert [r["label"] for r in rolls] == ["dexterite"]
    assert sheet(hb.aria).dodge_lost_round == "7:1"
