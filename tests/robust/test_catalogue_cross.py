"""The game master's back office (campaigns.catalogue) crossed with the other systems' ids
(issue 22, item 1): the demo's game master, who runs all three campaigns, asking a campaign's
page for a kind of row of another system, or for another campaign's row, gets 404 (or, where
two systems name a kind alike and the ids happen to meet, that campaign's own row), and a
stranger gets 404 everywhere; nothing changes."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from campaigns.catalogue import kind_get
from campaigns.models import Campaign
from tests.breaker.test_url_sweep import ROUTES, page_methods, url_of
from tests.robust.conftest import SYSTEMS, page_client

MANAGE = [r for r in ROUTES if "/manage/<slug:kind>/" in r]


def test_the_demo_has_a_row_of_each_system_to_cross(demo):
    assert len(MANAGE) == 4
    assert all(demo.ids[s].kind != "none" for s in SYSTEMS), {s: demo.ids[s] for s in SYSTEMS}


@pytest.mark.parametrize("route", MANAGE)
def test_another_systems_kind_or_row_is_404(demo, db, unchanged, route):
    for system in SYSTEMS:
        for other in SYSTEMS:
            if other == system:
                continue
            ids = {**asdict(demo.ids[system]), "kind": demo.ids[other].kind,
                   "row_id": demo.ids[other].row_id}
            url = url_of(route, ids)
            campaign = Campaign.objects.get(pk=ids["campaign_id"])
            kind = kind_get(campaign.rule_system, ids["kind"])
            own = kind is not None and (
                "<int:row_id>" not in route
                or kind.model.objects.filter(campaign=campaign, pk=ids["row_id"]).exists())
            for method in sorted(page_methods(route) & {"get", "post"}):
                if own and method == "post":
                    continue  # the campaign's own row: its forms are tested elsewhere
                with unchanged():
                    response = getattr(page_client(demo.gm), method)(url)
                    stranger = getattr(page_client(demo.stranger), method)(url)
                assert stranger.status_code == 404, (method, url, stranger.status_code)
                if own:  # a kind this system has too, a row of this very campaign
                    assert response.status_code == 200, (method, url)
                else:
                    assert response.status_code == 404, (method, url, response.status_code)
