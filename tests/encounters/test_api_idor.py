"""Other people's objects on the encounter and homebrew API: a player of another campaign on
every encounter step (404 no_such_encounter), a player on GM-only steps (403/404, keyed),
Alice on Bob's reaction and combatant and on Bob's homebrew sheet: refused, nothing changed."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from encounters import services
from encounters.models import Combatant, Encounter, EncounterEffect, PendingReaction
from homebrew.models import HomebrewSheet
from tests import factories
from tests.encounters.conftest import Table, register_test_system, unregister_test_system
from tests.homebrew.conftest import build_world

STEPS = ["combatants/", "order/", "start/", "next/", "delay/", "end/", "effects/",
         "combatants/{c}/", "combatants/{c}/remove/", "combatants/{c}/readd/"]


def state():
    return (list(Encounter.objects.order_by("pk").values()),
            list(Combatant.objects.order_by("pk").values()),
            list(EncounterEffect.objects.order_by("pk").values()),
            list(PendingReaction.objects.order_by("pk").values()),
            list(HomebrewSheet.objects.order_by("pk").values()), ActionRecord.objects.count())


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def table(db):
    register_test_system()
    t = Table()
    t.start()
    t.reaction = services.encounter_act(
        user=t.alice, encounter_id=t.encounter.pk, combatant_id=t.c["Hero"].pk,
        act=lambda ctx: ctx.request_reaction(target=t.c["Brenna"], action_payload={"damage": 3},
                                             options=["parry"], resolver="enc_test.strike"))
    yield t
    unregister_test_system()


BODIES = {"combatants/": {"combatants": [{"name": "Rat"}]}, "order/": {"combatants": []},
          "start/": {}, "next/": {"turn": 0}, "delay/": {"turn": 0, "combatant": 999999, "after": 2},
          "end/": {}, "effects/": {"name": "x", "anchor": 1, "edge": "end", "rounds": 1}}


@pytest.mark.parametrize("step", STEPS)
def test_a_stranger_gets_404_on_every_step(table, step):
    """A delay naming a combatant of no encounter answered the stranger 400 no_such_combatant
    (ids were probed before the permission)."""
    stranger = api(factories.user("carol"))
    e, c = table.encounter.pk, table.c["Orc"].pk
    before = state()
    path = step.format(c=c)
    body = BODIES.get(step, {})
    if step in {"next/", "delay/"}:
        body = {**body, "turn": table.reload().turn_serial}
    response = stranger.post(f"/api/encounters/{e}/{path}", body, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "no_such_encounter")
    assert stranger.get(f"/api/encounters/{e}/").status_code == 404
    r = stranger.post(f"/api/reactions/{table.reaction.pk}/answer/", {"choice": "none"},
                      format="json")
    assert (r.status_code, r.json()["code"]) == (404, "no_such_reaction")
    assert state() == before


@pytest.mark.parametrize("step", ["combatants/", "order/", "end/", "effects/",
                                  "combatants/{c}/", "combatants/{c}/remove/"])
def test_a_player_is_refused_the_gm_steps(table, step):
    before = state()
    response = api(table.bob).post(
        f"/api/encounters/{table.encounter.pk}/{step.format(c=table.c['Orc'].pk)}",
        BODIES.get(step, {}), format="json")
    assert response.status_code in (403, 404)
    assert response.json()["code"] in ("not_game_master", "no_such_encounter")
    assert state() == before


def test_alice_cannot_answer_or_delay_with_bobs_combatant(table):
    before = state()
    alice = api(table.alice)
    r = alice.post(f"/api/reactions/{table.reaction.pk}/answer/", {"choice": "parry"},
                   format="json")
    assert (r.status_code, r.json()["code"]) == (403, "not_yours_to_answer")
    e = table.reload()
    r = alice.post(f"/api/encounters/{e.pk}/delay/", {
        "turn": e.turn_serial, "combatant": table.c["Brenna"].pk, "after": table.c["Orc"].pk},
        format="json")
    assert r.status_code in (403, 409) and r.json()["code"]
    assert state() == before


def test_alice_cannot_touch_bobs_homebrew_sheet(alice, bob):
    hb = build_world(alice, bob)
    before = state()
    client = api(alice)
    base = f"/api/homebrew/characters/{hb.bran.pk}/"
    for response in (client.get(base),
                     client.post(base + "posture/", {"posture": "defensive"}, format="json"),
                     client.post(base + "test/", {"code": "force"}, format="json"),
                     client.get(base + f"odds/?weapon={hb.sword.pk}&target={hb.goblin.pk}")):
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    r = client.post(f"/api/homebrew/campaigns/{hb.campaign.pk}/rest/", {"kind": "long"},
                    format="json")
    assert (r.status_code, r.json()["code"]) == (403, "gm_only")
    r = client.get(f"/api/homebrew/characters/{hb.aria.pk}/odds/"
                   f"?weapon={hb.claws.pk}&target={hb.goblin.pk}")  # the goblin's weapon
    assert r.status_code == 404
    assert state() == before


def test_a_stranger_acting_with_a_combatant_of_no_encounter_is_404(table):
    """encounter_act looked the combatant up first: a stranger got no_such_combatant (400)."""
    from encounters.errors import EncounterNotFound

    before = state()
    with pytest.raises(EncounterNotFound):
        services.encounter_act(user=factories.user("carol"), encounter_id=table.encounter.pk,
                               combatant_id=999999, act=lambda ctx: None)
    assert state() == before
