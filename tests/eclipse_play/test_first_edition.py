"""Issue 18 on the encounter: an untrained psi assault is refused with a coded error by the
service, the page and the API, and the attack form does not offer it; resleeving into a morph
with a COO bonus raises the attack's target, its exact odds and what the journal records; a
pain filter counts on the attack's wound malus.

Ava (conftest): COO 15, kinetic weapons 60 (45 ranks), psi assault 50 (35 ranks), a pistol
and a psi lash, in a splicer without bonuses."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from eclipse import services
from eclipse.attack import encounter_attack
from eclipse.models import CarriedWeapon, EclipseSheet, MorphTemplate, Sleeve
from encounters import services as enc
from encounters.models import PendingReaction
from gamerules.eclipse_phase.errors import SkillUntrained
from tests.eclipse_play.conftest import running
from tests.eclipse_play.test_pages import HTMX, _attack, _logged
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


def _untrained_in_psi(ep):
    sheet = EclipseSheet.objects.get(pk=ep.ava.pk)
    sheet.skills = {k: v for k, v in sheet.skills.items() if k != "psi_assault"}
    sheet.save(update_fields=["skills"])


def _lash(e, c, ep):
    return _attack(e, c, ep, weapon=ep.w.ava_lash.pk, mode="", range_band="")


def test_an_untrained_psi_assault_is_refused_by_the_service(ep):
    _untrained_in_psi(ep)
    e, c = running(ep)
    with pytest.raises(SkillUntrained) as info:
        encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                         target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_lash.pk,
                         rng=FakeRandom(10), now=ep.now)
    assert info.value.code == "ep_skill_untrained"
    assert info.value.params == {"skill": "psi_assault"}
    assert not ActionRecord.objects.exists() and not PendingReaction.objects.exists()


def test_an_untrained_psi_assault_is_refused_on_the_page_and_left_out_of_the_form(client, ep):
    e, c = running(ep)
    url = reverse("encounters:play", args=[e.pk])
    html = _logged(client, ep.alice).get(url).content.decode()
    assert "Psi lash" in html  # trained: offered
    _untrained_in_psi(ep)
    html = client.get(url).content.decode()
    assert 'data-testid="attack-form"' in html and "Psi lash" not in html
    response = client.post(reverse("eclipse_play:attack", args=[e.pk]), _lash(e, c, ep), **HTMX)
    html = response.content.decode()
    assert 'data-testid="error"' in html and "cannot be used untrained" in html
    odds = client.post(reverse("eclipse_play:odds", args=[e.pk]), _lash(e, c, ep),
                       **HTMX).content.decode()
    assert 'data-testid="odds-error"' in odds and 'data-testid="odds-line"' not in odds
    assert not ActionRecord.objects.exists() and not PendingReaction.objects.exists()


def test_an_untrained_psi_assault_is_refused_by_the_api_with_its_code(ep):
    _untrained_in_psi(ep)
    e, c = running(ep)
    api = APIClient()
    api.force_authenticate(ep.alice)
    refused = api.post(f"/api/eclipse/encounters/{e.pk}/attack/", {
        "combatant": c[ep.ava.pk].pk, "target": c[ep.guard.pk].pk,
        "weapon": ep.w.ava_lash.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "ep_skill_untrained"
    assert refused.json()["params"] == {"skill": "psi_assault"}
    assert not ActionRecord.objects.exists()


def test_a_table_may_let_every_skill_default(ep):
    _untrained_in_psi(ep)
    ep.campaign.rule_parameters = {"default_any_skill": True}
    ep.campaign.save()
    e, c = running(ep)
    # WIL 15 untrained: 10 succeeds; WIL x2 = 30 resists with 20 (higher): defended.
    encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                     target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_lash.pk,
                     rng=FakeRandom(10, 20), now=ep.now)
    [entry] = ActionRecord.objects.filter(kind="eclipse_attack")
    assert entry.summary["result"]["shots"][0]["attack"]["target"] == 15


def test_resleeving_into_a_coo_morph_raises_the_attack_its_odds_and_the_journal(client, ep):
    sniper = MorphTemplate.objects.create(campaign=ep.campaign, name="Sniper", durability=30,
                                          aptitude_bonus={"COO": 10}, aptitude_max=40)
    e, c = running(ep)
    odds_url = reverse("eclipse_play:odds", args=[e.pk])
    before = _logged(client, ep.alice).post(odds_url, _attack(e, c, ep), **HTMX).content.decode()
    assert "attack 50" in before  # kinetic 60, medium range -10
    services.resleeve(user=ep.gm, character=ep.ava, morph_id=sniper.pk)  # the GM, mid-fight
    after = client.post(odds_url, _attack(e, c, ep), **HTMX).content.decode()
    assert "attack 60" in after
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="SS", range_band="medium", rng=FakeRandom(), now=ep.now)
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="none",
                        rng=FakeRandom(55, 5, 5, 90), now=ep.now)
    [entry] = ActionRecord.objects.filter(kind="eclipse_attack")
    shot = entry.summary["result"]["shots"][0]
    assert shot["attack"]["target"] == 60 and shot["hit"]  # 55 hits only thanks to the morph


def test_a_pain_filter_ignores_one_wound_on_the_attack(client, ep):
    Sleeve.objects.filter(owner_id=ep.ava.pk).update(wounds=2)
    e, c = running(ep)
    odds_url = reverse("eclipse_play:odds", args=[e.pk])
    html = _logged(client, ep.alice).post(odds_url, _attack(e, c, ep), **HTMX).content.decode()
    assert "attack 30" in html  # 60 - 10 (medium) - 20 (two wounds)
    Sleeve.objects.filter(owner_id=ep.ava.pk).update(implants=["pain_filter"])
    enc.characters_changed([ep.ava.pk])  # as the admin's sleeve page does after its write
    html = client.post(odds_url, _attack(e, c, ep), **HTMX).content.decode()
    assert "attack 40" in html  # one wound's malus ignored
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12
