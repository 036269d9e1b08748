"""Positions on the shared encounter (issue 12, item 9): the GM places, moves and clears
combatants (pages and API), each change a step (version bumped and pushed); bounds and bad
input refused, nothing changed; the page shows a column and a small map at a pinned cost."""

from __future__ import annotations

from decimal import Decimal

import pytest

from campaigns import live
from encounters import push, services
from encounters.models import Combatant
from gamerules.encounter import space
from gamerules.encounter.space import Point, PositionError
from tests.encounters.conftest import Table
from tests.encounters.test_api import client_for
from tests.encounters.test_pages import HTMX, login

pytestmark = pytest.mark.django_db


def place(t, name, x, y, user=None):
    return services.combatant_place(user=user or t.gm, encounter_id=t.encounter.pk,
                                    combatant_id=t.c[name].pk, x=x, y=y)


def test_the_gm_places_a_combatant_to_the_centimetre_and_the_version_moves(table):
    before = table.reload().version
    me = place(table, "Orc", "12,345", "-3")
    row = Combatant.objects.get(pk=me.pk)
    assert (row.x, row.y) == (Decimal("12.34"), Decimal("-3.00"))  # half to even
    assert row.point == Point(Decimal("12.34"), Decimal("-3"))
    assert table.reload().version == before + 1
    place(table, "Orc", "12.34", "-3")  # the same place: nothing to change
    assert table.reload().version == before + 1


def test_a_position_at_the_bound_is_kept_and_a_centimetre_beyond_refused(table):
    place(table, "Orc", "10000", "-10000")
    version = table.reload().version
    for x, y, code in (("10000.01", "0", "position_out_of_bounds"),
                       ("0", "-10000.01", "position_out_of_bounds"),
                       ("abc", "1", "position_not_number"), ("nan", "1", "position_not_number"),
                       ("inf", "1", "position_not_number"), ("3", "", "position_needs_both")):
        with pytest.raises(PositionError) as exc:
            place(table, "Orc", x, y)
        assert exc.value.code == code
    row = Combatant.objects.get(pk=table.c["Orc"].pk)
    assert (row.x, row.y) == (Decimal("10000"), Decimal("-10000"))
    assert table.reload().version == version


def test_only_the_gm_places_and_clears(table):
    from encounters.errors import EncounterForbidden

    with pytest.raises(EncounterForbidden):
        place(table, "Hero", 1, 1, user=table.alice)
    with pytest.raises(EncounterForbidden):
        services.positions_clear(user=table.alice, encounter_id=table.encounter.pk)


def test_clearing_one_and_every_position(table):
    place(table, "Orc", 1, 2)
    place(table, "Hero", 3, 4)
    place(table, "Orc", "", "")
    assert Combatant.objects.get(pk=table.c["Orc"].pk).point is None
    version = table.reload().version
    assert services.positions_clear(user=table.gm, encounter_id=table.encounter.pk) == 1
    assert table.reload().version == version + 1
    assert services.positions_clear(user=table.gm, encounter_id=table.encounter.pk) == 0
    assert table.reload().version == version + 1  # nothing cleared: not a step
    assert not Combatant.objects.filter(x__isnull=False).exists()


def test_a_position_change_is_pushed(table, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(live, "send_event", lambda *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        place(table, "Orc", 5, 5)
    version = table.reload().version
    topic = push.channel(table.encounter.pk)
    assert sent == [(topic, "change", {"topic": topic, "version": version})]


def test_the_distance_is_exact_at_limits():
    a, b = Point(Decimal(0), Decimal(0)), Point(Decimal(3), Decimal(4))
    assert space.distance(a, b) == 5 and space.within(a, b, 5)
    assert not space.within(a, Point(Decimal("3.01"), Decimal(4)), 5)
    assert space.point(None, "") is None


def test_the_api_places_shows_and_clears(table):
    gm = client_for(table.gm)
    eid, orc = table.encounter.pk, table.c["Orc"].pk
    r = gm.post(f"/api/encounters/{eid}/combatants/{orc}/position/", {"x": "2.5", "y": -1},
                format="json")
    assert r.status_code == 200
    row = next(c for c in r.json()["combatants"] if c["id"] == orc)
    assert (row["x"], row["y"]) == (2.5, -1.0)
    r = gm.post(f"/api/encounters/{eid}/combatants/{orc}/position/", {"x": 20000, "y": 0},
                format="json")
    assert r.status_code == 400 and r.json()["code"] == "position_out_of_bounds"
    r = gm.post(f"/api/encounters/{eid}/combatants/{orc}/position/", {"x": 1}, format="json")
    assert r.status_code == 400
    r = client_for(table.alice).post(f"/api/encounters/{eid}/combatants/{orc}/position/",
                                     {"x": 1, "y": 1}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_game_master"
    r = gm.post(f"/api/encounters/{eid}/positions/clear/", {}, format="json")
    row = next(c for c in r.json()["combatants"] if c["id"] == orc)
    assert r.status_code == 200 and row["x"] is None and row["y"] is None


def test_the_control_page_places_and_shows_the_map(client, table):
    e = table.start()
    login(client, table.gm)
    html = client.post(f"/encounters/{e.pk}/positions/{table.c['Orc'].pk}/",
                       {"x": "4", "y": "3", "page": "control"}, **HTMX).content.decode()
    assert 'data-testid="map"' in html and html.count('data-testid="map-token"') == 1
    assert 'value="4.00"' in html
    html = client.post(f"/encounters/{e.pk}/positions/{table.c['Orc'].pk}/",
                       {"x": "x", "y": "3", "page": "control"}, **HTMX).content.decode()
    assert 'data-testid="error"' in html
    client.logout()
    login(client, table.bob)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "(4.00, 3.00)" in html and 'data-testid="place"' not in html


@pytest.mark.parametrize("extra", [0, 12])
def test_the_pages_with_positions_keep_their_query_counts(client, db, extra,
                                                          django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    for i, c in enumerate(Combatant.objects.filter(encounter=e)):
        services.combatant_place(user=t.gm, encounter_id=e.pk, combatant_id=c.pk, x=i * 3, y=i)
    login(client, t.gm)
    client.get(f"/encounters/{e.pk}/control/")
    # session, user, encounter, combatants, effects, log, the characters to add (no reaction
    # pending: no query for them; the log is empty: no rolls to prefetch); as without positions
    with django_assert_num_queries(7):
        html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert html.count('data-testid="map-token"') == 3 + extra
    client.logout()
    login(client, t.bob)
    client.get(f"/encounters/{e.pk}/")
    with django_assert_num_queries(6):  # no characters to add
        assert client.get(f"/encounters/{e.pk}/").status_code == 200


def test_placing_costs_a_fixed_number_of_queries(table, django_assert_num_queries):
    # savepoint, the lock with the combatants (one statement: issue 20), update, encounter,
    # release
    with django_assert_num_queries(5):
        place(table, "Orc", 1, 1)
