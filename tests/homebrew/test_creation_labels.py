"""The homebrew creation page, its test form and its refusals (page and API) name the
sub-characteristics in the reader's language, as the sheet does (homebrew.labels): Strength,
Dexterity, Senses, Ether, Spirit in English; the seed's Force, Dextérité, Sens, Éther, Esprit
in French. They showed the French words in English."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.homebrew.conftest import SPREAD
from tests.homebrew.test_pages import HTMX, _logged, _post

pytestmark = pytest.mark.django_db
ENGLISH = ("Strength", "Dexterity", "Senses", "Ether", "Spirit")


def test_the_creation_page_names_the_subs_in_english_and_in_french(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    html = _logged(client, hb.alice).get(url).content.decode()
    for word in ENGLISH:
        assert f'aria-label="{word}"' in html
    assert "Dextérité" not in html and "Éther" not in html
    client.cookies["django_language"] = "fr"
    html = client.get(url).content.decode()
    assert 'aria-label="Dextérité"' in html and 'aria-label="Éther"' in html


def test_the_refusals_name_the_subs_in_the_readers_language(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    too_many = {**SPREAD, "force": 6, "dexterite": 6}
    html = _logged(client, hb.alice).post(url, _post(too_many), **HTMX).content.decode()
    assert "Strength and Dexterity share" in html and "Dextérité" not in html
    client.cookies["django_language"] = "fr"
    html = client.post(url, _post(too_many), **HTMX).content.decode()
    assert "Force et Dextérité" in html


def test_the_api_refusal_names_the_subs_in_english(hb):
    api = APIClient()
    api.force_login(hb.alice)
    body = api.post(f"/api/homebrew/campaigns/{hb.campaign.pk}/characters/",
                    {"name": "Nova", "characteristics": {**SPREAD, "force": 6, "dexterite": 6}},
                    format="json").json()
    assert "Strength and Dexterity share" in body["detail"]
    assert "Strength and Dexterity share" in body["errors"]["physique"][0]


def test_the_sheets_test_form_names_the_subs_in_english(client, hb):
    html = _logged(client, hb.alice).get(
        reverse("homebrew:sheet", args=[hb.aria.pk])).content.decode()
    form = html.split('name="code"')[1].split("</select>")[0]
    assert ">Strength</option>" in form and "Dextérité" not in form
