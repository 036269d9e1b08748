"""Factions in the admin: the list with its filters and search, a faction with its members and
requests inline, the requests' own list."""

import pytest

from tests import factories
from tests.factions.conftest import otto_request


@pytest.fixture
def admin_client(client, db):
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    return client


def test_faction_list_filters_and_search(admin_client, world):
    html = admin_client.get("/admin/factions/faction/").content.decode()
    assert "Wolves" in html and "Ravens" in html
    html = admin_client.get("/admin/factions/faction/", {"is_public__exact": "0"}).content.decode()
    assert "Wolves" in html and "Ravens" not in html
    # Searching by a member's name finds the faction once.
    response = admin_client.get("/admin/factions/faction/", {"q": "Max"})
    assert list(response.context["cl"].result_list) == [world.wolves]
    assert response.context["cl"].result_list[0].size == 2


def test_faction_change_page_has_members_and_requests_inline(admin_client, world):
    otto_request(world)
    response = admin_client.get(f"/admin/factions/faction/{world.wolves.pk}/change/")
    assert response.status_code == 200
    formsets = {f.formset.model.__name__: f.formset for f in
                response.context["inline_admin_formsets"]}
    assert formsets["Membership"].queryset.count() == 2
    assert sorted(formsets["JoinRequest"].queryset.values_list("state", flat=True)) == [
        "accepted", "pending"]  # Max's invitation, Otto's request


def test_join_request_list(admin_client, world):
    otto_request(world)
    response = admin_client.get("/admin/factions/joinrequest/", {"state__exact": "pending"})
    assert response.status_code == 200 and len(response.context["cl"].result_list) == 1


def test_players_do_not_get_in(client, world):
    client.force_login(world.users["lea"])
    assert client.get("/admin/factions/faction/").status_code == 302
