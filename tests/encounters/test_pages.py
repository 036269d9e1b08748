"""The GM's control page and the player's page: rendering, the htmx poll (204 when nothing
changed), the forms (htmx and not), refusals shown in the reader's language, query counts."""

from __future__ import annotations

import pytest

from encounters import services
from encounters.models import Encounter
from tests.encounters.conftest import Table
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_gm_control_page_lists_the_order_and_the_controls(client, table):
    table.start()
    html = login(client, table.gm).get(f"/encounters/{table.encounter.pk}/control/").content.decode()
    assert 'data-testid="controls"' in html and "Next turn" in html
    assert html.index('data-name="Hero"') < html.index('data-name="Brenna"') < \
        html.index('data-name="Orc"')
    assert "Hero's turn" in html


def test_player_page_shows_my_turn_and_no_gm_controls(client, table):
    table.start()
    html = login(client, table.alice).get(f"/encounters/{table.encounter.pk}/").content.decode()
    assert 'data-testid="your-turn"' in html and 'data-testid="end-turn"' in html
    assert 'data-testid="controls"' not in html
    assert login(client, table.alice).get(
        f"/encounters/{table.encounter.pk}/control/").status_code == 404


def test_hidden_combatants_are_for_the_gm_only(client, table):
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, hidden=True)
    html = login(client, table.alice).get(f"/encounters/{table.encounter.pk}/").content.decode()
    assert 'data-name="Orc"' not in html
    client.logout()
    html = login(client, table.gm).get(f"/encounters/{table.encounter.pk}/control/").content.decode()
    assert 'data-name="Orc"' in html


def test_a_stranger_gets_404(client, table):
    from tests import factories
    login(client, factories.user("eve"))
    for url in ("", "control/", "version/"):
        assert client.get(f"/encounters/{table.encounter.pk}/{url}").status_code == 404
    assert client.post(f"/encounters/{table.encounter.pk}/next/", {"turn": 0}).status_code == 404


def test_poll_answers_204_until_the_version_moves(client, table, django_assert_num_queries):
    e = table.start()
    v = e.version
    login(client, table.alice)
    url = f"/encounters/{e.pk}/?v={v}"
    client.get(url, **HTMX)  # session warm
    with django_assert_num_queries(3):  # session, user, the version
        assert client.get(url, **HTMX).status_code == 204
    table.next()
    response = client.get(url, **HTMX)
    assert response.status_code == 200 and f"?v={v + 1}" in response.content.decode()
    assert client.get(f"/encounters/{e.pk}/version/").json() == {"version": v + 1}


def test_next_turn_by_htmx_answers_what_changed_out_of_band(client, table):
    e = table.start()
    login(client, table.gm)
    response = client.post(f"/encounters/{e.pk}/next/", {"turn": e.turn_serial,
                                                          "page": "control"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert '<div id="encounter"' not in html  # the fragment stays; its parts are swapped
    assert '<div id="enc-status" hx-swap-oob="true">' in html and "Brenna's turn" in html
    # The order: only the rows of the turn's old and new holder, in a template.
    assert 'id="enc-order"' not in html and html.count('data-testid="combatant"') == 2
    assert f'<tr id="enc-row-{table.c["Hero"].pk}" hx-swap-oob="true"' in html
    assert f'<tr id="enc-row-{table.c["Brenna"].pk}" hx-swap-oob="true"' in html
    assert 'id="enc-controls" hx-swap-oob="true"' in html
    assert 'id="enc-journal"' not in html  # nothing journaled: the log is not sent
    stale = client.post(f"/encounters/{e.pk}/next/", {"turn": e.turn_serial,
                                                       "page": "control"}, **HTMX)
    html = stale.content.decode()
    assert "HX-Reswap" not in stale and '<div id="encounter"' in html  # the whole fragment
    assert 'data-testid="error"' in html and "someone else pressed first" in html


def test_forms_work_without_htmx(client, table):
    e = table.start()
    login(client, table.gm)
    response = client.post(f"/encounters/{e.pk}/next/", {"turn": e.turn_serial,
                                                          "page": "control"})
    assert response.status_code == 302 and response.url == f"/encounters/{e.pk}/control/"
    assert table.current_name() == "Brenna"


def test_refusal_in_french(client, table):
    e = table.start()
    login(client, table.gm)
    html = client.post(f"/encounters/{e.pk}/next/", {"turn": 0, "page": "control"},
                       HTTP_ACCEPT_LANGUAGE="fr", **HTMX).content.decode()
    assert "Le tour est déjà passé" in html
    assert "Tour de Hero" in html and "Tour suivant" in html


def test_gm_sets_the_order_by_number_adds_and_starts(client, table):
    login(client, table.gm)
    pk = table.encounter.pk
    c = table.c
    client.post(f"/encounters/{pk}/order/", {f"pos-{c['Hero'].pk}": 3, f"pos-{c['Brenna'].pk}": 2,
                                              f"pos-{c['Orc'].pk}": 1, "page": "control"})
    client.post(f"/encounters/{pk}/add/", {"name": "Goblin", "count": 2, "page": "control"})
    client.post(f"/encounters/{pk}/start/", {"mode": "gm", "page": "control"})
    e = Encounter.objects.get(pk=pk)
    names = list(e.combatants.order_by("rank").values_list("name", flat=True))
    assert names == ["Orc", "Brenna", "Hero", "Goblin 1", "Goblin 2"]


def test_the_target_answers_its_prompt_on_its_page(client, table):
    e = table.start()
    reaction = services.encounter_act(
        user=table.alice, encounter_id=e.pk, combatant_id=table.c["Hero"].pk,
        act=lambda ctx: ctx.request_reaction(target=table.c["Brenna"], action_payload={"damage": 3},
                                             options=["parry"], resolver="enc_test.strike"))
    login(client, table.bob)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert 'data-testid="answer-parry"' in html and "Parry" in html
    client.post(f"/encounters/{e.pk}/reactions/{reaction.pk}/answer/", {"choice": "none"}, **HTMX)
    reaction.refresh_from_db()
    assert reaction.status == "answered"
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "enc_test_strike" in html and 'data-testid="reaction"' not in html


@pytest.mark.parametrize("extra", [0, 27])
def test_page_queries_do_not_grow_with_combatants(client, db, extra, django_assert_num_queries):
    t = Table(extra=extra)
    e = t.start()
    services.effect_add(user=t.gm, encounter_id=e.pk, name="Stunned", anchor_id=t.c["Orc"].pk,
                        edge="end", rounds=2, bearer_id=t.c["Hero"].pk)
    for _ in range(2):  # two journaled reactions (with a roll each) in the log, one pending
        r = services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                                   act=strike_brenna, costs_action=False)
        services.answer_reaction(user=t.bob, reaction_id=r.pk, choice="parry")
    services.encounter_act(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                           act=strike_brenna, costs_action=False)
    login(client, t.gm)
    client.get(f"/encounters/{e.pk}/control/")
    # session, user, encounter, combatants, effects, reactions, log, its rolls, the
    # characters to add
    with django_assert_num_queries(9):
        assert client.get(f"/encounters/{e.pk}/control/").status_code == 200
    client.logout()
    login(client, t.bob)
    client.get(f"/encounters/{e.pk}/")
    with django_assert_num_queries(8):  # no characters to add
        html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert html.count('data-testid="reaction"') == 1 and html.count('class="log-enc_test_strike"') == 2


def strike_brenna(ctx):
    target = next(c for c in ctx.combatants.values() if c.name == "Brenna")
    return ctx.request_reaction(target=target, action_payload={"damage": 3}, options=["parry"],
                                resolver="enc_test.strike")


def test_campaign_encounter_list_and_creation(client, table):
    login(client, table.gm)
    response = client.post(f"/encounters/campaign/{table.campaign.pk}/", {"name": "Bridge"})
    new = Encounter.objects.get(name="Bridge")
    assert response.url == f"/encounters/{new.pk}/control/"
    assert "Bridge" in client.get(f"/encounters/campaign/{table.campaign.pk}/").content.decode()
    client.logout()
    login(client, table.alice)
    html = client.get(f"/encounters/campaign/{table.campaign.pk}/").content.decode()
    assert "Ambush" in html and "Bridge" not in html
