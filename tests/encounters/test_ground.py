"""The encounter's map (issue 21, items 1 and 2): the frame's metres to SVG units on the
module's worked example, initials, and what each viewer's page draws: every placed combatant
for the GM (a hidden one dashed), none hidden for a player (not in the SVG, not in the
fragment), the current one ringed, no style attribute (the CSP)."""

from __future__ import annotations

import re

import pytest

from encounters import ground, services
from tests.encounters.test_pages import HTMX, login

pytestmark = pytest.mark.django_db


def place(t, name, x, y):
    services.combatant_place(user=t.gm, encounter_id=t.encounter.pk, combatant_id=t.c[name].pk,
                             x=x, y=y)


def test_the_worked_example_puts_metres_at_exact_svg_points():
    f = ground.frame([(0, 0), (10, 0)])
    assert (f.left, f.top, f.width_m, f.height_m, f.scale, f.cell_m) == (-1, 6, 12, 12, 40, 1)
    assert (f.width, f.height) == (480, 480)
    assert f.to_svg(0, 0) == (40, 240) and f.to_svg(10, 0) == (440, 240)
    assert f.to_svg(-1, 6) == (0, 0) and f.to_svg(11, -6) == (480, 480)
    us, vs = f.lines()
    assert us[0] == 0 and us[-1] == 480 and len(us) == 13 and us[1] - us[0] == 40
    assert len(vs) == 13


def test_a_wide_spread_takes_larger_cells_and_keeps_the_width():
    f = ground.frame([(0, 0), (100, 5)])
    assert f.width == 480 and f.cell_m == 10  # 116 m across: 12 cells of 10 m
    assert f.height < f.width
    tall = ground.frame([(0, 0), (0, 100)])
    assert tall.height == round(tall.width * ground.MAX_RATIO)  # widened: never too tall


def test_the_move_circle_is_kept_inside_the_frame():
    f = ground.frame([(0, 0)], [(0, 0, 20)])
    u, v = f.to_svg(0, 0)
    assert u - 20 * f.scale >= 0 and u + 20 * f.scale <= f.width
    assert v - 20 * f.scale >= 0


def test_initials():
    names = ("Ava Kim", "Orc 2", "Bo", "goblin 12", "", "Ann de la Tour")
    assert [ground.initials(n) for n in names] == \
        ["AK", "O2", "Bo", "G12", "?", "AT"]


def _tokens(html):
    return re.findall(r'data-testid="map-token" data-name="([^"]+)"', html)


def test_the_gm_sees_every_token_hidden_dashed_a_player_none_hidden(client, table):
    e = table.start()
    place(table, "Hero", 0, 0)
    place(table, "Brenna", 10, 0)
    place(table, "Orc", 5, 5)
    services.combatant_update(user=table.gm, encounter_id=e.pk,
                              combatant_id=table.c["Orc"].pk, hidden=True)
    from encounters.models import Combatant
    assert Combatant.objects.get(pk=table.c["Orc"].pk).hidden
    login(client, table.gm)
    html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert sorted(_tokens(html)) == ["Brenna", "Hero", "Orc"]
    orc = re.search(r'<g id="map-token-\d+" class="([^"]+)"\s+data-testid="map-token" '
                    r'data-name="Orc"', html)
    assert orc and "token-hidden" in orc.group(1) and "token-enemy" in orc.group(1)
    assert 'data-place="' in html  # the GM drags on the control page
    client.logout()
    login(client, table.bob)
    for url in (f"/encounters/{e.pk}/", f"/encounters/{e.pk}/?v=0"):
        html = client.get(url, **({} if url.endswith("/") else HTMX)).content.decode()
        svg = html[html.index('data-testid="map"'):html.index("</svg>")]
        assert sorted(_tokens(svg)) == ["Brenna", "Hero"]
        assert "Orc" not in html  # nowhere on the page: not the map, nor its legend
        assert "data-place=" not in html and "token-hidden" not in html


def test_the_svg_points_and_the_current_ring_on_the_page(client, table):
    e = table.start()
    place(table, "Hero", 0, 0)
    place(table, "Brenna", 10, 0)
    login(client, table.alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    current = e.current.name
    assert re.search(r'viewBox="0 0 480 480"', html)
    hero = re.search(r'data-name="Hero"[^>]*data-u="([\d.]+)" data-v="([\d.]+)"', html)
    brenna = re.search(r'data-name="Brenna"[^>]*data-u="([\d.]+)" data-v="([\d.]+)"', html)
    assert (float(hero[1]), float(hero[2])) == (40, 240)
    assert (float(brenna[1]), float(brenna[2])) == (440, 240)
    assert 'transform="translate(40.0 240.0)"' in html or 'transform="translate(40 240)"' in html
    ringed = re.search(r'class="token [^"]*token-current[^"]*"\s+data-testid="map-token" '
                       r'data-name="([^"]+)"', html)
    assert ringed and ringed[1] == current
    assert html.count('data-testid="map-legend-item"') == 2
    assert 'class="token-ring"' in html and html.count('class="token-ring"') == 1


def test_the_map_has_no_style_attribute_and_reads_in_french(client, table):
    e = table.start()
    place(table, "Hero", "0.5", "1.25")
    login(client, table.gm)
    client.cookies["django_language"] = "fr"
    html = client.get(f"/encounters/{e.pk}/control/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    part = html[html.index('id="enc-ground"'):html.index('id="enc-effects"')]
    assert " style=" not in part
    assert 'data-x="0.50" data-y="1.25"' in part  # not localised: the script reads them
    assert "Ordre" in html  # the page is in French
    assert not re.search(r'(?:data-[uv]|transform)="[^"]*\d,\d', part)
