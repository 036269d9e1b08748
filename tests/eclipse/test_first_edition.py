"""Issue 18 through the services, the sheet page and the API: resleeving into a morph with a
bonus raises every linked skill and the lucidity by that bonus, each morph caps its aptitudes,
the sheet and the API say what comes from the ego and what from the morph, an added pain
filter shows.

Ash (conftest): COO 20, REF 20, SOM 15, WIL 10; kinetic weapons 50 (30 ranks), fray 40 (20),
blades 30 (15); in a splicer (SOM+5, no maximum given: the flat 40)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from eclipse import services
from eclipse.models import EclipseSheet, MorphTemplate, Sleeve
from eclipse.selectors import figures_of, loaded_view
from eclipse.selectors import character_with_sheet
from gamerules.eclipse_phase.sheet import Aptitude

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def figures(ep, character):
    c = character_with_sheet(user=ep.gm, character_id=character.pk)
    return figures_of(loaded_view(c), c.campaign.parameters)


@pytest.fixture
def monk(ep):
    """A morph with COO+10 and WIL+10 under a maximum of 40."""
    return MorphTemplate.objects.create(campaign=ep.campaign, name="Monk", durability=30,
                                        aptitude_bonus={"COO": 10, "WIL": 10}, aptitude_max=40)


def test_resleeving_raises_the_linked_skills_and_lucidity_on_the_sheet_and_the_api(ep, alice,
                                                                                  monk):
    before = figures(ep, ep.ash)
    skills = {k.name: k for k in before.skills}
    assert (skills["kinetic_weapons"].rating, skills["beam_weapons"].rating) == (50, 20)
    assert (before.lucidity, before.trauma_threshold) == (20, 4)
    services.resleeve(user=alice, character=ep.ash, morph_id=monk.pk)
    after = figures(ep, ep.ash)
    skills = {k.name: k for k in after.skills}
    k = skills["kinetic_weapons"]
    assert (k.rating, k.from_ego, k.from_morph, k.ranks) == (60, 50, 10, 30)  # trained
    assert skills["beam_weapons"].rating == 30  # untrained: the aptitude, +10 too
    assert skills["fray"].rating == 40  # REF: no bonus, nothing moves
    assert (after.lucidity, after.trauma_threshold, after.insanity_rating) == (40, 8, 80)
    body = api(alice).get(f"/api/eclipse/characters/{ep.ash.pk}/").json()["sheet"]
    assert body["skills"]["kinetic_weapons"] == 30  # what the ego learnt: unchanged
    assert body["skill_ratings"]["kinetic_weapons"] == {
        "rating": 60, "aptitude": "COO", "ranks": 30, "from_ego": 50, "from_morph": 10,
        "trained": True, "usable": True}
    assert body["lucidity"] == 40 and body["aptitude_max"] == 40
    assert body["aptitude_parts"]["COO"] == {"ego": 20, "morph": 10, "bonus": 10, "total": 30}
    page = _page(ep, alice)
    assert 'data-testid="rating-kinetic_weapons">60<' in page
    assert 'data-testid="morph-kinetic_weapons">+10<' in page


def _page(ep, user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.get(f"/eclipse/characters/{ep.ash.pk}/").content.decode()


def test_each_morph_caps_its_aptitudes_at_creation_and_on_resleeving(ep, alice):
    splicer = MorphTemplate.objects.create(campaign=ep.campaign, name="Book splicer",
                                           durability=30, aptitude_bonus={"COO": 5},
                                           aptitude_max=25)
    edge = {"COG": 5, "COO": 30, "INT": 5, "REF": 30, "SAV": 5, "SOM": 25, "WIL": 5}
    nova = services.eclipse_character_create(user=alice, campaign=ep.campaign, name="Nova",
                                             aptitudes=edge, skills={"kinetic_weapons": 10},
                                             morph_id=splicer.pk)
    f = figures(ep, nova)
    apt = {a.code: a for a in f.aptitudes}
    assert (apt["COO"].total, apt["REF"].total, f.aptitude_max) == (25, 25, 25)
    assert {k.name: k.rating for k in f.skills}["kinetic_weapons"] == 35  # 25 + 10 ranks
    assert EclipseSheet.objects.get(pk=nova.pk).coordination == 30  # the ego keeps its 30
    services.resleeve(user=alice, character=nova, morph_id=ep.synth.pk)  # no maximum: 40
    apt = {a.code: a.total for a in figures(ep, nova).aptitudes}
    assert (apt["COO"], apt["REF"]) == (30, 30)
    flat = ep.campaign
    flat.rule_parameters = {**(flat.rule_parameters or {}), "aptitude_max_per_morph": False}
    flat.save()
    services.resleeve(user=alice, character=nova, morph_id=splicer.pk)
    assert {a.code: a.total for a in figures(ep, nova).aptitudes}["COO"] == 35  # flat 40


def test_an_implant_added_to_a_body_is_a_pain_filter_that_stays_with_it(ep, alice):
    Sleeve.objects.filter(owner_id=ep.ash.pk).update(implants=["pain_filter"], wounds=1)
    f = figures(ep, ep.ash)
    assert f.pain_filter and f.loaded.character.morph.felt_wounds(1) == 0
    assert 'data-testid="pain-filter"' in _page(ep, alice)
    assert api(alice).get(f"/api/eclipse/characters/{ep.ash.pk}/").json()["sheet"][
        "pain_filter"] is True
    services.resleeve(user=alice, character=ep.ash, morph_id=ep.synth.pk)
    assert not figures(ep, ep.ash).pain_filter  # the implant stayed in the old body


def test_the_sheet_marks_a_skill_that_cannot_be_used_untrained(ep, alice):
    f = figures(ep, ep.ash)
    psi = {k.name: k for k in f.skills}["psi_assault"]
    assert not psi.usable and not psi.trained
    assert 'data-testid="rating-psi_assault">—<' in _page(ep, alice)
    body = api(alice).get(f"/api/eclipse/characters/{ep.ash.pk}/").json()["sheet"]
    assert body["skill_ratings"]["psi_assault"]["usable"] is False
    assert f.loaded.character.aptitude(Aptitude.WIL, ep.campaign.parameters) == 10


def test_creation_through_the_api_takes_ranks(ep, alice):
    apt = {"COG": 15, "COO": 15, "INT": 15, "REF": 15, "SAV": 15, "SOM": 15, "WIL": 15}
    response = api(alice).post(f"/api/eclipse/campaigns/{ep.campaign.pk}/characters/",
                               {"name": "Nova", "aptitudes": apt, "skills": {"fray": 25},
                                "morph": ep.splicer.pk}, format="json")
    assert response.status_code == 201, response.json()
    sheet = response.json()["sheet"]
    assert sheet["skills"] == {"fray": 25} and sheet["skill_ratings"]["fray"]["rating"] == 40
    refused = api(alice).post(f"/api/eclipse/campaigns/{ep.campaign.pk}/characters/",
                              {"name": "Nox", "aptitudes": apt, "skills": {"fray": 100}},
                              format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "ep_invalid_sheet"


@pytest.mark.parametrize("name, value", [("aptitude_max_per_morph", 3),
                                         ("default_any_skill", "yes"), ("nonsense_skill", True)])
def test_the_new_rule_parameters_are_validated_as_every_other(ep, name, value):
    from django.core.exceptions import ValidationError

    ep.campaign.rule_parameters = {name: value}
    with pytest.raises(ValidationError):
        ep.campaign.clean()
    ep.campaign.rule_parameters = {"default_any_skill": True, "aptitude_max_per_morph": False}
    ep.campaign.clean()
    assert ep.campaign.parameters.default_any_skill
