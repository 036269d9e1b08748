"""Characters (aptitudes, skills, morph, ego, resleeving) and action turns (initiative, phases,
quick and complex actions, delaying): seed 001, "Succès / Échecs", "Actions"."""

import pytest

from gamerules.eclipse_phase.errors import ActionsSpent, InvalidSheet
from gamerules.eclipse_phase.gear import Armour
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Ego, Morph, Trait
from gamerules.eclipse_phase.turn import (ACTION_COSTS, ActionKind, Contender, PhaseActions, PhaseOrder,
                                          initiative_base, phases, roll_initiative)
from gamerules.modifiers import Modifier
from tests.gamerules.eclipse_phase.helpers import POD, SPLICER, SYNTH, P, character
from tests.gamerules.fakes import FakeRandom


def test_untrained_skill_defaults_to_its_aptitude_and_trained_skill_to_its_rating():
    c = character(skills={"kinetic_weapons": 55}, COO=18, REF=21)
    assert c.skill("kinetic_weapons", P) == 55
    assert c.skill("fray", P) == 21  # REF
    assert c.skill("beam_weapons", P) == 18  # COO
    with pytest.raises(InvalidSheet) as info:
        c.skill("basket_weaving", P)
    assert info.value.code == "ep_invalid_sheet"


def test_ranks_are_0_to_99_and_every_aptitude_is_needed():
    values = {a: 15 for a in Aptitude}
    with pytest.raises(InvalidSheet) as info:
        Ego("x", values, {"fray": 100})
    assert info.value.key == "skill_ranks"
    with pytest.raises(InvalidSheet):
        Ego("x", values, {"fray": -1})
    assert Ego("x", values, {"fray": 0}).skills == {"fray": 0}  # trained, nothing learnt
    with pytest.raises(InvalidSheet) as info:
        Ego("x", {Aptitude.COG: 10})
    assert "SOM" in info.value.params["missing"]


def test_morph_bonus_and_aptitude_cap():
    morph = Morph("fury", aptitude_bonus={Aptitude.SOM: 10})
    assert character(morph=morph, SOM=35).aptitude(Aptitude.SOM, P) == 40  # capped at 40
    assert character(morph=morph, SOM=20).aptitude(Aptitude.SOM, P) == 30


def test_wound_threshold_and_death_rating_from_durability():
    assert (SPLICER.wt(P), SPLICER.dr(P)) == (6, 45)
    assert (SYNTH.wt(P), SYNTH.dr(P)) == (6, 60)
    assert POD.dr(P) == 45  # pods die like biomorphs
    assert Morph("odd", durability=35).wt(P) == 7 and Morph("odd", durability=35).dr(P) == 53
    assert Morph("given", wound_threshold=9, death_rating=50).wt(P) == 9
    with pytest.raises(InvalidSheet):
        Morph("nothing", durability=0)


def test_ego_lucidity_trauma_threshold_insanity():
    c = character(WIL=18)
    assert (c.luc(P), c.tt(P), c.ir(P)) == (36, 8, 72)


def test_resleeving_keeps_the_ego_and_drops_the_old_body_and_its_armour():
    c = character(skills={"fray": 40}, worn=(Armour("vest", 2, 6),))
    assert c.armour("kinetic") == 6
    sleeved = c.resleeve(SYNTH)
    assert sleeved.ego is c.ego and sleeved.morph is SYNTH
    assert sleeved.armour("kinetic") == 4 and sleeved.armour("energy") == 4
    assert character(morph=Morph("octo", limbs=8)).morph.extra_limbs
    assert Morph("x", traits=frozenset({Trait.AMBIDEXTROUS})).ambidextrous


def test_initiative_is_ceil_of_int_plus_ref_over_5_plus_1d10_minus_wounds_and_traumas():
    c = character(INT=15, REF=21)  # 36 / 5 = 7.2 -> 8
    assert initiative_base(c, P) == 8
    assert initiative_base(c, EclipsePhaseParameters(initiative_round_up=False)) == 7
    rolls = roll_initiative([Contender("a", c, wounds=2, traumas=1)], FakeRandom(6), P)
    assert rolls[0].total == 6 + 8 - 3
    assert [m.value for m in rolls[0].modifiers] == [-2, -1]


def test_initiative_order_best_first_ties_to_higher_ref_then_given_order():
    fast, slow = character(INT=15, REF=20), character(INT=20, REF=15)  # both base 7
    order = roll_initiative([Contender("slow", slow), Contender("fast", fast),
                             Contender("other", slow)], FakeRandom(5, 5, 5), P)
    assert [r.who for r in order] == ["fast", "slow", "other"]
    surprised = roll_initiative([Contender("a", fast, modifiers=(Modifier("surprised", -30),)),
                                 Contender("b", slow)], FakeRandom(10, 1), P)
    assert [r.who for r in surprised] == ["b", "a"] and surprised[1].total == 10 + 7 - 30


def test_as_many_action_phases_as_spd():
    quick = character(morph=Morph("fast", speed=3))
    order = roll_initiative([Contender("a", character()), Contender("b", quick)],
                            FakeRandom(10, 1), P)
    assert phases(order, P) == (("a", "b"), ("b",), ("b",))


def test_three_quick_or_one_quick_and_one_complex_automatic_free():
    phase = PhaseActions()
    for _ in range(3):
        phase = phase.spend(ActionKind.QUICK, P)
    with pytest.raises(ActionsSpent):
        phase.spend(ActionKind.QUICK, P)
    with pytest.raises(ActionsSpent):
        phase.spend(ActionKind.COMPLEX, P)
    assert phase.spend(ActionKind.AUTOMATIC, P) == phase
    mixed = PhaseActions().spend(ActionKind.COMPLEX, P).spend(ActionKind.QUICK, P)
    with pytest.raises(ActionsSpent) as info:
        mixed.spend(ActionKind.QUICK, P)
    assert info.value.code == "ep_actions_spent"
    two_quick = PhaseActions().spend(ActionKind.QUICK, P).spend(ActionKind.QUICK, P)
    with pytest.raises(ActionsSpent):
        two_quick.spend(ActionKind.COMPLEX, P)


def test_delaying_then_interrupting_later_in_the_turn():
    order = PhaseOrder(("a", "b", "c")).delay("a")
    assert order.current == "b" and order.delayed == ("a",)
    order = order.act("b").act("a")  # a interrupts before c
    assert order.current == "c" and order.done == ("b", "a")
    with pytest.raises(ActionsSpent):
        order.act("b")
    with pytest.raises(ActionsSpent):
        order.delay("a")
    carried = PhaseOrder(("a", "b")).delay("a").act("b").next_phase(["a", "b"])
    assert carried.pending == ("b",) and carried.delayed == ("a",)


def test_action_costs_of_the_seed():
    assert ACTION_COSTS["full_defence"] is ActionKind.COMPLEX
    assert ACTION_COSTS["reload"] is ActionKind.COMPLEX and ACTION_COSTS["shoot"] is ActionKind.COMPLEX
    assert ACTION_COSTS["stand_up"] is ActionKind.QUICK and ACTION_COSTS["aim_quick"] is ActionKind.QUICK
    assert ACTION_COSTS["defend"] is ActionKind.AUTOMATIC
    assert ACTION_COSTS["defend_surprised"] is ActionKind.QUICK
