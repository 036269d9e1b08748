"""The numbers the map's area preview reads from the turn partial (static/js/encounter-map.js):
each explosive's area from the rules (explosives.area_of), the suppressive zone's width and
depth; the centre and aim offered only among the combatants the viewer may see; in French."""

from __future__ import annotations

import re

from django.urls import reverse

from encounters import services as enc
from tests.eclipse_play.conftest import running


def _placed(ep):
    e, c = running(ep)
    [sniper] = enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(name="Sniper", hidden=True)])
    for pk, (x, y) in ((c[ep.ava.pk].pk, (0, 0)), (c[ep.bo.pk].pk, (3, -2)),
                       (c[ep.guard.pk].pk, (8, 3)), (sniper.pk, (10, 4))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=pk, x=x, y=y)
    return e, c, sniper


def test_the_explosive_carries_its_area_and_the_hidden_one_is_no_centre(client, ep):
    e, _c, sniper = _placed(ep)
    client.force_login(ep.alice)
    html = client.get(reverse("encounters:play", args=[e.pk])).content.decode()
    form = html.split('data-testid="explode-form"')[1].split("</form>")[0]
    assert 'data-map-area="explode"' in html.split('data-testid="explode-form"')[1][:80]
    option = re.search(rf'<option value="{ep.w.ava_grenade.pk}"[^>]*>', form).group(0)
    # 3d10, top 30, -2 DV a metre: reached under 15 m (an open edge)
    assert 'data-area="blast"' in option and 'data-radius="15"' in option
    assert 'data-closed=""' in option
    assert 'data-map-area-list' in form and "data-map-area-centre" in form
    assert "Sniper" not in html and f'value="{sniper.pk}"' not in form
    assert "Nobody you see is inside." in html


def test_the_suppressive_zone_carries_its_width_and_depth_for_the_gm(client, ep):
    e, _c, _sniper = _placed(ep)
    for user in (ep.alice, ep.bob):  # to the Guard's turn
        e.refresh_from_db()
        enc.encounter_next_turn(user=user, encounter_id=e.pk, turn=e.turn_serial)
    client.force_login(ep.gm)
    html = client.get(reverse("encounters:control", args=[e.pk])).content.decode()
    head = html.split('data-testid="suppressive-form"')[1][:600]
    assert 'data-map-area="zone"' in head and 'data-width="20"' in head
    form = html.split('data-testid="suppressive-form"')[1].split("</form>")[0]
    assert re.search(rf'<option value="{ep.w.guard_rifle.pk}" data-depth="500">', form)
    assert "data-map-area-list" in form
    assert "Sniper" in html  # the GM sees the hidden one on the map


def test_the_preview_words_in_french(client, ep):
    e, _c, _sniper = _placed(ep)
    client.force_login(ep.alice)
    html = client.get(reverse("encounters:play", args=[e.pk]),
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Personne de ce que vous voyez n’est dedans." in html
    assert "Dedans, parmi ce que vous voyez : {names}" in html
    assert "Un cône touche 1 cible à bout portant" in html
