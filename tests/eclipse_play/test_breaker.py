"""Defects found by breaking the Eclipse Phase play on the shared encounter (issue 12)."""

from __future__ import annotations

import pytest
from django.test import Client

from eclipse.attack import encounter_attack
from eclipse.models import CarriedWeapon
from eclipse.play_errors import NotATarget
from encounters import services as enc
from encounters.models import PendingReaction
from tests.eclipse_play.conftest import running

pytestmark = pytest.mark.django_db


def _hide(ep, e, combatant):
    enc.combatant_update(user=ep.gm, encounter_id=e.pk, combatant_id=combatant.pk, hidden=True)


def test_a_player_cannot_attack_a_hidden_combatant_by_its_id(ep):
    """A hidden combatant does not exist for the players (encounters.services): an attack at
    its id is refused as a wrong target, nothing spent, no prompt."""
    e, c = running(ep)
    _hide(ep, e, c[ep.guard.pk])
    with pytest.raises(NotATarget):
        encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                         target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                         mode="SS")
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12
    assert not PendingReaction.objects.filter(encounter=e).exists()
    with pytest.raises(NotATarget):  # nor as the volley's other target
        encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                         target_id=c[ep.bo.pk].pk, other_target_ids=[c[ep.guard.pk].pk],
                         weapon_id=ep.w.ava_pistol.pk, mode="SA")


def test_the_odds_do_not_show_a_hidden_combatant_to_a_player(ep):
    e, c = running(ep)
    _hide(ep, e, c[ep.guard.pk])
    web = Client()
    web.force_login(ep.alice)
    page = web.post(f"/eclipse/encounters/{e.pk}/odds/", {
        "combatant": c[ep.ava.pk].pk, "target": c[ep.guard.pk].pk,
        "weapon": ep.w.ava_pistol.pk, "mode": "SS"})
    assert page.status_code in (200, 400, 404)
    assert "Guard" not in page.content.decode()
    assert 'data-testid="odds-line"' not in page.content.decode()


def test_an_unconscious_target_is_not_offered_a_defence(ep):
    """Defending is an automatic action, and an unconscious (or stunned) combatant cannot act
    (health.can_act): the attack at it is resolved at once with no defence, no Moxie of its
    spent, rather than a prompt offering it a dodge."""
    from eclipse.models import Sleeve
    from tests.eclipse_play.test_play import entries
    from tests.gamerules.fakes import FakeRandom

    e, c = running(ep)
    Sleeve.objects.filter(pk=ep.sheets[ep.bo.pk].sleeve_id).update(damage=30)  # DUR 30
    encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                     target_id=c[ep.bo.pk].pk, weapon_id=ep.w.ava_pistol.pk, mode="SS",
                     rng=FakeRandom(10, 5, 5))
    assert not PendingReaction.objects.filter(encounter=e, status="pending").exists()
    [entry] = [x for x in entries(e) if x.kind == "eclipse_attack"]
    result = entry.summary["result"]
    assert result["defence"] == "none" and result["shots"][0]["defence"] is None
    assert result["shots"][0]["hit"] is True
