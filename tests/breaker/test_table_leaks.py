"""Breaking the table features of issue 21: the encounter map, the reaction prompt card, the
game master's screen and its quick actions, the live topics. Nothing hidden reaches a player
(page, fragment, the step's answer, API, stream, odds, the map's frame), a player or a
stranger gets 404 on a GM screen, and no input answers 500."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import live
from encounters import ground, services
from tests import factories
from tests.eclipse_play import conftest as eclipse_world
from tests.encounters.conftest import Table, register_test_system, unregister_test_system
from tests.homebrew import conftest as homebrew_world

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
HUGE = 10**20


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ep(db, alice, bob):
    return eclipse_world.build_world(alice, bob)


@pytest.fixture
def hb(db, alice, bob):
    return homebrew_world.build_world(alice, bob)


@pytest.fixture
def enc_system():
    register_test_system()
    yield
    unregister_test_system()


@pytest.fixture
def table(enc_system):
    return Table()


def _place(t, name, x, y):
    services.combatant_place(user=t.gm, encounter_id=t.encounter.pk, combatant_id=t.c[name].pk,
                             x=x, y=y)


def _hide(t, name):
    services.combatant_update(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c[name].pk, hidden=True)


def _svg(html: str) -> str:
    start = html.index('data-testid="map"')
    return html[start:html.index("</svg>", start)]


def _frame_attrs(html: str) -> tuple:
    svg = _svg(html)
    return tuple(re.search(rf'{k}="([^"]*)"', svg).group(1)
                 for k in ("viewBox", "data-left", "data-top", "data-scale", "data-cell"))


# --- 1. the map ---------------------------------------------------------------------------

def test_a_far_hidden_token_does_not_widen_a_players_map_frame(table):
    e = table.start()
    _place(table, "Hero", 0, 0)
    _place(table, "Brenna", 10, 0)
    _place(table, "Orc", 900, -700)  # far away, hidden: the GM's frame is huge
    _hide(table, "Orc")
    expected = ground.frame([(0, 0), (10, 0)])
    bob = client_of(table.bob)
    for url, kw in ((f"/encounters/{e.pk}/", {}), (f"/encounters/{e.pk}/?v=0", HTMX)):
        html = bob.get(url, **kw).content.decode()
        assert _frame_attrs(html)[0] == f"0 0 {expected.width} {expected.height}"
        assert _frame_attrs(html)[4] == str(expected.cell_m)
        assert "Orc" not in html and "900" not in _svg(html)
    gm = client_of(table.gm).get(f"/encounters/{e.pk}/control/").content.decode()
    assert _frame_attrs(gm)[4] != str(expected.cell_m)  # the GM's frame holds the orc
    api = bob.get(f"/api/encounters/{e.pk}/").content.decode()
    assert "Orc" not in api and "900" not in api


def test_an_unplaced_hidden_combatant_is_not_listed_beside_a_players_map(table):
    e = table.start()
    _place(table, "Hero", 0, 0)
    _hide(table, "Orc")  # in play, no position: "Not on the map" for the GM only
    gm = client_of(table.gm).get(f"/encounters/{e.pk}/control/").content.decode()
    assert "Not on the map" in gm and "Orc" in gm
    html = client_of(table.alice).get(f"/encounters/{e.pk}/?v=0", **HTMX).content.decode()
    assert "Orc" not in html


def test_the_gms_drag_answer_is_the_gms_and_a_players_refetch_shows_no_hidden(table):
    e = table.start()
    _place(table, "Hero", 0, 0)
    _hide(table, "Orc")
    gm = client_of(table.gm)
    answer = gm.post(reverse("encounters:place", args=[e.pk, table.c["Orc"].pk]),
                     {"x": "40", "y": "40", "page": "control"}, **HTMX)
    assert answer.status_code == 200 and 'data-name="Orc"' in answer.content.decode()
    html = client_of(table.bob).get(f"/encounters/{e.pk}/?v=0", **HTMX).content.decode()
    assert 'data-name="Orc"' not in html and "Orc" not in html
    assert _frame_attrs(html)[0] == "0 0 480 480"  # Hero alone: the minimum frame


def test_an_effect_anchored_on_a_hidden_combatant_is_not_on_a_players_token(table):
    from encounters.effects import effect_add

    e = table.start()
    _place(table, "Hero", 0, 0)
    _place(table, "Orc", 3, 3)
    effect_add(user=table.gm, encounter_id=e.pk, name="Orcish curse",
               anchor_id=table.c["Orc"].pk, bearer_id=table.c["Hero"].pk, edge="end", rounds=3)
    effect_add(user=table.gm, encounter_id=e.pk, name="Blessing", anchor_id=table.c["Hero"].pk,
               bearer_id=table.c["Hero"].pk, edge="end", rounds=3)
    _hide(table, "Orc")
    gm = client_of(table.gm).get(f"/encounters/{e.pk}/control/").content.decode()
    assert "Orcish curse" in _svg(gm)
    for user in (table.alice, table.bob):
        html = client_of(user).get(f"/encounters/{e.pk}/?v=0", **HTMX).content.decode()
        assert "Orcish curse" not in html and "Orc" not in html.replace("Orcish", "")
        assert "Blessing" in _svg(html)  # the visible effect stays on the token


def test_a_hidden_combatants_turn_draws_no_move_circle_for_a_player(ep, client):
    from encounters import services as enc

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=ep.guard.pk, hidden=True),
        enc.CombatantEntry(character_id=ep.ava.pk), enc.CombatantEntry(character_id=ep.bo.pk)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    for x, (px, py) in ((ep.guard, (60, 60)), (ep.ava, (0, 0)), (ep.bo, (5, 0))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[x.pk].pk, x=px, y=py)
    e.refresh_from_db()
    assert e.current_id == c[ep.guard.pk].pk
    gm = client_of(ep.gm).get(reverse("encounters:play", args=[e.pk]) + "?v=0",
                              **HTMX).content.decode()
    assert 'data-testid="map-reach"' in gm  # the guard's walk and run, for the GM
    client.force_login(ep.bob)
    for url, kw in ((reverse("encounters:play", args=[e.pk]), {}),
                    (reverse("encounters:play", args=[e.pk]) + "?v=0", HTMX)):
        html = client.get(url, **kw).content.decode()
        assert 'data-testid="map-reach"' not in html and 'data-testid="map-move"' not in html
        assert "token-current" not in _svg(html) and "Guard" not in html
        assert _frame_attrs(html)[0] == "0 0 480 480"  # Ava and Bo, 5 m apart: the minimum


@pytest.mark.parametrize("x,y", [("nan", "0"), ("inf", "0"), ("1e400", "0"), ("abc", "1"),
                                 ("1", ""), ("-1e308", "0"), ("0x10", "0"), ("", "")])
def test_a_bad_position_is_refused_in_words_not_500(table, x, y):
    e = table.start()
    answer = client_of(table.gm).post(reverse("encounters:place", args=[e.pk, table.c["Orc"].pk]),
                                      {"x": x, "y": y, "page": "control"}, **HTMX)
    assert answer.status_code in (200, 400, 409, 422)


@pytest.mark.parametrize("value", ["1e400", "-1e29", "9" * 40, "1E+100000"])
def test_a_coordinate_past_the_decimal_context_is_out_of_bounds(value):
    # Decimal.quantize raised InvalidOperation (a 500 on the GM's drag and the player's move)
    # for a number with more digits than the context's 28 once rounded to the centimetre.
    from gamerules.encounter import space

    with pytest.raises(space.PositionError) as caught:
        space.coordinate(value)
    assert caught.value.code == "position_out_of_bounds"
    assert space.coordinate("10000.004") == 10000  # the limit itself still rounds in


@pytest.mark.parametrize("x", ["1e400", "nan", "-inf", "9" * 40])
def test_the_players_map_move_with_a_huge_number_is_refused_not_500(ep, client, x):
    from encounters import services as enc

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=p.pk) for p in (ep.ava, ep.bo, ep.guard)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    e.refresh_from_db()
    ava = e.combatants.get(character=ep.ava)
    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=ava.pk, x=0, y=0)
    client.force_login(ep.alice)
    answer = client.post(reverse("eclipse_play:move", args=[e.pk]),
                         {"combatant": ava.pk, "turn": e.turn_serial, "pace": "walk",
                          "x": x, "y": "0", "page": "play"}, **HTMX)
    assert answer.status_code in (200, 400)
    ava.refresh_from_db()
    assert (ava.x, ava.y) == (0, 0)


@pytest.mark.parametrize("who", ["alice", "stranger"])
def test_a_player_or_a_stranger_cannot_place_a_token(table, who):
    e = table.start()
    user = table.alice if who == "alice" else factories.user("stranger")
    before = (table.c["Orc"].x, table.c["Orc"].y)
    answer = client_of(user).post(reverse("encounters:place", args=[e.pk, table.c["Orc"].pk]),
                                  {"x": "3", "y": "3"}, **HTMX)
    assert answer.status_code in (200, 403, 404)  # htmx: the refusal in words, 200
    table.c["Orc"].refresh_from_db()
    assert (table.c["Orc"].x, table.c["Orc"].y) == before


def test_placing_a_combatant_of_another_encounter_or_a_huge_id_is_not_500(table):
    e = table.start()
    other = services.encounter_create(user=table.gm, campaign_id=table.campaign.pk, name="B")
    gm = client_of(table.gm)
    for encounter_id, combatant_id in ((other.pk, table.c["Orc"].pk), (e.pk, HUGE),
                                       (HUGE, table.c["Orc"].pk)):
        answer = gm.post(f"/encounters/{encounter_id}/positions/{combatant_id}/",
                         {"x": "1", "y": "1"}, **HTMX)
        assert answer.status_code in (200, 400, 404, 409, 422), (encounter_id, combatant_id)


# --- 2. the prompt card -------------------------------------------------------------------

def test_a_homebrew_parry_for_a_hidden_ally_is_not_offered_nor_counted(hb, client):
    from encounters import services as enc
    from homebrew import play
    from tests.gamerules.fakes import FakeRandom
    make_sheet = homebrew_world.make_sheet

    make_sheet(hb.aria, posture="defensive", force=4, dexterite=2)
    make_sheet(hb.bran, posture="defensive", force=6, dexterite=2)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Fight")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=hb.goblin.pk),
        enc.CombatantEntry(character_id=hb.aria.pk),
        enc.CombatantEntry(character_id=hb.bran.pk, hidden=True)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = play.encounter_attack(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                                 target_id=c[hb.aria.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.claws.pk),
                                 rng=FakeRandom(10, 3), now=hb.now)
    assert step.reaction is not None
    client.force_login(hb.alice)
    html = client.get(reverse("encounters:play", args=[e.pk]), **HTMX).content.decode()
    assert 'data-testid="prompt-attack"' in html
    assert f"parry:{hb.bran.pk}" not in html and "Bran" not in html
    api = client.get(f"/api/encounters/{e.pk}/").content.decode()
    assert f"parry:{hb.bran.pk}" not in api and "Bran" not in api


def test_a_hidden_eclipse_attacker_is_named_nowhere_in_the_steps_answer_nor_the_api(ep, client):
    from eclipse.attack import encounter_attack
    from encounters import services as enc
    from tests.gamerules.fakes import FakeRandom

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=ep.guard.pk, hidden=True),
        enc.CombatantEntry(character_id=ep.ava.pk), enc.CombatantEntry(character_id=ep.bo.pk)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    for x, (px, py) in ((ep.guard, (300, 300)), (ep.ava, (0, 0)), (ep.bo, (5, 0))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[x.pk].pk, x=px, y=py)
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", range_band="short", rng=FakeRandom(50), now=ep.now)
    assert step.reaction is not None
    client.force_login(ep.bob)
    page = client.get(reverse("encounters:play", args=[e.pk])).content.decode()
    frag = client.get(reverse("encounters:play", args=[e.pk]) + "?v=0", **HTMX).content.decode()
    api = client.get(f"/api/encounters/{e.pk}/").content.decode()
    for text in (page, frag, api):
        assert "Guard" not in text
    # The prompt's payload (the API's) does not say how far the unseen attacker stands: a
    # distance from the player's own combatant places it on a circle around it.
    payload = client.get(f"/api/encounters/{e.pk}/").json()["reactions"][0]["payload"]
    assert "distance_m" not in payload and "range_from" not in payload
    assert "range_band" not in payload  # "extreme", measured from the positions: a ring
    assert "420" not in api
    assert 'data-testid="chance-dodge"' in frag  # the odds stand without it
    gm_payload = client_of(ep.gm).get(f"/api/encounters/{e.pk}/").json()["reactions"][0]
    assert gm_payload["payload"]["distance_m"] == 420.74  # the GM's, whole
    # Bo answers: the step's answer (and its out-of-band parts) names nobody hidden either.
    answer = client.post(reverse("encounters:answer", args=[e.pk, step.reaction.pk]),
                         {"choice": "none", "page": "play"}, **HTMX)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "Guard" not in body
    assert _frame_attrs(body) == _frame_attrs(page)  # the guard 300 m off is not framed
    assert _frame_attrs(page)[0] == "0 0 480 480" and 'data-cell="1"' in body
    # The attacker's defence-prompt card never names the attacker, in the GM's view it does.
    gm = client_of(ep.gm).get(reverse("encounters:play", args=[e.pk]) + "?v=0",
                              **HTMX).content.decode()
    assert 'data-name="Guard"' in gm


# characters.selectors.recent_actions listed every entry by or against the character, the
# encounter's visibility not applied: a hidden attacker was named on the player's own sheet
# (in Eclipse with its distance), on the page and on its refetch when character-<id> is pushed.
def test_a_players_eclipse_sheet_does_not_name_a_hidden_attacker(ep, client):
    from eclipse.attack import encounter_attack
    from encounters import services as enc
    from tests.gamerules.fakes import FakeRandom

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=ep.guard.pk, hidden=True),
        enc.CombatantEntry(character_id=ep.ava.pk), enc.CombatantEntry(character_id=ep.bo.pk)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", range_band="short", rng=FakeRandom(50), now=ep.now)
    client.force_login(ep.bob)
    client.post(reverse("encounters:answer", args=[e.pk, step.reaction.pk]),
                {"choice": "none", "page": "play"}, **HTMX)
    assert "Guard" in client_of(ep.gm).get(
        reverse("characters:detail", args=[ep.bo.pk])).content.decode()  # the GM's, whole
    for kw in ({}, HTMX):  # the page, and its refetch when character-<id> is pushed
        sheet = client.get(reverse("characters:detail", args=[ep.bo.pk]), **kw)
        assert sheet.status_code == 200 and "Guard" not in sheet.content.decode()
    enc.combatant_update(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                         hidden=False)  # revealed: the entry reads again
    assert "Guard" in client.get(reverse("characters:detail", args=[ep.bo.pk])).content.decode()


def test_a_players_homebrew_sheet_does_not_name_a_hidden_attacker(hb, client):
    from encounters import services as enc
    from homebrew import play
    from tests.gamerules.fakes import FakeRandom

    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Fight")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=hb.goblin.pk, hidden=True),
        enc.CombatantEntry(character_id=hb.aria.pk), enc.CombatantEntry(character_id=hb.bran.pk)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = play.encounter_attack(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.claws.pk),
                                 rng=FakeRandom(10, 3), now=hb.now)
    client.force_login(hb.bob)
    if step.reaction is not None:
        client.post(reverse("encounters:answer", args=[e.pk, step.reaction.pk]),
                    {"choice": "none", "page": "play"}, **HTMX)
    for kw in ({}, HTMX):
        sheet = client.get(reverse("characters:detail", args=[hb.bran.pk]), **kw)
        assert sheet.status_code == 200 and "Goblin" not in sheet.content.decode()


@pytest.mark.parametrize("choice", ["", "x" * 300, "parry:999999999999999999999", "dodge:",
                                    "melee:", "melee:nope", "\x00"])
def test_a_bad_answer_to_an_eclipse_prompt_is_not_500(ep, client, choice):
    from eclipse.attack import encounter_attack
    from encounters import services as enc
    from tests.gamerules.fakes import FakeRandom

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=x.pk) for x in (ep.guard, ep.ava, ep.bo)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", range_band="short", rng=FakeRandom(50), now=ep.now)
    client.force_login(ep.bob)
    answer = client.post(reverse("encounters:answer", args=[e.pk, step.reaction.pk]),
                         {"choice": choice, "page": "play"}, **HTMX)
    assert answer.status_code in (200, 400, 409, 422)
    alice = client_of(ep.alice).post(reverse("encounters:answer", args=[e.pk, step.reaction.pk]),
                                     {"choice": "dodge", "page": "play"}, **HTMX)
    assert alice.status_code in (403, 404, 409) or "error" in alice.content.decode()


@pytest.mark.parametrize("gone", ["target_sleeve", "attacker_weapon", "attacker_sheet",
                                  "attacker_sleeve"])
def test_an_eclipse_prompt_whose_sheets_changed_meanwhile_still_renders(ep, client, gone):
    from eclipse.attack import encounter_attack
    from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve
    from encounters import services as enc
    from tests.gamerules.fakes import FakeRandom

    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Fight")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=x.pk) for x in (ep.guard, ep.ava, ep.bo)])
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", range_band="short", rng=FakeRandom(50), now=ep.now)
    assert step.reaction is not None
    if gone == "target_sleeve":
        Sleeve.objects.filter(owner__character=ep.bo).delete()
    elif gone == "attacker_weapon":
        CarriedWeapon.objects.filter(pk=ep.w.guard_rifle.pk).delete()
    elif gone == "attacker_sheet":
        EclipseSheet.objects.filter(character=ep.guard).delete()
    else:
        Sleeve.objects.filter(owner__character=ep.guard).delete()
    for user in (ep.bob, ep.gm):
        client.force_login(user)
        for kw in ({}, HTMX):
            r = client.get(reverse("encounters:play", args=[e.pk]), **kw)
            assert r.status_code == 200, (user, kw)
        assert client.get(f"/api/encounters/{e.pk}/").status_code == 200


def test_a_homebrew_rest_of_the_dead_is_refused_in_words(screens):
    from homebrew.models import Health, HomebrewSheet

    s = screens
    HomebrewSheet.objects.filter(character=s["ari"]).update(health=Health.DEAD)
    r = client_of(s["hb"].game_master).post(_act(s["hb"], s["ari"].pk, "rest"),
                                            {"kind": "long"}, **HTMX)
    assert r.status_code == 200 and 'data-testid="error"' in r.content.decode()


# --- 3. the game master's screen --------------------------------------------------------

@pytest.fixture
def screens(db):
    """An Eclipse, a homebrew and an EW1 campaign, each with one player character; the EW1's
    GM runs no other; a creature; an Eclipse player character without a sheet, one without a
    sleeve."""
    from characters.models import Character
    from eclipse.models import EclipseSheet

    ecl = factories.EclipseCampaignFactory(name="Firewall")
    bob = factories.UserFactory(username="bob")
    sleeve = factories.SleeveFactory(owner__character__campaign=ecl,
                                     owner__character__owner=bob,
                                     owner__character__name="Ines")
    ines = Character.objects.get(pk=sleeve.owner.pk)
    bare = factories.CharacterFactory(campaign=ecl, owner=bob, name="Bare")  # no sheet
    EclipseSheet.objects.filter(character=bare).delete()
    caves = factories.HomebrewCampaignFactory(name="Caves")
    ari = factories.HomebrewSheetFactory(character__campaign=caves, character__name="Ari",
                                         character__owner=bob).character
    war = factories.campaign(name="War")
    war.game_master = factories.UserFactory(username="warlord")
    war.save(update_fields=["game_master"])
    hero = factories.character(owner=bob, campaign=war, name="Hero")
    orc = factories.CreatureFactory(campaign=ecl, name="Orc")
    return dict(ecl=ecl, ines=ines, bare=bare, hb=caves, ari=ari, war=war, hero=hero, orc=orc,
                bob=bob)


def _act(campaign, character_id, key):
    return f"/campaigns/{campaign.pk}/gm/characters/{character_id}/{key}/"


@pytest.mark.parametrize("who", ["bob", "stranger", "other_gm"])
def test_the_screen_and_each_action_are_404_to_anyone_not_running_it(screens, who):
    s = screens
    user = {"bob": s["bob"], "stranger": factories.UserFactory(username="nobody"),
            "other_gm": factories.HomebrewCampaignFactory(
                name="Theirs", game_master=factories.UserFactory(username="gm2")).game_master}[who]
    client = client_of(user)
    assert client.get(f"/campaigns/{s['ecl'].pk}/gm/").status_code == 404
    for key in ("heal", "stress", "recover", "moxie"):
        for kw in ({}, HTMX):
            r = client.post(_act(s["ecl"], s["ines"].pk, key), {"damage": "5", "sv": "3"}, **kw)
            assert r.status_code == 404, key
    assert client.post(_act(s["war"], s["hero"].pk, "item"), {"item": "1"}).status_code == 404
    assert client.get(f"/campaigns/{HUGE}/gm/").status_code == 404
    assert Client().get(f"/campaigns/{s['ecl'].pk}/gm/").status_code == 302  # log in first


@pytest.mark.parametrize("campaign,character,key", [
    ("ecl", "ari", "heal"),  # another campaign's (another system's) character
    ("ecl", "orc", "heal"),  # a creature, not a player character
    ("ecl", "ines", "rest"),  # the homebrew's action on an Eclipse campaign
    ("hb", "ari", "heal"),  # Eclipse's action on a homebrew campaign
    ("war", "hero", "moxie"),
    ("ecl", "ines", "nope"),
    ("ecl", "huge", "heal"),
])
def test_an_action_off_its_campaign_or_system_is_404(screens, campaign, character, key):
    s = screens
    c = s[campaign]
    cid = HUGE if character == "huge" else s[character].pk
    for kw in ({}, HTMX):
        r = client_of(c.game_master).post(_act(c, cid, key), {"damage": "1", "kind": "long"},
                                          **kw)
        assert r.status_code == 404


@pytest.mark.parametrize("key,data", [
    ("heal", {}), ("heal", {"damage": "abc"}), ("heal", {"damage": "-3"}),
    ("heal", {"damage": "9" * 30}), ("heal", {"damage": "1e3", "wounds": "x"}),
    ("heal", {"damage": "١٢"}),  # Arabic-Indic digits
    ("stress", {}), ("stress", {"sv": "abc"}), ("stress", {"sv": "1d0"}),
    ("stress", {"sv": "999999999d999999999"}), ("stress", {"sv": "-4"}),
    ("stress", {"sv": "9" * 40}), ("stress", {"sv": "1d10+" * 200}),
    ("recover", {}), ("recover", {"stress": "x"}), ("recover", {"stress": "9" * 30}),
    ("moxie", {}),
])
@pytest.mark.parametrize("who", ["ines", "bare"])
def test_eclipse_actions_with_bad_input_or_no_sheet_are_not_500(screens, key, data, who):
    s = screens
    client = client_of(s["ecl"].game_master)
    for kw in ({}, HTMX):
        r = client.post(_act(s["ecl"], s[who].pk, key), data, **kw)
        assert r.status_code in (200, 302, 404), (key, data, r.status_code)


def test_heal_of_a_character_without_a_sleeve_is_refused_in_words(screens):
    from eclipse.models import Sleeve

    s = screens
    Sleeve.objects.filter(owner__character=s["ines"]).delete()
    client = client_of(s["ecl"].game_master)
    for key in ("heal", "stress", "recover", "moxie"):
        r = client.post(_act(s["ecl"], s["ines"].pk, key), {"damage": "1", "sv": "1"}, **HTMX)
        assert r.status_code in (200, 404), key
    assert client.get(f"/campaigns/{s['ecl'].pk}/gm/").status_code == 200


@pytest.mark.parametrize("data", [{}, {"kind": ""}, {"kind": "eternal"}, {"kind": "long" * 50},
                                  {"kind": ["short", "long"]}])
def test_homebrew_rest_with_bad_input_is_not_500(screens, data):
    s = screens
    client = client_of(s["hb"].game_master)
    for kw in ({}, HTMX):
        r = client.post(_act(s["hb"], s["ari"].pk, "rest"), data, **kw)
        assert r.status_code in (200, 302), (data, r.status_code)


def test_homebrew_rest_of_a_player_character_without_a_sheet_is_not_500(screens):
    from homebrew.models import HomebrewSheet

    s = screens
    HomebrewSheet.objects.filter(character=s["ari"]).delete()
    client = client_of(s["hb"].game_master)
    assert client.get(f"/campaigns/{s['hb'].pk}/gm/").status_code == 200
    for kw in ({}, HTMX):
        r = client.post(_act(s["hb"], s["ari"].pk, "rest"), {"kind": "long"}, **kw)
        assert r.status_code in (200, 302, 404), r.status_code


@pytest.mark.parametrize("key,field", [("item", "item"), ("spell", "spell")])
@pytest.mark.parametrize("value", ["", "abc", "-1", "0", "9" * 30, "OTHER", "MISSING"])
def test_ew1_grants_with_bad_or_foreign_ids_are_not_500(screens, key, field, value):
    from magic.models import KnownSpell, Spell

    s = screens
    if value == "OTHER":  # another campaign's catalogue row
        if key == "item":
            value = str(factories.ItemTemplateFactory(name="Theirs", campaign=s["hb"]).pk)
        else:
            value = str(Spell.objects.create(name="Theirs", effect="damage", dice="1d4",
                                             campaign=s["hb"]).pk)
    elif value == "MISSING":
        value = "987654"
    client = client_of(s["war"].game_master)
    for kw in ({}, HTMX):
        r = client.post(_act(s["war"], s["hero"].pk, key), {field: value}, **kw)
        assert r.status_code in (200, 302), (value, r.status_code)
    assert not s["hero"].items.filter(template__name="Theirs").exists()
    assert not KnownSpell.objects.filter(character=s["hero"], spell__name="Theirs").exists()


def test_ew1_grants_to_a_character_without_a_sheet_are_not_500(screens):
    from ew1.models import EternalWarSheet as Ew1Sheet

    s = screens
    Ew1Sheet.objects.filter(character=s["hero"]).delete()
    client = client_of(s["war"].game_master)
    assert client.get(f"/campaigns/{s['war'].pk}/gm/").status_code == 200
    sword = factories.ItemTemplateFactory(name="Sword")
    for key, data in (("item", {"item": str(sword.pk)}), ("spell", {"spell": "1"})):
        r = client.post(_act(s["war"], s["hero"].pk, key), data, **HTMX)
        assert r.status_code in (200, 404), (key, r.status_code)


def test_a_get_on_an_action_is_405_not_a_change(screens):
    s = screens
    r = client_of(s["ecl"].game_master).get(_act(s["ecl"], s["ines"].pk, "moxie"))
    assert r.status_code == 405


# --- 4. live topics ---------------------------------------------------------------------

def test_who_may_read_the_sheet_and_user_topics(screens):
    s = screens
    stranger = factories.UserFactory(username="nobody")
    assert live.can_read(s["bob"], f"character-{s['ines'].pk}")
    assert not live.can_read(stranger, f"character-{s['ines'].pk}")
    assert live.can_read(s["ecl"].game_master, f"character-{s['ines'].pk}")
    other_gm = factories.HomebrewCampaignFactory(
        name="Theirs", game_master=factories.UserFactory(username="gm2")).game_master
    assert not live.can_read(other_gm, f"character-{s['ines'].pk}")
    assert not live.can_read(stranger, f"user-{s['bob'].pk}")
    assert live.can_read(s["bob"], f"user-{s['bob'].pk}")
    for name in (f"character-{HUGE}", f"encounter-{HUGE}", f"faction-{HUGE}",
                 f"factions-{HUGE}", "character-0", "character-x", "nope-1"):
        assert not live.can_read(s["bob"], name), name


def test_who_may_read_the_encounter_topic(table):
    e = table.start()
    stranger = factories.UserFactory(username="nobody")
    assert not live.can_read(stranger, f"encounter-{e.pk}")
    assert live.can_read(table.alice, f"encounter-{e.pk}")
    assert live.can_read(table.gm, f"encounter-{e.pk}")


def test_the_stream_is_404_for_a_topic_the_user_may_not_read(screens):
    s = screens
    stranger = client_of(factories.UserFactory(username="nobody"))
    url = "/live/"
    assert stranger.get(url, {"t": f"character-{s['ines'].pk}"}).status_code == 404
    assert stranger.get(url, {"t": f"character-{HUGE}"}).status_code == 404
    assert stranger.get(url, {"t": "x" * 5000}).status_code in (400, 404)

