"""Eclipse Phase on positions (eclipse.positions, issue 12 item 9): the attack's band from the
distance (edges, beyond extreme refused, melee reach), moves checked against the pace's metres
(4 m walking, 20 m running, a centimetre more refused), blasts, cones and suppressive fire from
positions, the odds on the derived band, the GM's correction on the reaction card, pinned
queries. The pistol's ranges are 10/30/50/100 m, the grenade's 10/20/30/40 m."""

from __future__ import annotations

import pytest
from django.urls import reverse

from eclipse import positions
from eclipse.acting import loaded_of
from eclipse.actions import Destination, encounter_move
from eclipse.attack import encounter_attack
from eclipse.blasts import BlastAim, encounter_explode
from eclipse.models import CarriedWeapon, WeaponTemplate
from eclipse.play_selectors import odds_for
from eclipse.zones import FireZone, encounter_suppressive_fire
from encounters import services as enc
from encounters.models import Combatant
from gamerules.eclipse_phase import firing
from gamerules.eclipse_phase.errors import FiringRefused
from gamerules.eclipse_phase.gear import FiringMode, Magazine, Weapon
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.encounter.space import PositionError
from tests.eclipse_play.conftest import carry, running
from tests.eclipse_play.test_pages import HTMX, _attack, _logged
from tests.eclipse_play.test_play import entries, next_turn, shoot
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


def put(ep, e, c, who, x, y):
    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)


def placed(ep, guard_at, bo_at=("30", "40")):
    e, c = running(ep)
    put(ep, e, c, ep.ava, 0, 0)
    put(ep, e, c, ep.guard, *guard_at)
    put(ep, e, c, ep.bo, *bo_at)
    for cc in c.values():
        cc.refresh_from_db()
    return e, c


@pytest.mark.parametrize("at, band", [
    (("1.99", "0"), "point_blank"), (("2", "0"), "short"), (("10", "0"), "short"),
    (("10.01", "0"), "medium"), (("18", "24"), "medium"),  # 30 m exactly, diagonally
    (("30.01", "0"), "long"), (("50", "0"), "long"), (("100", "0"), "extreme")])
def test_the_band_follows_from_the_distance_whatever_the_attacker_picks(ep, at, band):
    e, c = placed(ep, at)
    step = shoot(ep, e, c, FakeRandom(), range_band="point_blank")
    payload = step.reaction.payload
    assert payload["range_band"] == band and payload["range_from"] == "positions"
    assert payload["distance_m"] == pytest.approx(float(at[0]) if at[1] == "0" else 30.0)


def test_beyond_the_extreme_range_the_attack_is_refused_and_nothing_spent(ep):
    e, c = placed(ep, ("100.01", "0"))
    with pytest.raises(FiringRefused) as exc:
        shoot(ep, e, c, FakeRandom())
    assert exc.value.code == "out_range_m" or exc.value.key == "out_range_m"
    e.refresh_from_db()
    assert e.turn_actions == 0 and entries(e) == []
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12


def test_without_positions_the_attackers_pick_stays(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), range_band="long")
    assert step.reaction.payload["range_band"] == "long"
    assert "distance_m" not in step.reaction.payload


def test_the_journal_keeps_the_distance_and_the_band_and_the_roll_uses_it(ep):
    e, c = placed(ep, ("40", "0"))
    step = shoot(ep, e, c, FakeRandom(), range_band="short")
    # 45 against 60 - 20 (long range, 40 m) = 40: a miss.
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(45), now=ep.now)
    [entry] = entries(e)
    payload = entry.summary["prompt"]["payload"]
    assert (payload["distance_m"], payload["range_band"]) == (40.0, "long")
    assert entry.summary["result"]["shots"][0]["attack"]["target"] == 40


def test_the_odds_use_the_derived_band(ep):
    from types import SimpleNamespace

    e, c = placed(ep, ("40", "0"))
    me, guard = Combatant.objects.get(pk=c[ep.ava.pk].pk), Combatant.objects.get(
        pk=c[ep.guard.pk].pk)
    ctx = SimpleNamespace(encounter=e, combatant=me)
    choices = {"weapon_id": ep.w.ava_pistol.pk, "mode": "SS"}
    derived = odds_for(ctx, loaded_of(me), guard, {**choices, "range_band": "short"})
    enc.positions_clear(user=ep.gm, encounter_id=e.pk)
    me.x = me.y = guard.x = guard.y = None
    picked = odds_for(ctx, loaded_of(me), guard, {**choices, "range_band": "long"})
    short = odds_for(ctx, loaded_of(me), guard, {**choices, "range_band": "short"})
    assert [line.odds for line in derived] == [line.odds for line in picked]
    assert [line.odds for line in derived] != [line.odds for line in short]


def melee(ep, e, c, weapon_id):
    return encounter_attack(user=ep.alice, encounter_id=e.pk,
                            combatant_id=c[ep.ava.pk].pk, target_id=c[ep.guard.pk].pk,
                            weapon_id=weapon_id, rng=FakeRandom(), now=ep.now)


def test_melee_needs_the_target_within_1_m_or_2_m_with_reach(ep):
    e, c = placed(ep, ("0.6", "0.8"))  # 1 m exactly
    step = melee(ep, e, c, ep.w.ava_knife.pk)
    assert step.reaction.payload["distance_m"] == 1.0 and step.reaction.payload["reach_m"] == 1
    e, c = placed(ep, ("1.01", "0"))
    with pytest.raises(positions.PositionRefused) as exc:
        melee(ep, e, c, ep.w.ava_knife.pk)
    assert exc.value.code == "ep_out_of_reach"
    staff = WeaponTemplate.objects.create(campaign=ep.campaign, name="Staff", skill="clubs",
                                          dv="1d10", melee=True, reach=True)
    long_arm = carry(ep.sheets[ep.ava.pk], staff)
    e, c = placed(ep, ("2", "0"))
    assert melee(ep, e, c, long_arm.pk).reaction.payload["reach_m"] == 2
    e, c = placed(ep, ("2.01", "0"))
    with pytest.raises(positions.PositionRefused):
        melee(ep, e, c, long_arm.pk)


def walk(ep, e, c, pace, x, y, extension="", **kw):
    e.refresh_from_db()
    return encounter_move(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                          pace=pace, to=Destination(x=x, y=y, extension=extension),
                          turn=e.turn_serial, now=ep.now, **kw)


def test_a_walk_of_exactly_4_m_moves_and_a_centimetre_more_is_refused(ep):
    e, c = placed(ep, ("50", "0"))
    before = Combatant.objects.get(pk=c[ep.ava.pk].pk)
    e.refresh_from_db()
    version = e.version
    with pytest.raises(positions.PositionRefused) as exc:
        walk(ep, e, c, "walk", "4.01", "0")
    assert exc.value.code == "ep_move_too_far"
    e.refresh_from_db()
    assert e.version == version and e.turn_actions == 0
    entry = walk(ep, e, c, "walk", "2.4", "3.2")  # 4 m diagonally
    row = Combatant.objects.get(pk=before.pk)
    assert (float(row.x), float(row.y)) == (2.4, 3.2)
    assert entry.summary["distance_m"] == 4.0 and entry.summary["to"] == [2.4, 3.2]
    e.refresh_from_db()
    assert e.version == version + 1 and e.turn_actions == 1


def test_a_run_of_exactly_20_m_moves_and_20_01_is_refused(ep):
    e, c = placed(ep, ("50", "0"))
    with pytest.raises(positions.PositionRefused):
        walk(ep, e, c, "run", "20.01", "0")
    walk(ep, e, c, "run", "-12", "16")
    row = Combatant.objects.get(pk=c[ep.ava.pk].pk)
    assert (float(row.x), float(row.y)) == (-12.0, 16.0)


def test_a_freerunning_test_extends_the_run_by_its_margin(ep):
    e, c = placed(ep, ("50", "0"))
    # Freerunning untrained: SOM 20 - 10 running = 10; a 05 succeeds with margin 5: no metre
    # more, so 20.01 m is still too far.
    with pytest.raises(positions.PositionRefused):
        walk(ep, e, c, "run", "20.01", "0", extension="freerunning", rng=FakeRandom(5))
    entry = walk(ep, e, c, "run", "20", "0", extension="freerunning", rng=FakeRandom(5))
    assert entry.summary["extension"]["label"] == "freerunning"
    assert entry.summary["metres"] == 20 and entry.rolls.count() == 1


def test_a_move_needs_a_position_for_a_destination_and_a_bad_one_is_refused(ep):
    e, c = running(ep)
    with pytest.raises(positions.PositionRefused) as exc:
        walk(ep, e, c, "walk", "1", "1")
    assert exc.value.code == "ep_no_position"
    entry = walk(ep, e, c, "walk", "", "")  # without positions: the current move
    assert entry.summary["metres"] == 4 and "to" not in entry.summary
    put(ep, e, c, ep.ava, 0, 0)
    with pytest.raises(PositionError):
        walk(ep, e, c, "walk", "1", "")


def test_a_blast_centred_on_a_combatant_reaches_those_with_dv_left(ep):
    # 3d10 at most 30: DV left under 15 m. Guard at the centre, Bo 10 m from it, Ava 20 m.
    e, c = placed(ep, ("20", "0"), bo_at=("20", "10"))
    encounter_explode(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                      weapon_id=ep.w.ava_grenade.pk,
                      aim=BlastAim(targets=[], centre_id=c[ep.guard.pk].pk),
                      rng=FakeRandom(5, 5, 5, 10, 10),
                      now=ep.now)
    [entry] = entries(e)
    lines = {t["target"]: t for t in entry.summary["targets"]}
    assert set(lines) == {"Guard", "Bo"}
    assert (lines["Guard"]["distance_m"], lines["Guard"]["dv"]) == (0.0, 15)
    assert (lines["Bo"]["distance_m"], lines["Bo"]["dv"]) == (10.0, 0)
    assert entry.summary["thrown_m"] == 20.0 and entry.summary["range_band"] == "medium"


def test_a_blast_beyond_the_extreme_range_is_refused(ep):
    e, c = placed(ep, ("40.01", "0"))
    with pytest.raises(FiringRefused):
        encounter_explode(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                          weapon_id=ep.w.ava_grenade.pk,
                          aim=BlastAim(targets=[], centre_id=c[ep.guard.pk].pk),
                          rng=FakeRandom(), now=ep.now)
    assert CarriedWeapon.objects.get(pk=ep.w.ava_grenade.pk).loaded == 1


def _guards_turn(ep, e):
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)


def test_the_suppressive_zone_aimed_at_a_combatant_decides_who_is_in_it(ep):
    # Guard at (0, 0) aims at Ava (30, 0); the zone is 10 m each side: Bo at (30, 10.01) out.
    e, c = running(ep)
    put(ep, e, c, ep.guard, 0, 0)
    put(ep, e, c, ep.ava, 30, 0)
    put(ep, e, c, ep.bo, "30", "10.01")
    _guards_turn(ep, e)
    encounter_suppressive_fire(user=ep.gm, encounter_id=e.pk,
                               combatant_id=c[ep.guard.pk].pk,
                               weapon_id=ep.w.guard_rifle.pk,
                               fire=FireZone(target_ids=[], aim_id=c[ep.ava.pk].pk),
                               rng=FakeRandom(99, 50), now=ep.now)
    [entry] = entries(e)
    assert [t["target"] for t in entry.summary["targets"]] == ["Ava"]


def test_the_suppressive_zone_takes_bo_at_10_m_aside(ep):
    e, c = running(ep)
    put(ep, e, c, ep.guard, 0, 0)
    put(ep, e, c, ep.ava, 30, 0)
    put(ep, e, c, ep.bo, "30", "10")
    _guards_turn(ep, e)
    encounter_suppressive_fire(user=ep.gm, encounter_id=e.pk,
                               combatant_id=c[ep.guard.pk].pk,
                               weapon_id=ep.w.guard_rifle.pk,
                               fire=FireZone(target_ids=[], in_cover_ids=(c[ep.bo.pk].pk,),
                                             aim_id=c[ep.ava.pk].pk),
                               rng=FakeRandom(99, 50), now=ep.now)
    [entry] = entries(e)
    names = {t["target"]: t for t in entry.summary["targets"]}
    assert set(names) == {"Ava", "Bo"} and names["Bo"]["spared"] == "cover"


def test_burst_spacing_comes_from_positions_and_1_m_is_the_edge(ep):
    e, c = running(ep)
    put(ep, e, c, ep.bo, 5, 0)
    put(ep, e, c, ep.guard, 5, 1)
    rows = list(Combatant.objects.filter(pk__in=[c[ep.bo.pk].pk, c[ep.guard.pk].pk])
                .order_by("x", "y"))
    params = EclipsePhaseParameters()
    smg = Weapon("SMG", "kinetic_weapons", "2d10", modes=frozenset({FiringMode.BF}),
                 magazine=12, ranges=(10, 30, 50, 100))
    gaps = positions.burst_spacing(rows, given=(0.5,))
    assert gaps == (1.0,)
    firing.burst_fire(smg, Magazine.full(smg), [firing.Burst(("bo", "guard"), gaps)], params)
    put(ep, e, c, ep.guard, "5", "1.01")
    rows = list(Combatant.objects.filter(pk__in=[c[ep.bo.pk].pk, c[ep.guard.pk].pk])
                .order_by("y"))
    with pytest.raises(FiringRefused):
        firing.burst_fire(smg, Magazine.full(smg),
                          [firing.Burst(("bo", "guard"), positions.burst_spacing(rows))], params)
    rows[0].x = None
    assert positions.burst_spacing(rows, given=(0.5,)) == (0.5,)


def test_the_gm_corrects_the_derived_band_from_the_reaction_card(client, ep):
    e, c = placed(ep, ("40", "0"))
    step = shoot(ep, e, c, FakeRandom())
    _logged(client, ep.gm)
    html = client.get(reverse("encounters:control", args=[e.pk])).content.decode()
    assert 'data-testid="range-correct"' in html and "40.0 m away" in html
    client.post(reverse("eclipse_play:range_correct", args=[e.pk]),
                {"page": "control", "reaction": step.reaction.pk, "range_band": "medium"},
                **HTMX)
    step.reaction.refresh_from_db()
    assert step.reaction.payload["range_band"] == "medium"
    assert step.reaction.payload["range_band_picked"] == "long"
    client.logout()
    _logged(client, ep.bob)
    html = client.get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="range-correct"' not in html


def test_a_move_posted_from_the_page_moves_the_position(client, ep):
    e, c = placed(ep, ("50", "0"))
    _logged(client, ep.alice)
    html = client.post(reverse("eclipse_play:move", args=[e.pk]), {
        "page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk, "pace": "walk",
        "x": "4", "y": "0"}, **HTMX).content.decode()
    assert "(4.00, 0.00)" in html or 'value="4.00"' in html
    html = client.post(reverse("eclipse_play:move", args=[e.pk]), {
        "page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk, "pace": "walk",
        "x": "8.01", "y": "0"}, **HTMX).content.decode()
    assert 'data-testid="error"' in html


@pytest.mark.parametrize("extra", [0, 3])
def test_the_play_page_with_positions_keeps_its_query_count(client, ep, extra,
                                                            django_assert_num_queries):
    from characters.models import Character
    from tests.eclipse_play.conftest import sheet

    e, _c = placed(ep, ("5", "5"))
    pod = ep.sheets[ep.guard.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(extra)]
    for m in more:
        sheet(m, pod)
    if more:
        made = enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                                  entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
        for i, m in enumerate(made):
            enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=m.pk, x=i, y=9)
    url = reverse("encounters:play", args=[e.pk])
    _logged(client, ep.alice).get(url)
    with django_assert_num_queries(10):  # as without positions (test_pages)
        html = client.get(url).content.decode()
    assert html.count('data-testid="map-token"') == 3 + extra
    assert 'data-testid="move-x"' in html and 'data-testid="range-from-positions"' in html


def test_the_odds_fragment_with_positions_keeps_its_query_count(client, ep,
                                                                django_assert_num_queries):
    from tests.eclipse_play.test_pages import ODDS_QUERIES

    e, c = placed(ep, ("40", "0"))
    _logged(client, ep.alice).get(reverse("encounters:play", args=[e.pk]))
    with django_assert_num_queries(ODDS_QUERIES):
        html = client.post(reverse("eclipse_play:odds", args=[e.pk]), _attack(e, c, ep),
                           **HTMX).content.decode()
    assert "error" not in html.lower() or "%" in html


def test_the_map_offers_the_move_to_the_player_in_turn_only(client, ep):
    """The map's move form (encounters.ground, eclipse.actions.map_move): Alice in Ava's turn
    gets the walk and the run with their metres, posting to the move step; Bob none."""
    e, _c = placed(ep, ("5", "5"))
    url = reverse("encounters:play", args=[e.pk])
    html = _logged(client, ep.alice).get(url).content.decode()
    assert 'data-testid="map-move"' in html
    assert f'action="{reverse("eclipse_play:move", args=[e.pk])}"' in html
    assert 'value="walk" data-metres="4"' in html and 'value="run" data-metres="20"' in html
    assert html.count('<circle cx=') >= 2  # the reach circles around Ava
    client.logout()
    html = _logged(client, ep.bob).get(url).content.decode()
    assert 'data-testid="map-move"' not in html and 'data-testid="map-reach"' in html
