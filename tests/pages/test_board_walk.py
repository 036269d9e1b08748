"""The board as a board: a free cell shows the walk there (path and PA, computed by the server's
rule), a click posts it (combat:move_to); a piece's token opens its action menu (combat:piece),
for the pieces in view only."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from ew1.models import EternalWarSheet
from tests import factories
from tests.pages.conftest import HTMX, state


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.fixture
def foe(bob, campaign):
    return factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5))


def walk(client, c, to, **extra):
    return client.post(reverse("combat:move_to", args=[c.pk]), {"to": to}, **extra)


def menu(client, c, target, **extra):
    return client.get(reverse("combat:piece", args=[c.pk]), {"target": target}, **extra)


def cell_attrs(html, x, y):
    (attrs,), = [re.findall(rf'<td ([^>]*data-x="{x}" data-y="{y}"[^>]*)>', html)]
    return dict(re.findall(r'(data-[\w-]+)="([^"]*)"', attrs))


def test_each_free_cell_carries_the_walk_the_server_computed(alice_client, hero, foe):
    html = alice_client.get(reverse("combat:board", args=[hero.pk]), **HTMX).content.decode()
    beyond = cell_attrs(html, 7, 5)  # behind Foe: around it, still two cells
    assert beyond["data-cost"] == "1.0" and beyond["data-steps"] == "2"
    assert "6,5" not in beyond["data-path"].split() and beyond["data-path"].endswith("7,5")
    assert cell_attrs(html, 0, 0)["data-cost"] == "2.5"  # five diagonal cells
    assert "data-cost" not in cell_attrs(html, 6, 5)  # Foe's cell: a token, no walk
    assert 'aria-label="Walk to (7, 5): 2 cells, 1.0 PA"' in html


def test_a_cell_too_far_for_the_pa_says_so_before_the_click(alice_client, alice, campaign):
    tired = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5),
                                pa=Decimal("1.0"))
    html = alice_client.get(reverse("combat:board", args=[tired.pk]), **HTMX).content.decode()
    def button(x, y):
        return re.search(rf'<button [^>]*value="{x},{y}"[^>]*>', html).group(0)

    assert 'data-refusal="This needs 1.5 PA; you have 1.0."' in button(8, 5)  # three cells
    assert 'aria-disabled="true"' in button(8, 5)
    assert "data-refusal" not in button(7, 5)  # two cells: 1.0 PA, affordable
    assert "data-cost" not in cell_attrs(html, 8, 5)  # nothing to preview but the refusal


@pytest.mark.parametrize("htmx", [False, True])
def test_a_click_on_a_cell_walks_there_and_spends_its_pa(alice_client, hero, foe, htmx):
    response = walk(alice_client, hero, "7,5", **(HTMX if htmx else {}))
    sheet = EternalWarSheet.objects.select_related("character").get(pk=hero.pk)
    assert (sheet.character.x, sheet.character.y, sheet.pa) == (7, 5, Decimal("11.0"))
    if htmx:
        html = response.content.decode()
        assert response.status_code == 200 and 'data-testid="result"' in html
        assert "Moved to (7, 5): 2 cells, 1.0 PA." in html
    else:
        assert response.status_code == 302


@pytest.mark.parametrize(("to", "words"), [
    ("10,5", "That cell is off the board."), ("5,-1", "That cell is off the board."),
    ("999999,999999", "That cell is off the board."), ("6,5", "That cell is occupied."),
    ("5,5", "Choose another cell than the one you stand on."),
    ("x,y", "A cell is written x,y (two whole numbers)."),
    ("", "This field is required."), ("1,2,3", "A cell is written x,y"),
    ("99999999999999999999,1", "A cell is written x,y"),
])
def test_bad_cells_are_refused_in_words_and_spend_nothing(alice_client, hero, foe, to, words):
    before = state()
    response = walk(alice_client, hero, to, **HTMX)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert state() == before


def test_not_enough_pa_for_the_walk_is_a_clear_error_and_spends_nothing(alice_client, alice,
                                                                         campaign):
    tired = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5),
                                pa=Decimal("1.0"))
    before = state()
    html = walk(alice_client, tired, "8,8", **HTMX).content.decode()
    assert 'data-testid="error"' in html and "This needs 1.5 PA; you have 1.0." in html
    assert state() == before


def test_a_cell_out_of_view_is_refused(alice_client, alice):
    campaign = factories.campaign(name="Wide", width=30, height=30, view_radius=3)
    scout = factories.character(owner=alice, campaign=campaign, name="Scout", at=(5, 5))
    before = state()
    html = walk(alice_client, scout, "12,5", **HTMX).content.decode()
    assert "That cell is out of view: move towards it first." in html
    assert state() == before


def test_another_players_character_cannot_walk(bob_client, hero):
    before = state()
    assert walk(bob_client, hero, "6,6", **HTMX).status_code == 404
    assert state() == before


def test_the_walk_error_in_french(alice_client, hero, foe):
    with translation.override("fr"):
        html = walk(alice_client, hero, "6,5", HTTP_ACCEPT_LANGUAGE="fr", **HTMX).content.decode()
    assert "Cette case est occupée." in html


# --- the piece's menu -------------------------------------------------------------------------

def test_a_piece_in_view_has_its_menu_with_costs_and_odds(alice_client, hero, foe):
    response = menu(alice_client, hero, foe.pk, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'data-testid="piece-menu"' in html and ">Foe</h2>" in html
    button = re.search(r'data-testid="menu-attack-brawl"[^>]*>(.*?)</button>', html, re.S)
    assert button and "2 PA" in button.group(1) and re.search(r"\d+ %", button.group(1))
    assert 'data-testid="menu-attack-throw"' in html
    assert f'name="target" value="{foe.pk}"' in html
    assert "PV " not in html.split('data-testid="piece-menu"')[1].split("</small>")[0]


def test_the_menu_without_htmx_is_the_board_page_with_the_menu_open(alice_client, hero, foe):
    html = menu(alice_client, hero, foe.pk).content.decode()
    assert "<html" in html and 'id="board"' in html and 'data-testid="piece-menu"' in html


def test_a_piece_out_of_reach_lists_no_attack_and_says_why(alice_client, bob, campaign, hero):
    far = factories.character(owner=bob, campaign=campaign, name="Far", at=(9, 9))
    html = menu(alice_client, hero, far.pk, **HTMX).content.decode()
    assert "menu-attack-brawl" not in html and "No attack reaches it from here" in html


def test_the_menu_of_a_piece_out_of_view_is_refused_and_tells_nothing(alice_client, bob, alice):
    campaign = factories.campaign(name="Wide", width=30, height=30, view_radius=3)
    me = factories.character(owner=alice, campaign=campaign, name="Me", at=(5, 5))
    hidden = factories.character(owner=bob, campaign=campaign, name="Lurker", at=(20, 20))
    elsewhere = factories.character(owner=bob, campaign=factories.campaign(name="Other"),
                                    name="Stranger", at=(5, 6))
    for target in (hidden.pk, elsewhere.pk, 987654, me.pk):
        for extra in ({}, HTMX):
            response = menu(alice_client, me, target, **extra)
            assert response.status_code == 404
            assert b"Lurker" not in response.content and b"Stranger" not in response.content


@pytest.mark.parametrize("target", ["", "abc", "-1", "0", "99999999999999999999"])
def test_a_bad_target_is_not_found(alice_client, hero, target):
    assert menu(alice_client, hero, target, **HTMX).status_code == 404


def test_another_players_character_has_no_menu(bob_client, hero, foe):
    assert menu(bob_client, hero, foe.pk, **HTMX).status_code == 404


def test_an_allys_token_and_menu_show_its_pv_a_foes_do_not(alice_client, alice, campaign, hero,
                                                           foe):
    mine = factories.character(owner=alice, campaign=campaign, name="Twin", at=(4, 5), seed=3)
    board = alice_client.get(reverse("combat:board", args=[hero.pk]), **HTMX).content.decode()
    assert board.count('data-testid="token-gauge"') == 2  # Hero and Twin, not Foe
    html = menu(alice_client, hero, mine.pk, **HTMX).content.decode()
    assert "PV " in html and "yours" in html


def test_the_menu_in_french(alice_client, hero, foe):
    with translation.override("fr"):
        html = menu(alice_client, hero, foe.pk, HTTP_ACCEPT_LANGUAGE="fr", **HTMX).content.decode()
    assert "Attaques" in html
