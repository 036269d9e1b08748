import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from characters.models import Character
from tests import factories
from tests.pages.conftest import HTMX, state


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.mark.parametrize("url", ["characters:list", "characters:detail", "combat:board"])
def test_anonymous_visitors_are_sent_to_log_in(client, hero, url):
    path = reverse(url, args=[hero.pk] if url != "characters:list" else [])
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={path}"


def test_another_players_sheet_is_not_found(bob_client, hero):
    assert bob_client.get(reverse("characters:detail", args=[hero.pk])).status_code == 404
    assert bob_client.get(reverse("characters:detail", args=[hero.pk]), **HTMX).status_code == 404


def test_a_missing_sheet_is_not_found(alice_client, db):
    assert alice_client.get(reverse("characters:detail", args=[987654])).status_code == 404


def test_signup_creates_a_user_and_logs_in(client, db):
    response = client.post(reverse("signup"), {
        "username": "carol", "email": "carol@example.invalid",
        "password1": "a-long-test-password-42", "password2": "a-long-test-password-42"})

    assert response.status_code == 302 and response["Location"] == reverse("characters:list")
    assert get_user_model().objects.filter(username="carol").exists()
    page = client.get(reverse("characters:list"))
    assert page.status_code == 200 and page.context["user"].username == "carol"


def test_signup_with_mismatched_passwords_creates_nobody(client, db):
    response = client.post(reverse("signup"), {
        "username": "carol", "email": "carol@example.invalid",
        "password1": "a-long-test-password-42", "password2": "other-pass-43"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="carol").exists()


def test_a_character_is_created_from_the_list_page(alice, alice_client, campaign):
    page = alice_client.get(reverse("characters:list"))
    assert page.status_code == 200 and campaign.name in page.content.decode()

    rolled = alice_client.post(reverse("characters:list"), {"campaign": campaign.pk, "name": "Nova"})
    assert rolled.status_code == 302  # to the draft: the rolled characteristics, to confirm
    draft_page = alice_client.get(rolled["Location"])
    assert draft_page.status_code == 200 and "Nova" in draft_page.content.decode()
    assert not Character.objects.filter(name="Nova").exists()
    confirm = re.search(r'action="([^"]*/confirm/)"', draft_page.content.decode()).group(1)

    response = alice_client.post(confirm)

    nova = Character.objects.get(name="Nova")
    assert (nova.owner, nova.campaign, nova.ew1.level, nova.board_id) == (
        alice, campaign, 0, campaign.board.pk)
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:detail", args=[nova.pk])
    listing = alice_client.get(reverse("characters:list")).content.decode()
    assert "Nova" in listing


def test_a_refused_creation_shows_why_and_creates_nothing(alice_client, hero, campaign):
    before = state()
    response = alice_client.post(reverse("characters:list"),
                                 {"campaign": campaign.pk, "name": "hero"})
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert state() == before


def test_creation_without_csrf_token_is_refused(alice, campaign):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = state()
    response = client.post(reverse("characters:list"), {"campaign": campaign.pk, "name": "Nova"})
    assert response.status_code == 403
    assert state() == before


def test_the_sheet_shows_gauges_and_the_log(alice_client, hero):
    response = alice_client.get(reverse("characters:detail", args=[hero.pk]))

    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    for gauge in ("pv", "pa", "xp"):
        assert re.search(rf'<progress class="{gauge}"[^>]*>', html), gauge
    assert re.search(r'<progress class="pv" max="100" value="100">', html)
    assert re.search(r'<progress class="pa" max="12(\.0)?" value="12(\.0)?">', html)
    assert 'id="combat-log"' in html and "Hero" in html
    assert 'class="log-create"' in html


def test_the_sheet_fragment_for_htmx(alice_client, hero):
    response = alice_client.get(reverse("characters:detail", args=[hero.pk]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<body" not in html
    assert 'id="sheet"' in html and "<progress" in html
