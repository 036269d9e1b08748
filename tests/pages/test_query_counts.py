"""Pinned query counts: the sheet and the board cost the same with 10 or 200 characters in view."""

import random

import pytest
from django.urls import reverse

from combat.services import action_brawl, action_move
from tests import factories
from tests.pages.conftest import HTMX

# Session, user, the character with campaign, board and sheet, its items, the log, its rolls.
SHEET_QUERIES = 6
# The same, the pieces in view with their sheets and owners, and the known spells.
BOARD_QUERIES = 8


@pytest.fixture(params=[10, 200], ids=["10-in-view", "200-in-view"])
def crowded(request, alice, bob):
    """A 30x30 board whose view radius covers it all, ``param`` characters around Alice's hero
    (half of them Bob's), and a log with moves and brawls (rolls included)."""
    campaign = factories.campaign(name="Crowded", width=30, height=30, view_radius=15)
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(15, 15))
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(16, 15))
    for i in range(request.param - 2):
        factories.character(owner=alice if i % 2 else bob, campaign=campaign, name=f"P{i:03}",
                            seed=i)
    action_move(user=alice, character_id=hero.pk, dx=0, dy=1)
    action_move(user=alice, character_id=hero.pk, dx=0, dy=-1)
    for seed in range(3):
        action_brawl(user=alice, character_id=hero.pk, target_id=foe.pk, rng=random.Random(seed))
    assert hero.campaign.characters.count() == request.param
    return hero


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_sheet_queries(alice_client, crowded, django_assert_num_queries, extra):
    with django_assert_num_queries(SHEET_QUERIES):
        response = alice_client.get(reverse("characters:detail", args=[crowded.pk]), **extra)
    assert response.status_code == 200
    assert response.content.decode().count('class="log-') == 6  # 3 brawls, 2 moves, creation


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_board_queries(alice_client, crowded, django_assert_num_queries, extra):
    with django_assert_num_queries(BOARD_QUERIES):
        response = alice_client.get(reverse("combat:board", args=[crowded.pk]), **extra)
    html = response.content.decode()
    assert response.status_code == 200
    count = crowded.campaign.characters.count()
    assert html.count('data-testid="in-view-') == count - 1
    assert html.count('class="piece token') == count  # one token a piece
    # The menu's URL and the move form's are built once, not once a cell.
    assert html.count('action="' + reverse("combat:move_to", args=[crowded.pk])) == 1


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_piece_menu_queries(alice_client, crowded, django_assert_num_queries, extra):
    """The menu of a piece costs what the board costs, with 10 or 200 pieces in view."""
    foe = crowded.campaign.characters.get(name="Foe")
    with django_assert_num_queries(BOARD_QUERIES):
        response = alice_client.get(reverse("combat:piece", args=[crowded.pk]),
                                    {"target": foe.pk}, **extra)
    assert response.status_code == 200
    assert 'data-testid="piece-menu"' in response.content.decode()
