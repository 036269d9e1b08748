"""Surprise and ambush before the start (issue 12, item 7): the GM rolls the ambusher's
infiltration against each surprised combatant's perception -20; a failed perception stays
surprised (the free attack), both succeeding is -30 on the start's initiative, margin 30+ or a
failed infiltration clears the surprise.

Ava perception 50 (30 after -20), Bo perception 60 (40), the Guard infiltration 60."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import ActionRecord, RollRecord
from eclipse.ambush import encounter_ambush, initiative_malus
from eclipse.errors import EclipseServiceError, GameMasterOnly
from eclipse.models import EclipseSheet
from encounters import services as enc
from encounters.models import Combatant
from tests.eclipse_play.test_pages import HTMX, _logged
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


def setup(ep, surprised=("Ava", "Bo")):
    for c, skill, value in ((ep.ava, "perception", 50), (ep.bo, "perception", 60),
                            (ep.guard, "infiltration", 60)):
        s = EclipseSheet.objects.get(pk=c.pk)
        s.skills = {**s.skills, skill: value - 15}  # ranks over INT/COO 15: the rating
        s.save(update_fields=["skills"])
    e = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Ambush")
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk, surprised=c.name in surprised)
        for c in (ep.ava, ep.bo, ep.guard)])
    return e, {c.character_id: c for c in e.combatants.all()}


def test_the_three_outcomes_and_the_initiative_malus(ep):
    e, c = setup(ep)
    # Ava: perception 35 fails against 30, infiltration 20 succeeds: free attack.
    # Bo: perception 15 succeeds against 40 (margin 15), infiltration 20: -30 initiative.
    encounter_ambush(user=ep.gm, encounter_id=e.pk, ambusher_id=c[ep.guard.pk].pk,
                     rng=FakeRandom(35, 20, 15, 20))
    ava, bo = (Combatant.objects.get(pk=c[x.pk].pk) for x in (ep.ava, ep.bo))
    assert ava.surprised and not bo.surprised
    entry = ActionRecord.objects.get(kind="eclipse_ambush")
    assert [(t["name"], t["outcome"], t["initiative"]) for t in entry.summary["targets"]] == [
        ("Ava", "free_attack", 0), ("Bo", "initiative", -30)]
    assert [t["perception"]["target"] for t in entry.summary["targets"]] == [30, 40]
    assert RollRecord.objects.filter(action=entry).count() == 4
    # The start's roll: 1d10 + ceil((INT 15 + REF 20) / 5) = 7, Bo -30; Ava last (surprised).
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="rolled", rng=FakeRandom(5, 5, 5))
    scores = {x.character_id: (x.initiative, x.rank) for x in e.combatants.all()}
    assert scores[ep.ava.pk][0] == 12 and scores[ep.bo.pk][0] == -18
    assert scores[ep.guard.pk][0] == 12
    assert scores[ep.ava.pk][1] == 2  # the surprised act after everyone in round 1
    roll = RollRecord.objects.filter(action__kind="encounter_initiative", actor=ep.bo).get()
    assert any(m["source"] == "surprise" and m["value"] == -30 for m in roll.modifiers)
    e.refresh_from_db()
    assert initiative_malus(Combatant.objects.select_related("encounter").get(
        pk=c[ep.bo.pk].pk)) is None  # running: the later rolls have no malus


@pytest.mark.parametrize(("faces", "why"), [
    ((34, 20), "margin 34"), ((15, 70), "infiltration fails"), ((29, 20), "margin 29")])
def test_no_surprise_at_margin_30_or_a_failed_infiltration(ep, faces, why):
    e, c = setup(ep, surprised=("Bo",))
    encounter_ambush(user=ep.gm, encounter_id=e.pk, ambusher_id=c[ep.guard.pk].pk,
                     rng=FakeRandom(*faces))
    [line] = ActionRecord.objects.get(kind="eclipse_ambush").summary["targets"]
    expected = "initiative" if why == "margin 29" else "none"
    assert line["outcome"] == expected, why
    assert not Combatant.objects.get(pk=c[ep.bo.pk].pk).surprised


def test_refusals_change_nothing(ep):
    e, c = setup(ep)
    with pytest.raises(GameMasterOnly):
        encounter_ambush(user=ep.alice, encounter_id=e.pk, ambusher_id=c[ep.guard.pk].pk,
                         rng=FakeRandom())
    with pytest.raises(EclipseServiceError) as exc:
        encounter_ambush(user=ep.gm, encounter_id=e.pk, ambusher_id=c[ep.ava.pk].pk,
                         rng=FakeRandom())
    assert exc.value.code == "ambush_bad_ambusher"
    e2, c2 = setup(ep, surprised=())
    with pytest.raises(EclipseServiceError) as exc:
        encounter_ambush(user=ep.gm, encounter_id=e2.pk, ambusher_id=c2[ep.guard.pk].pk,
                         rng=FakeRandom())
    assert exc.value.code == "ambush_no_target"
    enc.encounter_start(user=ep.gm, encounter_id=e.pk, mode="gm")
    with pytest.raises(EclipseServiceError) as exc:
        encounter_ambush(user=ep.gm, encounter_id=e.pk, ambusher_id=c[ep.guard.pk].pk,
                         rng=FakeRandom())
    assert exc.value.code == "ambush_not_setup"
    assert not ActionRecord.objects.filter(kind="eclipse_ambush").exists()
    assert Combatant.objects.filter(surprised=True).count() == 2


def test_the_control_page_form_and_the_api(client, ep):
    e, c = setup(ep)
    url = reverse("encounters:control", args=[e.pk])
    html = _logged(client, ep.gm).get(url).content.decode()
    assert 'data-testid="ambush-form"' in html
    response = client.post(reverse("eclipse_play:ambush", args=[e.pk]),
                           {"page": "control", "ambusher": c[ep.guard.pk].pk}, **HTMX)
    assert response.status_code == 200
    assert ActionRecord.objects.filter(kind="eclipse_ambush").count() == 1
    html = _logged(client, ep.gm, "fr").get(url).content.decode()
    assert 'data-testid="ambush-outcome"' in html and "Embuscade de Guard" in html
    api = APIClient()
    api.force_authenticate(ep.alice)
    response = api.post(f"/api/eclipse/encounters/{e.pk}/ambush/",
                        {"ambusher": c[ep.guard.pk].pk}, format="json")
    assert response.status_code == 403
