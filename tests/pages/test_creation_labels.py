"""The creation pages' buttons say what they do, in English and French: the list's button
begins a character (each system says what comes next: dice rolled or points shared), the
Eternal War One II draft's reroll rolls the characteristics, the homebrew and Eclipse Phase
pages create the character (no dice on either)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def _get(client, user, path, lang):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client.get(path).content.decode()


@pytest.mark.parametrize("lang, begin, ew1, homebrew", [
    ("en", "Begin the character", "the characteristics are rolled at once",
     "no dice: you share the campaign"),
    ("fr", "Commencer le personnage", "les caractéristiques sont tirées aussitôt",
     "sans dés : vous répartissez les points de caractéristiques"),
])
def test_the_list_says_what_beginning_a_character_does(client, alice, lang, begin, ew1,
                                                       homebrew):
    html = _get(client, alice, reverse("characters:list"), lang)
    assert f">{begin}</button>" in html
    assert "Roll the dice" not in html and "Lancer les dés" not in html
    steps = html.split('data-testid="creation-steps"')[1].split("</ul>")[0]
    assert ew1 in steps and homebrew in steps and steps.count("<li>") == 3


@pytest.mark.parametrize("lang, words", [("en", "Reroll the characteristics"),
                                         ("fr", "Relancer les caractéristiques")])
def test_the_ew1_draft_rerolls_the_characteristics(client, alice, lang, words):
    from ew1.creation import draft_roll

    campaign = factories.campaign()
    draft = draft_roll(user=alice, campaign=campaign, name="Nova")
    html = _get(client, alice, reverse("ew1:draft", args=[draft.pk]), lang)
    assert f">{words}</button>" in html


@pytest.mark.parametrize("lang, words", [("en", "Create the character"),
                                         ("fr", "Créer le personnage")])
def test_the_point_buy_pages_create_the_character(client, alice, lang, words):
    for campaign, name in ((factories.HomebrewCampaignFactory(), "homebrew:create"),
                           (factories.EclipseCampaignFactory(), "eclipse:create")):
        html = _get(client, alice, reverse(name, args=[campaign.pk]), lang)
        assert f">{words}</button>" in html
        assert "Roll" not in html.split("<main")[1] and "Lancer" not in html.split("<main")[1]
