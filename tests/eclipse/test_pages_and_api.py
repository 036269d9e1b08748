"""The Eclipse Phase pages (htmx) and API: creation, the sheet and its forms, permissions (a
stranger's character is not found, a player's GM form is refused), query counts pinned."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from eclipse.models import CarriedWeapon, EclipseSheet, Sleeve

pytestmark = pytest.mark.django_db
APT = {"COG": 15, "COO": 15, "INT": 15, "REF": 15, "SAV": 15, "SOM": 15, "WIL": 15}


def page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_creation_page_creates_and_goes_to_the_sheet(ep, alice):
    url = f"/eclipse/campaigns/{ep.campaign.pk}/new/"
    assert page(alice).get(url + "?name=Nova").status_code == 200
    response = page(alice).post(url, {"name": "Nova", "morph": ep.splicer.pk, **APT,
                                      "skill_fray": 40})
    assert response.status_code == 302
    sheet = EclipseSheet.objects.get(character__name="Nova")
    assert sheet.skills == {"fray": 40} and sheet.sleeve.name == "Splicer"


def test_the_creation_page_shows_the_refusal_in_french(ep, alice):
    response = page(alice).post(f"/eclipse/campaigns/{ep.campaign.pk}/new/",
                                {"name": "Nova", **APT, "COG": 16},
                                HTTP_ACCEPT_LANGUAGE="fr", HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "105" in response.content.decode()
    assert not EclipseSheet.objects.filter(character__name="Nova").exists()


def test_the_sheet_shows_aptitudes_morph_weapons_ammo_and_gauges(ep, alice):
    CarriedWeapon.objects.filter(sheet_id=ep.ash.pk, template=ep.pistol).update(loaded=7)
    body = page(alice).get(f"/eclipse/characters/{ep.ash.pk}/").content.decode()
    for text in ("Splicer", "Medium pistol", "7/12", "Armour vest", 'data-testid="damage"',
                 'data-testid="stress"', 'data-testid="resleeve-form"'):
        assert text in body
    assert 'data-testid="gm-forms"' not in body


@pytest.mark.parametrize("extra", [0, 3])
def test_the_sheet_page_takes_constant_queries(ep, alice, extra, django_assert_num_queries):
    for _ in range(extra):
        CarriedWeapon.objects.create(sheet_id=ep.ash.pk, template=ep.pistol, loaded=12)
    client = page(alice)
    client.get("/")  # the session is read once
    with django_assert_num_queries(8):
        assert client.get(f"/eclipse/characters/{ep.ash.pk}/").status_code == 200


def test_another_players_character_is_not_found(ep, bob):
    assert page(bob).get(f"/eclipse/characters/{ep.ash.pk}/").status_code == 404
    assert page(bob).post(f"/eclipse/characters/{ep.ash.pk}/resleeve/",
                          {"morph": ep.synth.pk}).status_code == 404
    assert api(bob).get(f"/api/eclipse/characters/{ep.ash.pk}/").status_code == 404
    response = api(bob).post(f"/api/eclipse/characters/{ep.ash.pk}/moxie/", {}, format="json")
    assert response.status_code == 404
    assert EclipseSheet.objects.get(pk=ep.ash.pk).moxie == 3


def test_the_resleeve_form_answers_the_fragment(ep, alice):
    response = page(alice).post(f"/eclipse/characters/{ep.ash.pk}/resleeve/",
                                {"morph": ep.synth.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="eclipse-sheet"' in response.content.decode()
    assert EclipseSheet.objects.get(pk=ep.ash.pk).sleeve.name == "Synth"


def test_a_player_posting_the_gms_heal_form_is_refused(ep, alice):
    Sleeve.objects.filter(owner_id=ep.ash.pk).update(damage=10)
    response = page(alice).post(f"/eclipse/characters/{ep.ash.pk}/heal/", {"damage": "5"},
                                HTTP_HX_REQUEST="true")
    assert response.status_code == 422 and 'data-testid="error"' in response.content.decode()
    assert Sleeve.objects.get(owner_id=ep.ash.pk, worn_by__isnull=False).damage == 10
    response = page(ep.gm).post(f"/eclipse/characters/{ep.ash.pk}/heal/", {"damage": "5"})
    assert response.status_code == 302
    assert EclipseSheet.objects.get(pk=ep.ash.pk).sleeve.damage == 5


def test_the_gm_sees_the_gm_forms_and_recovers_stress(ep):
    EclipseSheet.objects.filter(pk=ep.ash.pk).update(stress=8)
    assert 'data-testid="gm-forms"' in page(ep.gm).get(
        f"/eclipse/characters/{ep.ash.pk}/").content.decode()
    page(ep.gm).post(f"/eclipse/characters/{ep.ash.pk}/recover/",
                     {"method": "rest", "stress": "3"})
    assert EclipseSheet.objects.get(pk=ep.ash.pk).stress == 5


def test_the_api_creates_and_reads_a_sheet(ep, alice):
    response = api(alice).post(f"/api/eclipse/campaigns/{ep.campaign.pk}/characters/",
                               {"name": "Nova", "aptitudes": APT, "skills": {"fray": 30},
                                "morph": ep.synth.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()["sheet"]
    assert body["morph"]["speed"] == 2 and body["morph"]["death_rating"] == 80
    assert body["effective_aptitudes"]["SOM"] == 20


def test_the_api_refuses_the_budget_with_its_code(ep, alice):
    response = api(alice).post(f"/api/eclipse/campaigns/{ep.campaign.pk}/characters/",
                               {"name": "Nova", "aptitudes": {**APT, "COG": 40}}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "ep_invalid_sheet"


def test_the_api_equips_and_the_gm_only_steps_answer_403(ep, bob):
    url = f"/api/eclipse/characters/{ep.brick.pk}/"
    response = api(bob).post(url + "weapons/", {"weapon": ep.pistol.pk, "spares": 2},
                             format="json")
    assert response.status_code == 200
    assert [(w["loaded"], w["spares"]) for w in response.json()["sheet"]["weapons"]] == [(12, 2)]
    response = api(bob).post(url + "heal/", {"damage": 1}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "gm_only"
    response = api(bob).post(url + "recover/", {"method": "prayer"}, format="json")
    assert response.status_code == 400


@pytest.mark.parametrize("extra", [0, 3])
def test_the_api_sheet_takes_constant_queries(ep, alice, extra, django_assert_num_queries):
    for _ in range(extra):
        CarriedWeapon.objects.create(sheet_id=ep.ash.pk, template=ep.pistol, loaded=12)
    with django_assert_num_queries(3):
        assert api(alice).get(f"/api/eclipse/characters/{ep.ash.pk}/").status_code == 200


def test_the_shared_list_character_page_and_journal_show_the_eclipse_partials(ep, alice):
    from eclipse import services
    services.moxie_spend(user=alice, character=ep.ash, reason="luck")
    client = page(alice)
    listing = client.get("/characters/").content.decode()
    assert "Splicer" in listing and f"/eclipse/characters/{ep.ash.pk}/" in listing
    body = client.get(f"/characters/{ep.ash.pk}/").content.decode()
    assert 'data-testid="eclipse-sheet-link"' in body and 'data-testid="moxie"' in body
    assert "luck" in body  # the journal's entry, through the system's log template


@pytest.mark.parametrize(("path", "data"), [
    ("stress", {"sv": "2", "source": "a\x00b"}),
    ("derangement", {"name": "a\x00b"}),
    ("stress", {"sv": "²"}), ("stress", {"sv": "1" * 5000})])
def test_the_gm_forms_refuse_a_nul_byte_and_odd_numbers_never_a_500(ep, path, data):
    """PostgreSQL stores no NUL byte in a JSON summary or a text column; "²".isdigit() is
    true and int("²") fails; 5,000 digits are past int()'s limit: each refused, nothing
    written."""
    from campaigns.models import ActionRecord

    before = EclipseSheet.objects.get(pk=ep.ash.pk)
    client = Client(raise_request_exception=False)
    client.force_login(ep.gm)
    response = client.post(f"/eclipse/characters/{ep.ash.pk}/{path}/", data,
                           HTTP_HX_REQUEST="true")
    assert response.status_code < 500
    after = EclipseSheet.objects.get(pk=ep.ash.pk)
    assert (after.stress, after.derangements) == (before.stress, before.derangements)
    assert not ActionRecord.objects.filter(kind__startswith="eclipse_").exists()
