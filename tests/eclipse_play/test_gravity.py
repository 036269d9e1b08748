"""The encounter's gravity (issue 12, item 7): set by the GM, its high-gravity malus on every
attack (journaled with the attack's modifiers), jumps x2 under 0.6 g shown; page and API."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from eclipse import environment
from eclipse.actions import encounter_move
from eclipse.attack import encounter_attack
from eclipse.errors import EclipseServiceError, GameMasterOnly
from eclipse.models import EncounterSetting
from encounters import services as enc
from tests.eclipse_play.conftest import running
from tests.eclipse_play.test_pages import HTMX, _logged
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("g", "wounds", "malus", "jump"), [
    ("1", 0, 0, 1), ("1.2", 0, 0, 1), ("1.39", 0, 0, 1), ("1.4", 1, -10, 1), ("2", 4, -40, 1),
    ("0.6", 0, 0, 1), ("0.59", 0, 0, 2), ("0", 0, 0, 2)])
def test_the_gm_sets_the_gravity_and_it_is_journaled(ep, g, wounds, malus, jump):
    e, _c = running(ep)
    environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g=g, now=ep.now)
    e.refresh_from_db()
    effect = environment.gravity(e)
    assert effect.g == Decimal(g) and (effect.wounds, effect.malus, effect.jump) == \
        (wounds, malus, jump)
    entry = ActionRecord.objects.get(kind="eclipse_gravity")
    assert entry.summary["before"] == "1.00" and entry.summary["gravity_wounds"] == wounds
    assert entry.summary["jump_multiplier"] == jump


def test_high_gravity_is_a_malus_on_the_attack_and_in_its_log(ep):
    """The worked shot of test_play (attack 45 against 60) at 1.6 g: 60 - 20 = 40, it misses."""
    e, c = running(ep)
    environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g="1,6")
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="SS", range_band="short", rng=FakeRandom(), now=ep.now)
    assert [m["value"] for m in step.payload["extra"] if m["source"] == "gravity"] == [-20]
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(45, 30), now=ep.now)
    entry = ActionRecord.objects.get(kind="eclipse_attack")
    [shot] = entry.summary["result"]["shots"]
    assert shot["attack"]["target"] == 40 and shot["attack"]["grade"].endswith("failure")
    assert any(m["source"] == "gravity" for m in shot["attack"]["modifiers"])


def test_a_move_logs_the_gravity_and_the_jump_multiplier(ep):
    e, c = running(ep)
    environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g="0.3")
    encounter_move(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                   pace="walk")
    entry = ActionRecord.objects.get(kind="eclipse_move")
    assert entry.summary["gravity"] == "0.30" and entry.summary["jump_multiplier"] == 2


@pytest.mark.parametrize("g", ["-0.1", "20.01", "abc", "", "nan", True])
def test_a_bad_gravity_changes_nothing(ep, g):
    e, _c = running(ep)
    with pytest.raises(EclipseServiceError) as exc:
        environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g=g)
    assert exc.value.code == "invalid_input"
    assert not EncounterSetting.objects.exists()


def test_only_the_gm_and_not_once_ended(ep):
    e, _c = running(ep)
    with pytest.raises(GameMasterOnly):
        environment.encounter_gravity_set(user=ep.alice, encounter_id=e.pk, gravity_g="2")
    enc.encounter_end(user=ep.gm, encounter_id=e.pk)
    with pytest.raises(EclipseServiceError):
        environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g="2")
    assert not ActionRecord.objects.filter(kind="eclipse_gravity").exists()


def test_the_page_form_shows_it_and_the_api_sets_it(client, ep):
    e, _c = running(ep)
    control = reverse("encounters:control", args=[e.pk])
    html = _logged(client, ep.gm).get(control).content.decode()
    assert 'data-testid="gravity-form"' in html and "Gravity: 1.00 g" in html
    client.post(reverse("eclipse_play:gravity", args=[e.pk]),
                {"page": "control", "gravity": "1.4"}, **HTMX)
    html = _logged(client, ep.alice, "fr").get(
        reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="gravity-form"' not in html
    assert 'data-testid="turn-gravity"' in html and ("1,40 g" in html or "1.40 g" in html)
    api = APIClient()
    api.force_authenticate(ep.gm)
    response = api.post(f"/api/eclipse/encounters/{e.pk}/gravity/", {"gravity": "0.5"},
                        format="json")
    assert response.status_code == 200
    assert EncounterSetting.objects.get(encounter=e).gravity == Decimal("0.5")
    api.force_authenticate(ep.alice)
    response = api.post(f"/api/eclipse/encounters/{e.pk}/gravity/", {"gravity": "3"},
                        format="json")
    assert response.status_code == 403


def test_high_gravity_is_a_malus_on_the_defence_too(ep):
    """At 1.6 g the defender's dodge carries the same -20 as the attack (every test in that
    gravity), in the answer's journal; a psi defence (WIL) would not."""
    e, c = running(ep)
    environment.encounter_gravity_set(user=ep.gm, encounter_id=e.pk, gravity_g="1.6")
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="SS", range_band="short", rng=FakeRandom(), now=ep.now)
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(10, 30, 5, 5, 50), now=ep.now)
    [shot] = ActionRecord.objects.get(kind="eclipse_attack").summary["result"]["shots"]
    assert [m["value"] for m in shot["defence"]["modifiers"] if m["source"] == "gravity"] == [-20]
