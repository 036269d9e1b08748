"""Firing modes, ammunition, suppressive fire, beams, blind and indirect fire, reloading (seed
001, "Options & Complications")."""

import pytest

from gamerules.eclipse_phase.attack import (AttackOptions, Combatant, Defence, DefenceChoice, resolve_attack,
                                            roll_damage)
from gamerules.eclipse_phase.errors import FiringRefused, ManoeuvreRefused, OutOfAmmo
from gamerules.eclipse_phase.checks import skill_test
from gamerules.eclipse_phase.firing import (Burst, Concentrate, ZoneTarget, blind_fire_modifier,
                                            burst_fire, check_concentration, full_auto,
                                            indirect_fire_modifiers, reload, semi_auto,
                                            single_shot, suppressed, suppressive_fire,
                                            suppressive_attack, sweep_modifier)
from gamerules.eclipse_phase.gear import FiringMode, Magazine
from tests.gamerules.eclipse_phase.helpers import (LASER, MISSILE, PISTOL, RIFLE, SHOOTER, SMG,
                                                   TARGET, P, character)
from tests.gamerules.fakes import FakeRandom


def mods(shot):
    return [(m.label, m.value) for m in shot.modifiers]


def test_single_shot_and_semi_auto_second_target_minus_20():
    ss = single_shot(PISTOL, Magazine.full(PISTOL), "a")
    assert ss.rounds == 1 and ss.magazine.loaded == 11
    sa = semi_auto(PISTOL, Magazine.full(PISTOL), ["a", "b"], P)
    assert [mods(s) for s in sa.shots] == [[], [("per extra target (x1)", -20)]]
    same = semi_auto(PISTOL, Magazine.full(PISTOL), ["a", "a"], P)
    assert [mods(s) for s in same.shots] == [[], []] and same.magazine.loaded == 10
    with pytest.raises(FiringRefused) as info:
        burst_fire(PISTOL, Magazine.full(PISTOL), [Burst(("a",))], P)
    assert info.value.code == "ep_firing_refused"


def test_burst_two_targets_within_1_m_or_concentrated_plus_10_or_1d10_three_rounds_each():
    two = burst_fire(RIFLE, Magazine.full(RIFLE), [Burst(("a", "b"), (1,))], P)
    assert [s.target for s in two.shots] == ["a", "b"] and all(not s.modifiers for s in two.shots)
    assert two.rounds == 3 and two.magazine.loaded == 37
    with pytest.raises(FiringRefused):
        burst_fire(RIFLE, Magazine.full(RIFLE), [Burst(("a", "b"), (1.5,))], P)
    bonus = burst_fire(RIFLE, Magazine.full(RIFLE), [Burst(("a",), concentrate=Concentrate.BONUS),
                                                     Burst(("a",), concentrate=Concentrate.DAMAGE)], P)
    assert mods(bonus.shots[0]) == [("concentrated burst", 10)] and bonus.shots[1].extra_d10 == 1
    assert bonus.rounds == 6
    other = burst_fire(RIFLE, Magazine.full(RIFLE), [Burst(("a",)), Burst(("b",))], P)
    assert mods(other.shots[1]) == [("per extra target (x1)", -20)]


def test_full_auto_three_targets_1_m_apart_or_plus_30_or_3d10_ten_rounds():
    three = full_auto(RIFLE, Magazine.full(RIFLE), Burst(("a", "b", "c"), (1, 1)), P)
    assert len(three.shots) == 3 and three.magazine.loaded == 30
    with pytest.raises(FiringRefused):
        full_auto(RIFLE, Magazine.full(RIFLE), Burst(("a", "b", "c"), (1, 2)), P)
    with pytest.raises(FiringRefused):
        full_auto(RIFLE, Magazine.full(RIFLE), Burst(("a", "b", "c", "d"), (1, 1, 1)), P)
    assert mods(full_auto(RIFLE, Magazine.full(RIFLE), Burst(("a",), concentrate=Concentrate.BONUS),
                          P).shots[0]) == [("concentrated full auto", 30)]
    dice = full_auto(RIFLE, Magazine.full(RIFLE), Burst(("a",), concentrate=Concentrate.DAMAGE), P)
    assert dice.shots[0].extra_d10 == 3
    hit = resolve_attack(SHOOTER, TARGET, RIFLE, FakeRandom(40, 90), P)
    dv = roll_damage(hit, SHOOTER.character, FakeRandom(1, 2, 3, 4, 5), P, extra_d10=3)
    assert dv.expression == "2d10+3d10" and dv.dv == 15 + 5


def test_not_enough_rounds_refuses_and_spends_nothing():
    low = Magazine(40, 9)
    with pytest.raises(FiringRefused) as info:
        full_auto(RIFLE, low, Burst(("a",)), P)
    assert info.value.params == {"needed": 10, "loaded": 9}
    assert low.loaded == 9
    with pytest.raises(FiringRefused):
        burst_fire(RIFLE, Magazine(40, 5), [Burst(("a",)), Burst(("a",))], P)


def test_suppressive_fire_needs_20_rounds_and_a_20_round_magazine():
    with pytest.raises(FiringRefused) as info:
        suppressive_fire(RIFLE, Magazine(40, 19), "me", origin=(0, 0), heading=(1, 0), params=P)
    assert info.value.params == {"needed": 20, "loaded": 19}
    with pytest.raises(FiringRefused) as small:
        suppressive_fire(SMG, Magazine.full(SMG), "me", origin=(0, 0), heading=(1, 0), params=P)
    assert small.value.params == {"needed": 20, "capacity": 15, "name": "machine pistol"}
    _zone, after = suppressive_fire(RIFLE, Magazine(40, 20), "me", origin=(0, 0), heading=(1, 0), params=P)
    assert after.loaded == 0


def test_suppressive_zone_20_m_wide_spares_cover_and_full_defence():
    zone, _ = suppressive_fire(RIFLE, Magazine.full(RIFLE), "me", origin=(0, 0), heading=(1, 0), params=P)
    targets = [ZoneTarget("in", (50, 10)), ZoneTarget("edge", (500, -10)),
               ZoneTarget("wide", (50, 10.5)), ZoneTarget("behind", (-5, 0)),
               ZoneTarget("far", (501, 0)), ZoneTarget("covered", (20, 0), in_cover=True),
               ZoneTarget("full", (20, 0), full_defence=True), ZoneTarget("me", (1, 0))]
    assert suppressed(zone, targets, P) == ("in", "edge")
    lenient = P.__class__(suppressive_spares_full_defence=False)
    assert "full" in suppressed(zone, targets, lenient)


def test_the_suppressive_free_attack_has_no_modifier_but_the_attackers_wounds():
    hurt = Combatant(SHOOTER.character, wounds=1)
    result = suppressive_attack(hurt, TARGET, RIFLE, FakeRandom(40, 90), P)
    assert [(m.label, m.value) for m in result.attack.modifiers] == [("wounds (1)", -10),
                                                                    ("short range", 0)]
    assert result.hit and result.defence.target == 25


def test_beam_sweep_plus_20_after_a_miss_and_concentration_after_a_hit():
    assert sweep_modifier(LASER, FiringMode.SA, False, P).value == 20
    with pytest.raises(ManoeuvreRefused):
        sweep_modifier(LASER, FiringMode.SA, True, P)
    with pytest.raises(ManoeuvreRefused) as info:
        sweep_modifier(RIFLE, FiringMode.BF, False, P)
    assert info.value.code == "ep_manoeuvre_refused"
    check_concentration(LASER, FiringMode.BF, True)
    with pytest.raises(ManoeuvreRefused):
        check_concentration(LASER, FiringMode.SA, False)
    hit = resolve_attack(SHOOTER, TARGET, LASER, FakeRandom(20, 90), P)
    dv = roll_damage(hit, SHOOTER.character, FakeRandom(3, 4), P, concentrate=True)
    assert dv.multiplier == 2 and dv.dv == 14
    with pytest.raises(ManoeuvreRefused):
        roll_damage(resolve_attack(SHOOTER, TARGET, RIFLE, FakeRandom(20, 90), P),
                    SHOOTER.character, FakeRandom(3, 4), P, concentrate=True)


def test_blind_fire_minus_30_after_perception_indirect_minus_30_none_with_homing():
    seen = skill_test(50, FakeRandom(10), P)
    assert blind_fire_modifier(seen, P).value == -30
    with pytest.raises(ManoeuvreRefused):
        blind_fire_modifier(skill_test(50, FakeRandom(70), P), P)
    assert [m.value for m in indirect_fire_modifiers(RIFLE, spotter=True, params=P)] == [-30]
    assert indirect_fire_modifiers(MISSILE, spotter=True, params=P) == ()
    with pytest.raises(ManoeuvreRefused):
        indirect_fire_modifiers(MISSILE, spotter=False, params=P)


def test_reloading_takes_a_spare_magazine():
    mag = Magazine(12, 3, spares=1)
    assert reload(mag) == Magazine(12, 12, 0)
    with pytest.raises(OutOfAmmo) as info:
        reload(Magazine(12, 0, 0))
    assert info.value.code == "ep_out_of_ammo"
    with pytest.raises(OutOfAmmo):
        Magazine(12, 2).spend(3)


def test_surprise_free_attack_defended_with_quick_action():
    result = resolve_attack(SHOOTER, TARGET, PISTOL, FakeRandom(40), P,
                            defence=DefenceChoice(Defence.DODGE, surprised=True),
                            options=AttackOptions())
    assert result.hit and result.defence is None
    assert character().skill("fray", P) == 15
