"""The homebrew's click-to-move on the encounter map (homebrew.play.map_move, encounter_other
with a destination): the form on the player's map in turn, its cost in words (free; the GM may
count a long move as the action), the move journaled with its distance, a bad destination
refused in words (no 500, nothing moved), a hidden combatant's place never in the log a player
reads, in French too."""

from __future__ import annotations

from decimal import Decimal

import pytest

from campaigns.models import ActionRecord
from encounters import services as enc
from encounters.models import Combatant
from homebrew import play
from tests.homebrew.test_play import running

HTMX = {"HTTP_HX_REQUEST": "true"}


def _placed(hb):
    e, c = running(hb)  # Aria's turn
    for who, (x, y) in ((hb.aria, (0, 0)), (hb.goblin, (6, 8))):
        enc.combatant_place(user=hb.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    e.refresh_from_db()
    return e, c


def test_the_players_map_offers_the_move_with_its_cost(hb, client):
    e, _c = _placed(hb)
    client.force_login(hb.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    form = html.split('data-testid="map-move"')[1].split("</form>")[0]
    assert f'/homebrew/encounters/{e.pk}/other/' in html.split('id="map-move"')[1][:200]
    assert '<input type="hidden" name="move" value="1">' in form
    assert 'name="pace"' not in form  # no distance the seed sets: the GM judges
    assert "A move is free; the game master may count a long one as your action." in form
    french = client.get(f"/encounters/{e.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Un déplacement est gratuit" in french
    client.force_login(hb.bob)  # not Bran's turn: no move form
    assert 'data-testid="map-move"' not in client.get(f"/encounters/{e.pk}/").content.decode()


def test_a_click_moves_there_free_and_the_log_gives_the_distance(hb, client):
    e, c = _placed(hb)
    client.force_login(hb.alice)
    response = client.post(f"/homebrew/encounters/{e.pk}/other/", {
        "combatant": c[hb.aria.pk].pk, "turn": e.turn_serial, "page": "play", "move": "1",
        "x": "3", "y": "4"}, **HTMX)
    assert response.status_code == 200
    row = Combatant.objects.get(pk=c[hb.aria.pk].pk)
    assert (row.x, row.y) == (Decimal("3.00"), Decimal("4.00"))
    entry = ActionRecord.objects.filter(kind=play.KIND_MOVE).latest("pk")
    assert entry.summary["distance_m"] == 5.0 and entry.summary["to"] == [3.0, 4.0]
    assert entry.summary["costs_action"] is False
    e.refresh_from_db()
    assert e.turn_actions == 0  # free: the attack is still to come
    log = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "moves (5.0 m, x 3.0, y 4.0)" in log


@pytest.mark.parametrize("x, y", [("abc", "1"), ("1", ""), ("1e9", "0"), ("nan", "0")])
def test_a_bad_destination_is_refused_in_words_nothing_moved(hb, client, x, y):
    e, c = _placed(hb)
    client.force_login(hb.alice)
    response = client.post(f"/homebrew/encounters/{e.pk}/other/", {
        "combatant": c[hb.aria.pk].pk, "turn": e.turn_serial, "page": "play", "move": "1",
        "x": x, "y": y}, **HTMX)
    assert response.status_code in (200, 400)
    assert "position" in response.content.decode().lower()
    row = Combatant.objects.get(pk=c[hb.aria.pk].pk)
    assert (row.x, row.y) == (Decimal("0.00"), Decimal("0.00"))
    assert not ActionRecord.objects.filter(kind=play.KIND_MOVE).exists()


def test_a_player_cannot_move_another_ones_combatant(hb, client):
    e, c = _placed(hb)
    client.force_login(hb.bob)
    client.post(f"/homebrew/encounters/{e.pk}/other/", {
        "combatant": c[hb.aria.pk].pk, "turn": e.turn_serial, "page": "play", "move": "1",
        "x": "1", "y": "1"}, **HTMX)
    row = Combatant.objects.get(pk=c[hb.aria.pk].pk)
    assert (row.x, row.y) == (Decimal("0.00"), Decimal("0.00"))


def test_a_hidden_combatants_move_is_not_read_by_the_players(hb, client):
    e, c = _placed(hb)
    goblin = c[hb.goblin.pk]
    Combatant.objects.filter(pk=goblin.pk).update(hidden=True)
    for user in (hb.alice, hb.bob):  # to the goblin's turn
        e.refresh_from_db()
        enc.encounter_next_turn(user=user, encounter_id=e.pk, turn=e.turn_serial)
    e.refresh_from_db()
    play.encounter_other(user=hb.gm, encounter_id=e.pk, combatant_id=goblin.pk, name="",
                         move=play.Move(to=("7.5", "9.25")), turn=e.turn_serial)
    client.force_login(hb.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "9.25" not in html and "7.5" not in html
    client.force_login(hb.gm)
    gm_html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert "x 7.5, y 9.25" in gm_html
