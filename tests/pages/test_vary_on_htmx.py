"""Pages that answer htmx with a fragment at their own URL say so in ``Vary`` (issue 8, item
20): a browser's Back button or a cache must not show a bare fragment as the page."""

import pytest
from django.urls import reverse
from django.utils.cache import has_vary_header

from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(2, 2))


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["characters:detail", "combat:board"])
def test_page_and_fragment_both_vary_on_hx_request(client, alice, hero, name):
    client.force_login(alice)
    url = reverse(name, args=[hero.pk])

    page, fragment = client.get(url), client.get(url, **HTMX)

    assert page.status_code == fragment.status_code == 200
    assert page.content != fragment.content
    assert has_vary_header(page, "HX-Request") and has_vary_header(fragment, "HX-Request")


@pytest.mark.django_db
def test_the_leaderboard_varies_on_hx_request_too(client, alice, hero):
    client.force_login(alice)
    response = client.get(reverse("campaigns:leaderboard", args=[hero.campaign_id]))
    assert response.status_code == 200 and has_vary_header(response, "HX-Request")
