"""The GM's admin for homebrew (weapon and spell templates, sheets, rests as an action) and the
demo campaign load_demo makes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from gamerules.homebrew.characteristics import CODES, validate_characteristics
from homebrew.models import HomebrewSheet, WeaponTemplate
from tests import factories
from tests.admin.test_admin_add_forms import fill_required, form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(hb):
    staff = factories.user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    return client


def test_the_weapon_add_form_saves_a_template_and_refuses_a_bad_die(admin_client, hb):
    url = reverse("admin:homebrew_weapontemplate_add")
    page = admin_client.get(url)
    assert page.status_code == 200
    saved = admin_client.post(url, form_data(page, campaign=hb.campaign.pk, name="Hache",
                                             die="1d8", kind="physical", mp_cost=0))
    assert saved.status_code == 302
    assert WeaponTemplate.objects.get(name="Hache").die == "1d8"
    refused = admin_client.post(url, form_data(page, campaign=hb.campaign.pk, name="Masse",
                                               die="2d6+1"))
    assert refused.status_code == 200 and "die" in refused.context["adminform"].form.errors


def test_the_sheet_add_form_saves_its_defaults_for_a_homebrew_creature(admin_client, hb):
    ogre = Character.objects.create(campaign=hb.campaign, name="Ogre", kind="creature")
    url = reverse("admin:homebrew_homebrewsheet_add")
    page = admin_client.get(url)
    assert page.status_code == 200
    saved = admin_client.post(url, form_data(page, **{**fill_required(page), "character": ogre.pk,
                                                      "hp": 30, "hp_max": 30,
                                                      "weapons": hb.claws.pk}))
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    sheet = HomebrewSheet.objects.get(pk=ogre.pk)
    assert sheet.hp_max == 30 and list(sheet.weapons.all()) == [hb.claws]


def test_the_sheet_form_keeps_the_budgets_for_a_player(admin_client, hb):
    url = reverse("admin:homebrew_homebrewsheet_change", args=[hb.aria.pk])
    page = admin_client.get(url)
    refused = admin_client.post(url, form_data(page, physique=90))
    assert refused.status_code == 200
    assert "add up to 170" in str(refused.context["adminform"].form.errors)
    saved = admin_client.post(url, form_data(page, hp_max=40, mp_label="Cartouches"))
    assert saved.status_code == 302
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).hp_max == 40


def test_the_rest_action_rests_the_chosen_sheets(admin_client, hb):
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(hp=1, mp=0)
    response = admin_client.post(reverse("admin:homebrew_homebrewsheet_changelist"), {
        "action": "long_rest", "_selected_action": [hb.aria.pk]})
    assert response.status_code == 302
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).hp == 20
    assert HomebrewSheet.objects.get(pk=hb.bran.pk).hp == 1
    assert ActionRecord.objects.filter(kind="homebrew_rest").count() == 1


def test_load_demo_makes_a_homebrew_party_and_enemies():
    from config.demo import load_demo

    load_demo(seed=1)
    campaign = Campaign.objects.get(rule_system="homebrew")
    party = Character.objects.filter(campaign=campaign, kind="player").select_related(
        "owner", "homebrew")
    assert {(c.owner.username, c.name) for c in party} == {("alice", "Lysandre"),
                                                          ("bob", "Tobin")}
    tobin = next(c for c in party if c.name == "Tobin")
    assert tobin.homebrew.gauge_label == "Cartridges"
    enemies = Character.objects.filter(campaign=campaign, kind="creature")
    assert enemies.count() == 3 and all(e.homebrew.weapons.exists() for e in enemies)
    assert campaign.game_master.username == "gm"


def _campaign_of_200_points(hb, **params):
    hb.campaign.rule_parameters = {"characteristic_points": 200, **params}
    hb.campaign.save()


def test_a_character_added_with_its_sheet_untouched_gets_one_the_campaigns_rules_take(
        admin_client, hb, bob):
    # 200 points to spend, mains capped at 80: the model's 60/55/55 fits neither.
    _campaign_of_200_points(hb, characteristic_max=80, sub_max=4)
    url = reverse("admin:characters_character_add") + f"?campaign={hb.campaign.pk}"
    page = admin_client.get(url)
    form = page.context["inline_admin_formsets"][0].formset.forms[0]
    assert [form.initial[c] for c in ("physique", "perception", "mental")] == [67, 67, 66]
    assert (form.initial["force"], form.initial["dexterite"]) == (3, 3)
    saved = admin_client.post(url, form_data(page, name="Cael", kind="player", owner=bob.pk))
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    sheet = HomebrewSheet.objects.get(character__name="Cael")
    values = {c: getattr(sheet, c) for c in CODES}
    assert values == {"physique": 67, "perception": 67, "mental": 66, "force": 3,
                      "dexterite": 3, "sens": 3, "ether": 3, "esprit": 3, "intelligence": 3}
    validate_characteristics(values, Campaign.objects.get(pk=hb.campaign.pk).parameters)


def test_the_default_sheet_follows_the_campaigns_caps(hb):
    from homebrew.services import sheet_default

    _campaign_of_200_points(hb, characteristic_max=70, sub_max=2)
    campaign = Campaign.objects.get(pk=hb.campaign.pk)  # its parameters read afresh
    ogre = Character.objects.create(campaign=campaign, name="Ogre", kind="creature")
    sheet = sheet_default(character=ogre)
    assert (sheet.physique, sheet.perception, sheet.mental) == (67, 67, 66)
    assert (sheet.force, sheet.dexterite, sheet.sens, sheet.ether) == (2, 2, 2, 2)


def test_the_sheet_form_refuses_negative_mp(admin_client, hb):
    url = reverse("admin:homebrew_homebrewsheet_change", args=[hb.aria.pk])
    page = admin_client.get(url)
    refused = admin_client.post(url, form_data(page, mp=-3))
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors["mp"] == [
        "Ensure this value is greater than or equal to 0."]
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).mp == 10


def test_an_encounter_added_in_the_admin_takes_the_campaigns_time_to_react(admin_client, hb):
    from encounters.models import Encounter

    hb.campaign.rule_parameters = {"reaction_timeout_seconds": 90}
    hb.campaign.save()
    url = reverse("admin:encounters_encounter_add")
    page = admin_client.get(url)
    assert page.context["adminform"].form.initial.get("reaction_timeout_seconds") is None
    data = form_data(page, campaign=hb.campaign.pk, name="Gué", actions_per_turn=1)
    saved = admin_client.post(url, {**data, "reaction_timeout_seconds": ""})
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    assert Encounter.objects.get(name="Gué").reaction_timeout_seconds == 90
    chosen = admin_client.post(url, {**data, "name": "Pont", "reaction_timeout_seconds": 12})
    assert chosen.status_code == 302
    assert Encounter.objects.get(name="Pont").reaction_timeout_seconds == 12
