"""The homebrew pages: creation (htmx, English and French, refusals per field), the sheet with
its odds, a test roll, the GM's rests; query counts pinned."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from encounters import services as enc
from homebrew.models import HomebrewSheet, PermanentInjury
from tests import factories
from tests.homebrew.conftest import SPREAD, in_view

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _post(values=SPREAD, **extra):
    return {"name": "Nova", "mp_label": "", **{k: str(v) for k, v in values.items()}, **extra}


def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def test_the_creation_page_opens_in_english_and_french(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    html = _logged(client, hb.alice).get(url).content.decode()
    assert "Share all 170 points between Physique, Perception and Mental, each from 0 to 100" \
        in html
    client.cookies["django_language"] = "fr"
    html = client.get(url).content.decode()
    assert "Répartissez les 170 points entre Physique, Perception et Mental, chacune de 0 à " \
        "100" in html


def test_creating_a_character_redirects_to_its_sheet(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    response = _logged(client, hb.alice).post(url, _post())
    sheet = HomebrewSheet.objects.get(character__name="Nova")
    assert response.status_code == 302
    assert response["Location"] == reverse("homebrew:sheet", args=[sheet.pk])
    htmx = client.post(url, _post(name="Nova II"), **HTMX)
    assert htmx.status_code == 200 and "HX-Redirect" in htmx


def test_a_refused_creation_shows_each_fields_problem_and_creates_nothing(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    bad = {**SPREAD, "perception": 49, "force": 5}
    response = _logged(client, hb.alice).post(url, _post(bad), **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert 'data-testid="error-total"' in html and "1 left to spend" in html
    assert 'data-testid="error-physique"' in html and "share 6 points" in html
    assert not HomebrewSheet.objects.filter(character__name="Nova").exists()


def test_a_refused_creation_is_explained_in_french(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    bad = {**SPREAD, "perception": 51}
    html = _logged(client, hb.alice, "fr").post(url, _post(bad), **HTMX).content.decode()
    assert "doivent totaliser 170" in html and "1 de trop" in html


def test_a_sub_of_7_is_refused_on_the_page(client, hb):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    bad = {"physique": 100, "perception": 10, "mental": 60, "force": 7, "dexterite": 0,
           "sens": 0, "ether": 0, "esprit": 3, "intelligence": 2}
    html = _logged(client, hb.alice).post(url, _post(bad), **HTMX).content.decode()
    assert 'data-testid="error-force"' in html


def test_the_creation_page_of_another_system_is_404(client, hb, campaign):
    response = _logged(client, hb.alice).get(reverse("homebrew:create", args=[campaign.pk]))
    assert response.status_code == 404


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_creation_page_query_count_is_pinned(client, hb, django_assert_num_queries, method):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    _logged(client, hb.alice).get(url)
    # GET: session, user, campaign, the starting gear offered. POST (refused): the same and the
    # service's transaction (a savepoint, rolled back and released: the rules refuse before
    # any read or write).
    with django_assert_num_queries(4 if method == "get" else 7):
        if method == "get":
            assert client.get(url, **HTMX).status_code == 200
        else:
            assert client.post(url, _post({**SPREAD, "mental": 0}), **HTMX).status_code == 422


def test_a_successful_creation_query_count_is_pinned(client, hb, django_assert_num_queries):
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    _logged(client, hb.alice).get(url)
    # session, user, campaign, the starting gear offered; the transaction: savepoint, name
    # check, savepoint, character, release, sheet, journal entry, release (a same name in
    # another case created meanwhile: the unique constraint refuses it). No gear picked: no
    # read of it (tests/homebrew/test_starting_gear.py: one read and one insert with some).
    with django_assert_num_queries(12):
        assert client.post(url, _post(), **HTMX).status_code == 200


def test_the_sheet_shows_gauges_injuries_and_odds(client, hb):
    in_view(hb)
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(mp_label="Cartridges", hp=-20)
    PermanentInjury.objects.create(sheet_id=hb.aria.pk, description="Lost an eye",
                                   round_key="1:3", created_at=hb.now)
    url = reverse("homebrew:sheet", args=[hb.aria.pk])
    html = _logged(client, hb.alice).get(url + f"?target={hb.goblin.pk}").content.decode()
    assert "Cartridges" in html and "Lost an eye" in html and 'data-testid="odds"' in html
    assert "60.0 %" in html  # Sword: Physique 60 against the offensive goblin
    assert "Fireball" in html


def odds_names(client, hb, user) -> list[str]:
    html = _logged(client, user).get(reverse("homebrew:sheet", args=[hb.aria.pk])).content
    return re.findall(r'<option value="\d+"(?: selected)?>([^<]+)</option>', html.decode())


def test_the_odds_name_the_gms_creature_only_once_in_view(client, hb):
    """A player's odds list the party and what is in view in their encounter; the GM's, all."""
    assert odds_names(client, hb, hb.alice) == ["Bran"]
    e = in_view(hb, hidden=True)
    assert odds_names(client, hb, hb.alice) == ["Bran"]  # hidden: not named, not measured
    assert odds_names(client, hb, hb.gm) == ["Bran", "Goblin"]
    e.combatants.filter(character=hb.goblin).update(hidden=False)
    assert odds_names(client, hb, hb.alice) == ["Bran", "Goblin"]
    enc.encounter_end(user=hb.gm, encounter_id=e.pk)
    assert odds_names(client, hb, hb.alice) == ["Bran"]  # the fight is over


def test_the_odds_api_answers_404_for_a_creature_not_in_view(client, hb):
    api = APIClient()
    api.force_authenticate(hb.alice)
    url = reverse("api-homebrew-odds", args=[hb.aria.pk])
    query = {"weapon": hb.sword.pk, "target": hb.goblin.pk}
    in_view(hb, hidden=True)
    assert api.get(url, query).status_code == 404
    api.force_authenticate(hb.gm)
    assert api.get(url, query).status_code == 200


def test_another_player_does_not_see_the_sheet(client, hb):
    response = _logged(client, hb.bob).get(reverse("homebrew:sheet", args=[hb.aria.pk]))
    assert response.status_code == 404


@pytest.mark.parametrize("extra", [0, 6])
def test_the_sheet_query_count_does_not_grow_with_the_party(client, hb, extra,
                                                           django_assert_num_queries):
    for i in range(extra):
        factories.HomebrewSheetFactory(character__campaign=hb.campaign,
                                       character__name=f"Rat {i}", character__kind="creature")
    url = reverse("homebrew:sheet", args=[hb.aria.pk])
    _logged(client, hb.alice).get(url)
    # session, user, character+sheet, weapons, injuries, targets
    with django_assert_num_queries(6):
        assert client.get(url, **HTMX).status_code == 200


def test_a_test_roll_from_the_sheet_is_shown(client, hb):
    url = reverse("homebrew:test", args=[hb.aria.pk])
    html = _logged(client, hb.alice).post(url, {"code": "force"}, **HTMX).content.decode()
    assert 'data-testid="test-result"' in html and "1d6" in html


def test_the_gm_grants_a_rest_from_the_page(client, hb):
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(hp=10, mp=0)
    url = reverse("homebrew:rest", args=[hb.campaign.pk])
    _logged(client, hb.gm)
    assert client.get(url).status_code == 200
    html = client.post(url, {"kind": "medium", "characters": [hb.aria.pk]},
                       **HTMX).content.decode()
    assert "Aria: +5 HP, +3 MP" in html
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).hp == 15
    assert HomebrewSheet.objects.get(pk=hb.bran.pk).hp == 10


def test_a_player_cannot_open_the_rest_page(client, hb):
    assert _logged(client, hb.alice).get(
        reverse("homebrew:rest", args=[hb.campaign.pk])).status_code == 404
