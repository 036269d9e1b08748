"""Starting gear at creation: the player picks, after the point-buy, up to the campaign's
``starting_gear_picks`` of the weapons and spells the GM offers at creation (service, page,
API); anything else is refused with its code, nothing saved."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from characters.models import Character
from homebrew.errors import NoSuchWeapon, StartingGearRefused
from homebrew.models import HomebrewSheet
from homebrew.services import homebrew_character_create
from tests import factories
from tests.homebrew.conftest import SPREAD

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def offered(hb):
    """The sword and the fireball offered at creation; the claws not."""
    for w in (hb.sword, hb.fireball):
        w.offered_at_creation = True
        w.save()
    return hb


def _create(hb, user, gear, name="Nova"):
    return homebrew_character_create(user=user, campaign=hb.campaign, name=name, values=SPREAD,
                                     gear=gear)


def test_the_new_character_starts_with_its_picks_equipped_and_journaled(offered):
    hb = offered
    nova = _create(hb, hb.alice, [hb.sword.pk, hb.fireball.pk, hb.sword.pk])  # twice: once
    assert sorted(w.name for w in nova.homebrew.weapons.all()) == ["Fireball", "Sword"]
    entry = ActionRecord.objects.get(kind="homebrew_create", actor=nova)
    assert entry.summary["gear"] == ["Sword", "Fireball"]


def test_no_pick_is_allowed(offered):
    nova = _create(offered, offered.alice, [])
    assert list(nova.homebrew.weapons.all()) == []
    assert "gear" not in ActionRecord.objects.get(kind="homebrew_create", actor=nova).summary


@pytest.mark.parametrize("case, code", [("not_offered", "gear_not_offered"),
                                        ("other_campaign", "weapon_other_campaign"),
                                        ("unknown", "no_such_weapon"),
                                        ("too_many", "too_much_gear")])
def test_a_refused_pick_saves_nothing(offered, case, code):
    hb = offered
    elsewhere = factories.HomebrewWeaponFactory(
        campaign=factories.HomebrewCampaignFactory(name="Elsewhere"), name="Far sword",
        offered_at_creation=True)
    gear = {"not_offered": [hb.claws.pk], "other_campaign": [elsewhere.pk],
            "unknown": [elsewhere.pk + 1000], "too_many": [hb.sword.pk, hb.fireball.pk]}[case]
    if case == "too_many":
        hb.campaign.rule_parameters = {"starting_gear_picks": 1}
        hb.campaign.save()
        hb.campaign.refresh_from_db()
        del hb.campaign.parameters  # read again with the new override
    before = (Character.objects.count(), ActionRecord.objects.count())
    with pytest.raises((StartingGearRefused, NoSuchWeapon)) as caught:
        _create(hb, hb.alice, gear)
    assert caught.value.code == code
    assert (Character.objects.count(), ActionRecord.objects.count()) == before
    assert not Character.objects.filter(name="Nova").exists()


def test_the_refusals_speak_english_and_french(offered):
    with pytest.raises(StartingGearRefused) as caught:
        _create(offered, offered.alice, [offered.claws.pk])
    assert caught.value.message == "Claws is not offered as starting gear in this campaign."
    from django.utils import translation
    from campaigns.messages import error_message
    with translation.override("fr"):
        assert error_message(caught.value) == ("Claws n'est pas proposé comme équipement de "
                                               "départ dans cette campagne.")


def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def _post(**extra):
    return {"name": "Nova", "mp_label": "", **{k: str(v) for k, v in SPREAD.items()}, **extra}


def test_the_page_offers_only_the_offered_gear_and_says_what_the_button_does(client, offered):
    hb = offered
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    html = _logged(client, hb.alice).get(url).content.decode()
    assert f'data-testid="gear-{hb.sword.pk}"' in html
    assert f'data-testid="gear-{hb.fireball.pk}"' in html
    assert f'data-testid="gear-{hb.claws.pk}"' not in html
    assert "Pick up to 2 weapons or spells" in html
    assert "Create the character" in html and "Roll" not in html.split("<main")[-1]
    html = _logged(client, hb.alice, "fr").get(url).content.decode()
    assert "Équipement de départ" in html and "Créer le personnage" in html


def test_the_page_creates_the_character_with_its_gear_on_its_sheet(client, offered):
    hb = offered
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    response = _logged(client, hb.alice).post(url, _post(gear=[str(hb.sword.pk)]))
    sheet = HomebrewSheet.objects.get(character__name="Nova")
    assert response.status_code == 302
    assert [w.name for w in sheet.weapons.all()] == ["Sword"]
    html = client.get(reverse("homebrew:sheet", args=[sheet.pk])).content.decode()
    assert "Sword · 1d6" in html and "Nothing equipped." not in html


@pytest.mark.parametrize("gear", [["claws"], ["x"], ["-1"]])
def test_the_page_refuses_a_bad_pick_and_keeps_the_choices(client, offered, gear):
    hb = offered
    ids = {"claws": str(hb.claws.pk)}
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    response = _logged(client, hb.alice).post(
        url, _post(gear=[str(hb.sword.pk)] + [ids.get(g, g) for g in gear]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert 'data-testid="error"' in html
    assert (("Claws is not offered" in html) if gear == ["claws"] else "Invalid input." in html)
    assert f'value="{hb.sword.pk}" checked' in html
    assert not Character.objects.filter(name="Nova").exists()


def test_the_api_takes_the_gear_and_refuses_with_a_code(offered):
    hb = offered
    api = APIClient()
    api.force_authenticate(hb.alice)
    url = reverse("api-homebrew-create", args=[hb.campaign.pk])
    body = {"name": "Nova", "characteristics": SPREAD}
    refused = api.post(url, {**body, "gear": [hb.claws.pk]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "gear_not_offered"
    assert refused.json()["params"] == {"name": "Claws"}
    bad = api.post(url, {**body, "gear": ["sword"]}, format="json")
    assert bad.status_code == 400
    assert not Character.objects.filter(name="Nova").exists()
    made = api.post(url, {**body, "gear": [hb.fireball.pk]}, format="json")
    assert made.status_code == 201
    assert [w["name"] for w in made.json()["weapons"]] == ["Fireball"]


def test_the_admin_marks_a_template_offered(client, offered):
    staff = factories.user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    html = client.get(reverse("admin:homebrew_weapontemplate_changelist")).content.decode()
    assert "offered at creation" in html.lower()


def test_a_creation_with_gear_costs_two_queries_more(client, offered, django_assert_num_queries):
    """As tests/homebrew/test_pages.py's pinned creation (12), with the picks read once and
    equipped in one insert, whatever their number."""
    hb = offered
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    _logged(client, hb.alice).get(url)
    with django_assert_num_queries(14):
        assert client.post(url, _post(gear=[str(hb.sword.pk), str(hb.fireball.pk)]),
                           **HTMX).status_code == 200
