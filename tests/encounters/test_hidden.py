"""Nothing hidden reaches a player (issue 17, item 3): a hidden combatant in a rolled order,
read as a player through the API, the page and its fragment; the GM sees all; after the
reveal the player sees it (encounters.visibility)."""

from __future__ import annotations

import random

import pytest

from campaigns.models import ActionRecord
from encounters import services
from tests.encounters.conftest import NOW
from tests.encounters.test_api import client_for


def _hide_orc_and_start(table):
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c["Orc"].pk, hidden=True)
    services.encounter_start(user=table.gm, encounter_id=table.encounter.pk, mode="rolled",
                             now=NOW, rng=random.Random(3))
    return table.reload()


def _orc_turn(table):
    """Move on until the hidden orc has the turn."""
    for _ in range(4):
        if table.reload().current_id == table.c["Orc"].pk:
            return table.reload()
        table.next()
    raise AssertionError("the orc never acted")


@pytest.mark.django_db
def test_the_api_leaves_the_hidden_combatant_out_of_order_log_rolls_and_turn(table):
    _hide_orc_and_start(table)
    e = _orc_turn(table)
    orc = table.c["Orc"]
    body = client_for(table.alice).get(f"/api/encounters/{e.pk}/").json()
    assert [c["rank"] for c in body["combatants"]] == [0, 1]  # renumbered
    assert orc.pk not in [c["id"] for c in body["combatants"]]
    assert body["current"] is None  # the orc acts: the player is not told who
    initiative = [a for a in body["log"] if a["kind"] == "encounter_initiative"]
    assert len(initiative) == 1
    assert orc.pk not in initiative[0]["summary"]["order"]
    assert len(initiative[0]["summary"]["scores"]) == 2  # the page's "Hero 7, Brenna 3"
    assert len(initiative[0]["rolls"]) == 2  # two visible combatants, two rolls
    assert all((r.get("actor") or {}).get("id") != table.orc.pk for r in initiative[0]["rolls"])
    text = str(body)
    assert "Orc" not in text
    gm = client_for(table.gm).get(f"/api/encounters/{e.pk}/").json()
    assert gm["current"] == orc.pk and len(gm["combatants"]) == 3
    gm_initiative = next(a for a in gm["log"] if a["kind"] == "encounter_initiative")
    assert len(gm_initiative["rolls"]) == 3
    assert "Orc" in [line["name"] for line in gm_initiative["summary"]["scores"]]


@pytest.mark.django_db
def test_the_page_and_fragment_number_from_one_and_say_someone_acts(client, table):
    _hide_orc_and_start(table)
    e = _orc_turn(table)
    client.force_login(table.alice)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        html = client.get(f"/encounters/{e.pk}/", **headers).content.decode()
        assert "Orc" not in html
        assert 'data-testid="someone-acts"' in html
        assert "<td>1</td>" in html and "<td>3</td>" not in html
    client.force_login(table.gm)
    html = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert "Orc" in html and "someone-acts" not in html


@pytest.mark.django_db
def test_an_entry_whose_actor_is_hidden_is_left_out_until_the_reveal(table):
    e = _hide_orc_and_start(table)
    orc = table.c["Orc"]
    ActionRecord.objects.create(campaign=table.campaign, kind="enc_test_strike",
                                actor=table.orc, target=table.hero, created_at=NOW,
                                summary={"encounter": e.pk, "prompt": {"actor": "Orc",
                                                                        "target": "Hero"}})
    ActionRecord.objects.create(campaign=table.campaign, kind="enc_test_blast",
                                actor=table.hero, created_at=NOW,
                                summary={"encounter": e.pk, "targets": [
                                    {"target": "Orc", "damage": 3},
                                    {"target": "Brenna", "damage": 2}]})
    alice = client_for(table.alice)
    log = alice.get(f"/api/encounters/{e.pk}/").json()["log"]
    assert "enc_test_strike" not in [a["kind"] for a in log]
    blast = next(a for a in log if a["kind"] == "enc_test_blast")
    assert blast["summary"]["targets"] == [{"target": "Brenna", "damage": 2}]
    services.combatant_update(user=table.gm, encounter_id=e.pk, combatant_id=orc.pk,
                              hidden=False)
    body = alice.get(f"/api/encounters/{e.pk}/").json()
    kinds = [a["kind"] for a in body["log"]]
    assert "enc_test_strike" in kinds
    assert orc.pk in [c["id"] for c in body["combatants"]]
    assert len(next(a for a in body["log"] if a["kind"] == "enc_test_blast")
               ["summary"]["targets"]) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [0, 27])
def test_the_filter_costs_no_query(client, extra, django_assert_num_queries):
    """With 1 or 28 hidden combatants, the player's page costs the same 7 queries as without
    (session, user, encounter, combatants, effects, log, its rolls; no reaction pending: no
    query for them)."""
    from encounters.models import Combatant
    from tests.encounters.conftest import Table

    t = Table(extra=extra)
    Combatant.objects.filter(encounter=t.encounter).exclude(
        pk__in=[t.c["Hero"].pk, t.c["Brenna"].pk]).update(hidden=True)
    services.encounter_start(user=t.gm, encounter_id=t.encounter.pk, mode="rolled", now=NOW,
                             rng=random.Random(5))
    client.force_login(t.alice)
    client.get(f"/encounters/{t.encounter.pk}/")
    with django_assert_num_queries(7):
        html = client.get(f"/encounters/{t.encounter.pk}/").content.decode()
    assert "Orc" not in html and "Goblin" not in html
