"""Labels and help texts that name a rule's number say the campaign's parameter, not the seed's
(issue 19): the tests on an aptitude times a multiplier carry the campaign's multiplier, and
the admin's help texts of the numbers an empty box derives read the campaign's values."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from eclipse.models import EclipseSheet
from eclipse.templatetags.eclipse_journal import ep_test
from gamerules.eclipse_phase.gear import DamageType
from gamerules.eclipse_phase.health import Health, Incoming, take_hit
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from tests import factories
from tests.gamerules.eclipse_phase.helpers import character
from tests.gamerules.fakes import FakeRandom


def test_the_knockdown_test_says_the_campaigns_multiplier():
    params = EclipsePhaseParameters(knockdown_som_multiplier=2)
    hit = take_hit(character(SOM=20), Health(), Incoming(7, DamageType.KINETIC), FakeRandom(51),
                   params)
    assert hit.som_test.label == "SOMx2 against knockdown" and hit.som_test.target == 30


@pytest.mark.parametrize(("label", "english", "french"), [
    ("SOMx2 against knockdown", "SOMx2 against knockdown", "SOMx2 contre la chute"),
    ("SOMx3 against stun", "SOMx3 against stun", "SOMx3 contre l'étourdissement"),  # stored
    ("SOMx4 to keep the weapon", "SOMx4 to keep the weapon", "SOMx4 pour garder l'arme"),
    ("SOMx1 to escape", "SOMx1 to escape", "SOMx1 pour se libérer"),
    ("WILx5 against stress", "WILx5 against stress", "VOLx5 contre le stress"),
    ("WILx3 against psi", "WILx3 against psi", "VOLx3 contre le psi"),
    ("dodge/3", "dodge/3", "esquive/3"),
])
def test_a_test_label_is_named_with_the_multiplier_it_carries(label, english, french):
    with translation.override("en"):
        assert ep_test(label) == english
    with translation.override("fr"):
        assert ep_test(label) == french


@pytest.fixture
def gm_client(client, db):
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    return client


def test_the_egos_derived_numbers_read_the_campaigns_parameters(gm_client, ep):
    ep.campaign.rule_parameters = {"lucidity_per_wil": 3, "trauma_threshold_divisor": 4,
                                   "insanity_per_lucidity": 1, "wound_threshold_divisor": 6,
                                   "death_multiplier_bio": "2.5"}
    ep.campaign.save()
    url = reverse("admin:eclipse_eclipsesheet_change", args=[ep.ash.pk])
    page = gm_client.get(url)
    form = page.context["adminform"].form
    assert form.fields["lucidity"].help_text == "Empty: WIL x 3 (the campaign's lucidity_per_wil)."
    assert form.fields["trauma_threshold"].help_text.startswith("Empty: LUC / 4 rounded up")
    assert form.fields["insanity_rating"].help_text.startswith("Empty: LUC x 1 ")
    sleeve_form = page.context["inline_admin_formsets"][0].formset.forms[0]
    assert sleeve_form.fields["wound_threshold"].help_text.startswith("Empty: DUR / 6 rounded up")
    assert "DUR x 2.5 rounded up for biomorphs and pods, DUR x 2 for synthmorphs" in \
        sleeve_form.fields["death_rating"].help_text
    french = gm_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").context["adminform"].form
    assert french.fields["lucidity"].help_text == \
        "Vide : VOL x 3 (lucidity_per_wil de la campagne)."


def test_without_a_campaign_the_help_text_names_the_parameter():
    field = EclipseSheet._meta.get_field("lucidity")
    assert "lucidity_per_wil" in str(field.help_text) and "2" not in str(field.help_text)
