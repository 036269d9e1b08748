"""The homebrew on the encounter map (issue 21, item 2): a token's HP bar where the roster
shows the exact state (the GM: every combatant; a player: their own and their allies', an
enemy's as the campaign's ``enemy_state`` says: described by default, no bar)."""

from __future__ import annotations

import re

import pytest

from encounters import services as enc
from tests.homebrew.test_pages import _logged

pytestmark = pytest.mark.django_db


def _bars(html):
    return dict(re.findall(r'data-name="([^"]+)"[^>]*>\s*<title>[^<]*?HP (-?\d+/\d+)', html))


def test_the_hp_bar_shows_where_the_roster_shows_the_gauges(client, hb):
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ford")
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (hb.aria, hb.bran, hb.goblin)])
    for i, c in enumerate(made):
        enc.combatant_place(user=hb.gm, encounter_id=e.pk, combatant_id=c.pk, x=i * 2, y=0)
    sheet = hb.aria.homebrew
    sheet.hp = sheet.hp_max - 3
    sheet.save()
    html = _logged(client, hb.gm).get(f"/encounters/{e.pk}/control/").content.decode()
    assert set(_bars(html)) == {"Aria", "Bran", "Goblin"}
    assert _bars(html)["Aria"] == f"{sheet.hp}/{sheet.hp_max}"
    assert html.count('data-testid="map-gauge"') == 3
    client.logout()
    html = _logged(client, hb.alice).get(f"/encounters/{e.pk}/").content.decode()
    bran = hb.bran.homebrew
    assert _bars(html) == {"Aria": f"{sheet.hp}/{sheet.hp_max}",
                           "Bran": f"{bran.hp}/{bran.hp_max}"}
    assert html.count('data-testid="map-gauge"') == 2
