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


def _backdrop(width_m=30.0, height_m=20.0):
    return ground.Backdrop(url="/media/backgrounds/b.jpg", width_m=width_m, height_m=height_m)


def test_the_frame_holds_the_background_and_stays_as_a_token_moves_over_it():
    box = _backdrop().box  # (0, 0) to (30, 20) m
    f = ground.frame([(5, 5)], boxes=[box])
    assert f.left <= 0 and f.left + f.width_m >= 30
    assert f.top >= 20 and f.top - f.height_m <= 0
    for moved in ((25, 15), (0, 0), (30, 20), (12.5, 3)):  # anywhere over the picture
        assert ground.frame([moved, (10, 10)], boxes=[box]) == f
        assert ground.frame([moved], boxes=[box]) == f
    assert ground.frame([], boxes=[box]) == f  # nobody placed: the picture alone
    assert ground.frame([(40, 10)], boxes=[box]) != f  # off the picture: widened for it


class _Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def as_floats(self):
        return (self.x, self.y)


class _Combatant:
    def __init__(self, pk, name, x, y, hidden=False):
        self.pk, self.name, self.hidden, self.defeated, self.removed = pk, name, hidden, False, False
        self.point, self.character, self.character_id = _Point(x, y), None, None


def test_a_token_over_the_background_keeps_its_place_as_others_move_and_for_every_viewer():
    bg = _backdrop()
    ava, orc = _Combatant(1, "Ava", 10, 10), _Combatant(2, "Orc", 3, 4, hidden=True)

    def where(g, pk):
        """The token's place on the picture, in the picture's own units (0 to 1)."""
        t = next(t for t in g.tokens if t.pk == pk)
        b = g.background
        return round((t.u - b.u) / b.width, 3), round((t.v - b.v) / b.height, 3)

    gm = ground.build([ava, orc], current_id=1, mine=set(), backdrop=bg,
                      reach=[(20.0, "run")])  # a run past the edge: cut, not a wider frame
    player = ground.build([ava], current_id=1, mine=set(), backdrop=bg, reach=[(20.0, "run")])
    assert gm.frame == player.frame and where(gm, 1) == where(player, 1) == (0.333, 0.5)
    orc.point = _Point(28, 1)  # the hidden orc moves over the picture
    moved = ground.build([ava, orc], current_id=1, mine=set(), backdrop=bg)
    assert moved.frame == gm.frame and where(moved, 1) == where(gm, 1)
    b = moved.background
    assert (b.u, b.v) == moved.frame.to_svg(0, 20)
    assert b.width == round(30 * moved.frame.scale, 2) and b.height == round(20 * moved.frame.scale, 2)
    assert ground.build([], current_id=None, mine=set()) is None
    assert ground.build([], current_id=None, mine=set(), backdrop=bg).tokens == []
