"""The Eclipse Phase creation page reads the campaign's parameters (issue 19, item 1): the
aptitude budget (or none) and each aptitude's bounds."""

from __future__ import annotations

from django.test import Client

from campaigns.models import Campaign


def _page(ep, user, lang="en") -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/eclipse/campaigns/{ep.campaign.pk}/new/",
                      HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_the_page_says_the_campaigns_budget_and_bounds(ep, alice):
    Campaign.objects.filter(pk=ep.campaign.pk).update(rule_parameters={
        "creation_aptitude_points": 140, "creation_aptitude_min": 10,
        "creation_aptitude_max": 35})
    html = _page(ep, alice)
    assert "Share 140 points between the seven aptitudes, each from 10 to 35" in html
    assert 'min="10" max="35"' in html


def test_without_a_budget_the_page_says_none(ep, alice):
    Campaign.objects.filter(pk=ep.campaign.pk).update(rule_parameters={
        "creation_aptitude_points": 0})
    html = _page(ep, alice)
    assert "no budget in this campaign" in html and "Share 0 points" not in html
    assert "pas de budget dans cette campagne" in _page(ep, alice, "fr")
