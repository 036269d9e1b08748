"""The Eclipse Phase encounter steps of the REST API (eclipse.play_api): each answers with the
encounter, the refusals with their code and status, the defence through the shared answer."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from eclipse.models import CarriedWeapon
from encounters.models import PendingReaction
from tests.eclipse_play.conftest import running
from tests.eclipse_play.test_play import entries
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_an_attack_through_the_api_prompts_and_the_shared_answer_resolves(ep, monkeypatch):
    import random

    e, c = running(ep)
    base = f"/api/eclipse/encounters/{e.pk}"
    out_of_turn = client(ep.bob).post(f"{base}/full-defence/", {"combatant": c[ep.bo.pk].pk},
                                      format="json")
    assert out_of_turn.status_code == 409 and out_of_turn.json()["code"] == "not_your_turn"
    refused = client(ep.alice).post(f"{base}/attack/", {
        "combatant": c[ep.ava.pk].pk, "target": c[ep.guard.pk].pk,
        "weapon": ep.w.ava_pistol.pk, "mode": "SS", "subdue": True}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "ep_manoeuvre_refused"
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12
    shot = client(ep.alice).post(f"{base}/attack/", {
        "combatant": c[ep.ava.pk].pk, "target": c[ep.guard.pk].pk,
        "weapon": ep.w.ava_pistol.pk, "mode": "SA", "others": [c[ep.bo.pk].pk],
        "situations": ["smartlink"], "turn": e.turn_serial}, format="json")
    assert shot.status_code == 200, shot.json()
    prompt = PendingReaction.objects.get(encounter=e, status="pending", lead__isnull=True)
    assert "dodge+moxie" in prompt.options
    bo_prompt = PendingReaction.objects.get(encounter=e, status="pending", lead=prompt)
    waiting = client(ep.bob).post(f"/api/reactions/{bo_prompt.pk}/answer/",
                                  {"choice": "dodge"}, format="json")
    assert waiting.status_code == 200, waiting.json()
    assert not entries(e)  # the volley waits for the Guard
    monkeypatch.setattr(random, "SystemRandom", lambda: FakeRandom(90, 90))
    answered = client(ep.gm).post(f"/api/reactions/{prompt.pk}/answer/",
                                  {"choice": "dodge+moxie"}, format="json")
    assert answered.status_code == 200, answered.json()
    [entry] = entries(e)
    assert entry.summary["result"]["others"][0]["target"] == "Bo"


def test_the_other_steps_answer_with_the_encounter(ep):
    e, c = running(ep)
    base = f"/api/eclipse/encounters/{e.pk}"
    me = c[ep.ava.pk].pk
    alice = client(ep.alice)
    moved = alice.post(f"{base}/move/", {"combatant": me, "pace": "run"}, format="json")
    assert moved.status_code == 200 and moved.json()["id"] == e.pk
    assert alice.post(f"{base}/aim/", {"combatant": me, "kind": "quick"},
                      format="json").status_code == 200
    bad = alice.post(f"{base}/actions/", {"combatant": me, "name": "x", "kind": "free"},
                     format="json")
    assert bad.status_code == 400
    spent = alice.post(f"{base}/reload/", {"combatant": me, "weapon": ep.w.ava_pistol.pk},
                       format="json")
    assert spent.status_code == 400 and spent.json()["code"] == "ep_actions_spent"
    held = alice.post(f"{base}/escape/", {"combatant": me, "how": "somx3"}, format="json")
    assert held.status_code == 400 and held.json()["code"] == "ep_not_held"
    gm_only = alice.post(f"{base}/mishap/", {"action": 1, "state": "destroyed"}, format="json")
    assert gm_only.status_code == 400 and gm_only.json()["code"] == "ep_play_refused"
