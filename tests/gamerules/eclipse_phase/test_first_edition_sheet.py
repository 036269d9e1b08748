"""Issue 18: skills as aptitude + ranks (a sleeve's bonus moves every linked skill), lucidity
from the aptitude WIL, skills that cannot default, each morph's aptitude maximum, the pain
filter -- through the pure rules only (docs/rules/eclipse-phase.md, "Characters")."""

from fractions import Fraction

import pytest

from gamerules.eclipse_phase.attack import Combatant, plan_attack
from gamerules.eclipse_phase.checks import Strain, condition_modifiers, skill_test
from gamerules.eclipse_phase.errors import InvalidSheet, SkillUntrained
from gamerules.eclipse_phase.odds import attack_odds
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import (
    NO_DEFAULT_SKILLS,
    SKILL_APTITUDES,
    Aptitude,
    Character,
    Ego,
    Morph,
    MorphKind,
    Trait,
    ranks_for,
)
from gamerules.eclipse_phase.stress import MentalCondition, Mind, mental_condition
from gamerules.eclipse_phase.turn import Contender, roll_initiative
from tests.gamerules.eclipse_phase.helpers import PISTOL, PSI, TARGET, P
from tests.gamerules.fakes import FakeRandom

FLAT = {a: 15 for a in Aptitude}
COO10 = Morph("sniper body", aptitude_bonus={Aptitude.COO: 10}, aptitude_max=40)
WIL10 = Morph("monk body", aptitude_bonus={Aptitude.WIL: 10}, aptitude_max=40)


def ego(skills=None, **values):
    return Ego("Mira", {**FLAT, **{Aptitude(k): v for k, v in values.items()}}, skills or {})


def test_the_issues_case_training_never_makes_a_character_worse():
    """COO 28, Kinetic Weapons 30 (2 ranks over COO) in a COO+10 morph: 40, above the
    untrained COO skill's 38 -- not 30 as before."""
    mind = ego({"kinetic_weapons": 2}, COO=28)
    body = Character(mind, COO10)
    assert body.skill("kinetic_weapons", P) == 40
    assert body.skill("beam_weapons", P) == 38  # untrained: the aptitude
    untrained = Character(ego(COO=28), COO10)
    for name in set(SKILL_APTITUDES) - NO_DEFAULT_SKILLS:
        for ranks in (0, 1, 40):
            trained = Character(ego({name: ranks}, COO=28), COO10)
            assert trained.skill(name, P) >= untrained.skill(name, P)


def test_resleeving_moves_every_linked_skill_trained_or_not():
    mind = ego({"kinetic_weapons": 30, "fray": 25}, COO=20, REF=20)
    plain = Character(mind, Morph("flat"))
    sleeved = plain.resleeve(COO10)
    assert plain.skill("kinetic_weapons", P) == 50 and sleeved.skill("kinetic_weapons", P) == 60
    assert plain.skill("beam_weapons", P) == 20 and sleeved.skill("beam_weapons", P) == 30
    assert plain.skill("fray", P) == sleeved.skill("fray", P) == 45  # REF: no bonus


def test_a_rating_says_what_comes_from_the_ego_and_what_from_the_morph():
    r = Character(ego({"kinetic_weapons": 30}, COO=20), COO10).rating("kinetic_weapons", P)
    assert (r.aptitude, r.ego_aptitude, r.aptitude_value, r.ranks, r.rating) == ("COO", 20, 30,
                                                                                 30, 60)
    assert (r.from_ego, r.from_morph) == (50, 10) and r.trained and r.usable
    capped = Character(ego({"kinetic_weapons": 10}, COO=30), Morph("splicer", aptitude_max=25))
    r = capped.rating("kinetic_weapons", P)
    assert (r.rating, r.from_ego, r.from_morph) == (35, 40, -5)  # the maximum takes 5 away


def test_a_rating_is_at_most_99_and_at_least_1():
    assert Character(ego({"fray": 99}, REF=30), Morph("x")).skill("fray", P) == 99


def test_lucidity_trauma_threshold_and_insanity_follow_the_aptitude_wil():
    """WIL 20 in a WIL+10 morph: LUC 60 (not 40), TT 12 (not 8), IR 120."""
    c = Character(ego(WIL=20), WIL10)
    assert (c.luc(P), c.tt(P), c.ir(P)) == (60, 12, 120)
    assert (c.resleeve(Morph("flat")).luc(P), c.resleeve(Morph("flat")).tt(P)) == (40, 8)
    assert mental_condition(Mind(stress=45), c, P) is MentalCondition.STABLE
    assert mental_condition(Mind(stress=45), c.resleeve(Morph("flat")), P) \
        is MentalCondition.BEYOND_LUCIDITY
    set_by_hand = Character(Ego("x", {**FLAT, Aptitude.WIL: 20}, lucidity=33), WIL10)
    assert (set_by_hand.luc(P), set_by_hand.tt(P)) == (33, 7)


@pytest.mark.parametrize("skill", sorted(NO_DEFAULT_SKILLS))
def test_psi_and_technical_skills_cannot_default(skill):
    c = Character(ego(), Morph("x"))
    with pytest.raises(SkillUntrained) as info:
        c.skill(skill, P)
    assert info.value.code == "ep_skill_untrained" and info.value.params == {"skill": skill}
    assert not c.can_use(skill, P) and not c.rating(skill, P).usable
    allowed = EclipsePhaseParameters(default_any_skill=True)
    assert c.skill(skill, allowed) == 15 and c.can_use(skill, allowed)
    assert Character(ego({skill: 0}), Morph("x")).skill(skill, P) == 15  # trained at 0 ranks


def test_the_no_default_list_is_the_first_editions():
    assert {"psi_assault", "control", "sense", "demolitions", "infosec",
                                 "programming"} == NO_DEFAULT_SKILLS
    assert all(name in SKILL_APTITUDES for name in NO_DEFAULT_SKILLS)


def test_an_untrained_psi_assault_is_refused_before_any_die():
    untrained = Combatant(Character(ego(), Morph("x")))
    with pytest.raises(SkillUntrained):
        plan_attack(untrained, TARGET, PSI, P)
    with pytest.raises(SkillUntrained):
        attack_odds(untrained, TARGET, PSI, P)
    trained = Combatant(Character(ego({"psi_assault": 20}), Morph("x")))
    assert plan_attack(trained, TARGET, PSI, P).attack_base == 35


def test_each_morph_caps_its_own_aptitudes_unless_the_table_plays_the_flat_cap():
    mind = ego(SOM=28)
    fury = Morph("fury", aptitude_bonus={Aptitude.SOM: 10}, aptitude_max=30)
    assert Character(mind, fury).aptitude(Aptitude.SOM, P) == 30
    flat = EclipsePhaseParameters(aptitude_max_per_morph=False)
    assert Character(mind, fury).aptitude(Aptitude.SOM, flat) == 38  # the flat 40
    assert Character(mind, Morph("none given", aptitude_bonus={Aptitude.SOM: 20})
                     ).aptitude(Aptitude.SOM, P) == 40
    splicer = Morph("splicer", aptitude_max=25)
    assert Character(ego(COO=30), splicer).aptitude(Aptitude.COO, P) == 25
    with pytest.raises(InvalidSheet):
        Morph("broken", aptitude_max=0)


def test_a_pain_filter_ignores_one_wounds_malus_on_tests():
    assert [m.value for m in condition_modifiers(P, wounds=2, pain_filter=True)] == [-10]
    assert [m.value for m in condition_modifiers(P, wounds=1, pain_filter=True)] == [0]
    assert [m.value for m in condition_modifiers(P, wounds=2)] == [-20]
    test = skill_test(50, FakeRandom(45), P, strain=Strain(wounds=1, pain_filter=True))
    assert test.result.target == 50 and test.success


def test_a_pain_filter_on_the_morph_counts_in_the_attack_and_the_initiative():
    synth = Morph("synth", MorphKind.SYNTHMORPH, traits=frozenset({Trait.PAIN_FILTER}))
    filtered = Character(ego({"kinetic_weapons": 30}, COO=20), synth)
    plain = Character(ego({"kinetic_weapons": 30}, COO=20), Morph("splicer"))
    hurt, hurt_plain = Combatant(filtered, wounds=2), Combatant(plain, wounds=2)
    assert plan_attack(hurt, TARGET, PISTOL, P).attack_target == 40  # 50 - 10 (one ignored)
    assert plan_attack(hurt_plain, TARGET, PISTOL, P).attack_target == 30
    assert filtered.pain_filter and filtered.morph.felt_wounds(2) == 1
    rolls = roll_initiative([Contender("f", filtered, wounds=2), Contender("p", plain, wounds=2)],
                            FakeRandom(5, 5), P)
    by = {r.who: r for r in rolls}
    assert by["f"].total - by["p"].total == 1


def test_the_exact_odds_follow_the_morphs_bonus():
    mind = ego({"kinetic_weapons": 20}, COO=20)
    before = attack_odds(Combatant(Character(mind, Morph("flat"))), TARGET, PISTOL, P)
    after = attack_odds(Combatant(Character(mind, COO10)), TARGET, PISTOL, P)
    assert after.hit > before.hit
    assert isinstance(after.hit, Fraction)


def test_ranks_for_reads_a_stored_rating_under_the_egos_own_aptitudes():
    values = {**FLAT, Aptitude.COO: 20}
    assert ranks_for({"kinetic_weapons": 55, "fray": 10, "pilot_car": 30}, values,
                     {"pilot_car": Aptitude.REF}) == {"kinetic_weapons": 35, "fray": 0,
                                                      "pilot_car": 15}
    assert ranks_for({"odd": 30}, values) == {"odd": 30}  # no linked aptitude: all learnt
