"""A piece outside its board (issue 19, item 6): saved around the admin's checks, or left
outside when the board shrank. Its board page, fragment, poll and API answer without a 500: it
is left out of the board, the page says why, and the game master is told in the admin."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def world(db, alice, bob):
    campaign = factories.campaign(width=15, height=15)
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(3, 3))
    stray = factories.character(owner=bob, campaign=campaign, name="Stray", at=(4, 3))
    Character.objects.filter(pk=stray.pk).update(x=99)  # what the admin let through
    return campaign, hero, stray


def logged(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_misplaced_pieces_own_board_page_answers_and_says_why(world, bob):
    _, _, stray = world
    client = logged(bob)
    for headers in ({}, HTMX):
        response = client.get(reverse("combat:board", args=[stray.pk]), **headers)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'data-testid="misplaced"' in html and "(99, 3)" in html
        assert 'data-testid="move-n"' not in html  # no move pad off the board
    poll = client.get(reverse("combat:board", args=[stray.pk]) + "?v=1-1-0-0-0-0-0-", **HTMX)
    assert poll.status_code == 200
    api = APIClient()
    api.force_authenticate(bob)
    board = api.get(f"/api/characters/{stray.pk}/board/")
    assert board.status_code == 200
    assert (board.json()["outside_board"], board.json()["bounds"]) == (True, None)


def test_it_is_left_out_of_the_others_boards(world, alice):
    _, hero, _ = world
    html = logged(alice).get(reverse("combat:board", args=[hero.pk])).content.decode()
    assert "Stray" not in html and 'data-testid="misplaced"' not in html
    api = APIClient()
    api.force_authenticate(alice)
    assert api.get(f"/api/characters/{hero.pk}/board/").json()["outside_board"] is False


def test_the_game_master_is_told_on_the_campaign_page(world):
    campaign, _, stray = world
    gm = factories.user("gm", is_staff=True, is_superuser=True)
    response = logged(gm).get(reverse("admin:campaigns_campaign_change", args=[campaign.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Some pieces stand outside the board" in html
    assert reverse("admin:characters_character_change", args=[stray.pk]) in html
    assert "Stray</a> (99, 3)" in html
    listing = logged(gm).get(reverse("admin:campaigns_campaign_changelist"))
    assert [c.outside_count for c in listing.context["cl"].result_list] == [1]


def test_the_board_cannot_shrink_under_a_piece(world):
    campaign, _hero, _ = world
    Character.objects.filter(name="Stray").delete()
    gm = factories.user("gm", is_staff=True, is_superuser=True)
    from tests.admin.campaign_pages import change_data, change_url
    client = logged(gm)
    data = change_data(client, campaign)
    data.update({"board-0-width": "3", "board-0-height": "15"})
    response = client.post(change_url(campaign), data)
    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert "Hero (3, 3)" in str(formset.forms[0].non_field_errors())
    campaign.board.refresh_from_db()
    assert campaign.board.width == 15
    data.update({"board-0-width": "4"})
    assert client.post(change_url(campaign), data).status_code == 302
