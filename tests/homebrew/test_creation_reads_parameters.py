"""The homebrew creation page reads the campaign's parameters (issue 19, item 1): the budget,
whether it must all be spent, each main's bounds, the subs' cap and the first values shown."""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import Campaign
from gamerules.homebrew.characteristics import suggested_mains
from gamerules.homebrew.params import HomebrewParameters


def _page(client, hb, lang="en") -> str:
    client.force_login(hb.alice)
    client.cookies["django_language"] = lang
    return client.get(reverse("homebrew:create", args=[hb.campaign.pk])).content.decode()


def test_the_page_says_the_campaigns_budget_and_bounds(client, hb):
    Campaign.objects.filter(pk=hb.campaign.pk).update(rule_parameters={
        "characteristic_points": 200, "characteristic_min": 10, "characteristic_max": 80,
        "spend_all_points": False, "sub_max": 4})
    html = _page(client, hb)
    assert "Share at most 200 points between Physique, Perception and Mental, each from 10 to " \
        "80." in html
    assert "at most 4 each" in html
    assert 'min="10" max="80"' in html and 'max="4"' in html
    assert 'value="67"' in html and 'value="66"' in html  # 200 shared evenly
    assert "170" not in html.split('data-testid="budget"')[1].split("</p>")[0]
    french = _page(client, hb, "fr")
    assert "Répartissez au plus 200 points entre Physique, Perception et Mental, chacune de 10 " \
           "à 80." in french


def test_the_default_page_is_the_seeds(client, hb):
    html = _page(client, hb)
    assert "Share all 170 points between Physique, Perception and Mental, each from 0 to 100." \
        in html
    assert 'value="57"' in html and 'value="56"' in html


def test_the_first_values_fit_the_caps():
    assert suggested_mains(HomebrewParameters()) == {"physique": 57, "perception": 57,
                                                     "mental": 56}
    capped = HomebrewParameters(characteristic_points=290, characteristic_max=90)
    assert suggested_mains(capped) == {"physique": 90, "perception": 90, "mental": 90}
    floored = HomebrewParameters(characteristic_points=30, characteristic_min=20,
                                 spend_all_points=False)
    assert suggested_mains(floored) == {"physique": 20, "perception": 20, "mental": 20}
