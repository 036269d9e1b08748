import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from ew1.models import EternalWarSheet
from tests import factories
from tests.pages.conftest import HTMX, state


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.fixture
def foe(bob, campaign):
    return factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5))


def move_url(c):
    return reverse("combat:move", args=[c.pk])


def attack_url(c):
    return reverse("combat:attack", args=[c.pk])


def my_cell(html: str) -> tuple[int, int]:
    (x, y), = re.findall(r'class="cell me"[^>]*data-x="(\d+)" data-y="(\d+)"', html)
    return int(x), int(y)


def test_the_board_page(alice_client, hero, foe):
    response = alice_client.get(reverse("combat:board", args=[hero.pk]))
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert my_cell(html) == (5, 5)
    assert 'data-testid="in-view-Foe"' in html and 'data-testid="attack-Foe"' in html


def test_htmx_asks_for_the_board_fragment_only(alice_client, hero):
    response = alice_client.get(reverse("combat:board", args=[hero.pk]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<body" not in html
    assert 'id="board"' in html and my_cell(html) == (5, 5)


def test_another_players_board_is_not_found(bob_client, hero):
    assert bob_client.get(reverse("combat:board", args=[hero.pk])).status_code == 404
    assert bob_client.get(reverse("combat:board", args=[hero.pk]), **HTMX).status_code == 404


@pytest.mark.parametrize("htmx", [False, True])
def test_another_players_character_cannot_be_moved_or_sent_to_attack(bob_client, hero, foe,
                                                                     htmx):
    extra = HTMX if htmx else {}
    before = state()
    assert bob_client.post(move_url(hero), {"dx": 1, "dy": 0}, **extra).status_code == 404
    assert bob_client.post(attack_url(hero), {"target": foe.pk}, **extra).status_code == 404
    assert state() == before


def test_anonymous_posts_are_sent_to_log_in(client, hero):
    before = state()
    response = client.post(move_url(hero), {"dx": 1, "dy": 0})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert state() == before


@pytest.mark.parametrize("url", [move_url, attack_url])
def test_a_post_without_csrf_token_is_refused(alice, hero, foe, url):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = state()
    data = {"dx": 1, "dy": 0} if url is move_url else {"target": foe.pk}
    assert client.post(url(hero), data, **HTMX).status_code == 403
    assert client.post(url(hero), data).status_code == 403
    assert state() == before


def test_the_csrf_token_of_the_page_header_lets_htmx_post(alice, hero):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(reverse("combat:board", args=[hero.pk])).content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)

    response = client.post(move_url(hero), {"dx": 0, "dy": 1}, HTTP_X_CSRFTOKEN=token, **HTMX)

    assert response.status_code == 200
    assert my_cell(response.content.decode()) == (5, 6)


def test_an_htmx_move_answers_with_the_updated_board(alice_client, hero):
    response = alice_client.post(move_url(hero), {"dx": 1, "dy": -1}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert my_cell(html) == (6, 4)
    assert 'data-testid="error"' not in html
    assert "moves to (6, 4)" in html
    hero.refresh_from_db()
    assert (hero.x, hero.y, EternalWarSheet.objects.get(pk=hero.pk).pa) == (6, 4, 11.5)


def test_an_htmx_move_off_the_board_shows_the_error_and_changes_nothing(alice, alice_client,
                                                                        campaign):
    edge = factories.character(owner=alice, campaign=campaign, name="Edge", at=(0, 0))
    before = state()

    response = alice_client.post(move_url(edge), {"dx": -1, "dy": 0}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert re.search(r'data-testid="error">That cell is off the board\.<', html)
    assert my_cell(html) == (0, 0)
    assert state() == before


@pytest.mark.parametrize("data", [{"dx": 2, "dy": 0}, {"dx": "", "dy": 0}, {}])
def test_an_htmx_move_with_a_bad_form_shows_the_error_and_changes_nothing(alice_client, hero,
                                                                          data):
    before = state()
    response = alice_client.post(move_url(hero), data, **HTMX)
    assert response.status_code == 200 and 'data-testid="error"' in response.content.decode()
    assert state() == before


def test_a_move_without_htmx_redirects_to_the_board(alice_client, hero):
    response = alice_client.post(move_url(hero), {"dx": 1, "dy": 0})

    assert response.status_code == 302
    assert response["Location"] == reverse("combat:board", args=[hero.pk])
    hero.refresh_from_db()
    assert (hero.x, hero.y) == (6, 5)


def test_a_refused_move_without_htmx_redirects_with_the_message(alice, alice_client, campaign):
    edge = factories.character(owner=alice, campaign=campaign, name="Edge", at=(9, 9))
    before = state()

    response = alice_client.post(move_url(edge), {"dx": 1, "dy": 1}, follow=True)

    assert response.redirect_chain == [(reverse("combat:board", args=[edge.pk]), 302)]
    assert "That cell is off the board." in response.content.decode()
    assert state() == before


def test_an_htmx_attack_answers_with_the_board_and_the_log(alice_client, hero, foe):
    response = alice_client.post(attack_url(hero), {"target": foe.pk}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "Hero attacks Foe (Brawl)" in html
    assert EternalWarSheet.objects.get(pk=hero.pk).pa == 10


def test_an_htmx_attack_on_a_distant_target_changes_nothing(alice_client, hero, bob, campaign):
    far = factories.character(owner=bob, campaign=campaign, name="Far", at=(8, 8))
    before = state()
    response = alice_client.post(attack_url(hero), {"target": far.pk}, **HTMX)
    assert 'data-testid="error"' in response.content.decode()
    assert state() == before


def test_a_disincarnated_character_has_an_empty_board(alice_client, hero):
    Character.objects.filter(pk=hero.pk).update(board=None, x=None, y=None)
    html = alice_client.get(reverse("combat:board", args=[hero.pk]), **HTMX).content.decode()
    assert "off the board" in html and 'class="cell' not in html
