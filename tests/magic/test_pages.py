"""Spell pages: the board's spell panel, casting through htmx, the spellbook with its offer."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from ew1.models import EternalWarSheet
from magic.models import KnownSpell, SpellOffer
from tests.gamerules.fakes import FakeRandom
from tests.magic.conftest import (DEF_FAIL, HTMX, TEN_NAMES, character, fetch, snapshot,
                                  teach)

HIT = 55


def panel_forms(html: str) -> dict[str, str]:
    """Each spell form of the board's panel, by spell name."""
    return dict(re.findall(r'<form[^>]*data-testid="spell-([^"]+)">(.*?)</form>', html, re.S))


def targets(form: str) -> list[str]:
    return [name.strip() for name in re.findall(r"<option [^>]*>([^(<]+)\(", form)]


@pytest.fixture
def scripted(monkeypatch):
    """The next cast from a page rolls these faces."""
    def script(*faces):
        monkeypatch.setattr("magic.casting.random.SystemRandom", lambda: FakeRandom(*faces))
    return script


@pytest.fixture
def armed(mage, foe, spells):
    teach(mage, spells["Boule de feu"], spells["Bouclier"])
    return mage


# --- the board's spell panel -------------------------------------------------------------------

def test_the_board_lists_known_spells_with_their_targets_in_range(alice_client, armed, bob,
                                                                   campaign):
    character(bob, campaign, "Far", (10, 5))  # 5 cells: Boule de feu only

    response = alice_client.get(reverse("combat:board", args=[armed.pk]))

    forms = panel_forms(response.content.decode())
    assert set(forms) == {"Boule de feu", "Bouclier"}
    # A damage spell is not offered on its own caster.
    assert targets(forms["Boule de feu"]) == ["Foe", "Far"]
    assert targets(forms["Bouclier"]) == ["yourself", "Foe"]


def test_a_character_without_spells_says_so(alice_client, mage):
    response = alice_client.get(reverse("combat:board", args=[mage.pk]))

    assert "No spell known." in response.content.decode()


def test_casting_through_htmx_returns_the_board_with_the_cast_in_the_log(
        alice_client, armed, foe, spells, scripted):
    scripted(HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    response = alice_client.post(reverse("magic:cast", args=[armed.pk]),
                                 {"spell": spells["Boule de feu"].pk, "x": 6, "y": 5}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="board"')
    assert 'class="log-cast"' in html
    assert "Mage casts Boule de feu" in html and "Foe −5 PV" in html
    assert fetch(foe).ew1.pv == 95


def test_casting_without_htmx_redirects_to_the_board(alice_client, armed, spells, scripted):
    scripted(HIT + 1)

    response = alice_client.post(reverse("magic:cast", args=[armed.pk]),
                                 {"spell": spells["Boule de feu"].pk, "x": 6, "y": 5})

    assert response.status_code == 302
    assert response["Location"] == reverse("combat:board", args=[armed.pk])


def test_a_refused_cast_shows_the_reason_and_changes_nothing(alice_client, armed, spells):
    before = snapshot()

    response = alice_client.post(reverse("magic:cast", args=[armed.pk]),
                                 {"spell": spells["Météore"].pk, "x": 6, "y": 5}, **HTMX)

    assert response.status_code == 200
    assert 'data-testid="error"' in response.content.decode()
    assert snapshot() == before


def test_a_malformed_cast_is_refused(alice_client, armed):
    before = snapshot()

    response = alice_client.post(reverse("magic:cast", args=[armed.pk]), {"spell": "x"}, **HTMX)

    assert "Choose a spell and a target." in response.content.decode()
    assert snapshot() == before


def test_another_players_character_cannot_cast(bob_client, armed, spells):
    before = snapshot()

    response = bob_client.post(reverse("magic:cast", args=[armed.pk]),
                               {"spell": spells["Boule de feu"].pk, "x": 6, "y": 5}, **HTMX)

    assert response.status_code == 404
    assert snapshot() == before


def test_casting_needs_the_csrf_token(alice, armed, spells):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = snapshot()

    response = client.post(reverse("magic:cast", args=[armed.pk]),
                           {"spell": spells["Boule de feu"].pk, "x": 6, "y": 5}, **HTMX)

    assert response.status_code == 403
    assert snapshot() == before


# --- the spellbook page ------------------------------------------------------------------------

@pytest.fixture
def leveled(mage, spells):
    EternalWarSheet.objects.filter(pk=mage.pk).update(level=2, xp=101)
    teach(mage, spells["Soin"])
    return mage


def offered(html: str) -> list[str]:
    return re.findall(r'data-testid="offer-([^"]+)"', html)


def test_the_spellbook_shows_the_same_offer_on_every_visit(alice_client, leveled):
    url = reverse("magic:spells", args=[leveled.pk])

    first = alice_client.get(url).content.decode()
    second = alice_client.get(url).content.decode()

    assert len(offered(first)) == 5
    assert offered(second) == offered(first)
    assert "Soin" not in offered(first)
    assert 'data-testid="known-Soin"' in first
    assert "Level 1: choose a spell to learn" in first
    assert SpellOffer.objects.count() == 1


def test_learning_from_the_offer(alice_client, leveled):
    url = reverse("magic:spells", args=[leveled.pk])
    alice_client.get(url)
    offer = SpellOffer.objects.get()
    pick = offer.spells.order_by("name").first()

    response = alice_client.post(url, {"offer": offer.pk, "spell": pick.pk})

    assert response.status_code == 302 and response["Location"] == url
    assert KnownSpell.objects.filter(character=leveled, spell=pick).exists()
    page = alice_client.get(url).content.decode()
    assert f'data-testid="known-{pick.name}"' in page
    assert "Level 2: choose a spell to learn" in page


def test_declining_the_offer(alice_client, leveled):
    url = reverse("magic:spells", args=[leveled.pk])
    alice_client.get(url)
    offer = SpellOffer.objects.get()

    response = alice_client.post(url, {"offer": offer.pk})

    assert response.status_code == 302
    offer.refresh_from_db()
    assert offer.resolved_at is not None and offer.chosen is None
    assert KnownSpell.objects.filter(character=leveled).count() == 1


def test_a_full_spellbook_asks_which_spell_to_forget(alice_client, leveled, spells):
    teach(leveled, *(spells[n] for n in TEN_NAMES if n != "Soin"))
    url = reverse("magic:spells", args=[leveled.pk])
    html = alice_client.get(url).content.decode()
    offer = SpellOffer.objects.get()
    pick = offer.spells.first()
    assert 'name="replace"' in html

    refused = alice_client.post(url, {"offer": offer.pk, "spell": pick.pk})
    assert refused.status_code == 200 and 'data-testid="error"' in refused.content.decode()

    alice_client.post(url, {"offer": offer.pk, "spell": pick.pk,
                            "replace": spells["Soin"].pk})
    names = set(KnownSpell.objects.filter(character=leveled)
                .values_list("spell__name", flat=True))
    assert pick.name in names and "Soin" not in names and len(names) == 10


def test_answering_an_offer_twice_shows_an_error(alice_client, leveled):
    url = reverse("magic:spells", args=[leveled.pk])
    alice_client.get(url)
    offer = SpellOffer.objects.get(level=1)
    alice_client.post(url, {"offer": offer.pk})

    response = alice_client.post(url, {"offer": offer.pk})

    assert response.status_code == 200
    assert 'data-testid="error"' in response.content.decode()


def test_another_users_spellbook_is_not_found(bob_client, leveled):
    url = reverse("magic:spells", args=[leveled.pk])
    before = snapshot()

    assert bob_client.get(url).status_code == 404
    assert bob_client.post(url, {"offer": 1}).status_code == 404
    assert snapshot() == before  # not even an offer drawn


def test_answering_needs_the_csrf_token(alice, leveled):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("magic:spells", args=[leveled.pk])
    client.get(url)
    offer = SpellOffer.objects.get()

    response = client.post(url, {"offer": offer.pk})

    assert response.status_code == 403
    offer.refresh_from_db()
    assert offer.resolved_at is None


def test_the_spellbook_lists_active_shields(alice_client, mage, spells):
    from datetime import timedelta

    from django.utils import timezone

    from magic.models import ActiveEffect

    now = timezone.now()
    ActiveEffect.objects.create(target=mage, spell=spells["Bouclier"], amount=3,
                                expires_at=now + timedelta(hours=2))
    ActiveEffect.objects.create(target=mage, spell=spells["Protection"], amount=5,
                                expires_at=now - timedelta(seconds=1))

    html = alice_client.get(reverse("magic:spells", args=[mage.pk])).content.decode()

    assert "Bouclier: −3 damage" in html
    assert "Protection" not in html.split("Active effects")[1]


# --- pinned query counts -----------------------------------------------------------------------

@pytest.fixture(params=[1, 10], ids=["1-known", "10-known"])
def bookish(request, leveled, foe, spells):
    """The mage knows ``param`` spells (Boule de feu among them) and has a stored offer."""
    names = ["Boule de feu", *[n for n in TEN_NAMES if n not in ("Soin", "Boule de feu")]]
    EternalWarSheet.objects.filter(pk=leveled.pk).update(pa=100, pa_max=100)
    KnownSpell.objects.filter(character=leveled).delete()
    teach(leveled, *(spells[n] for n in names[:request.param]))
    return leveled


# Session, user; the character with campaign, board, sheet and owner; savepoint, the answered
# levels, the stored offer, release; the spellbook; the offer's spells; the active effects.
SPELLBOOK_QUERIES = 10
# Session, user; savepoint; the known spell; the pieces in the zone; every sheet the cast may
# change locked in one statement (caster and zone), their equipped items; the pieces in view
# with factions and shields; the sheets in one UPDATE, the characters in another; the action,
# its rolls; release; then the board fragment (character, items, log, rolls, pieces in view,
# spells). Issue 9 locks everything at once (24 -> 22); issue 10 loads and writes once (19).
CAST_QUERIES = 19


def test_spellbook_page_queries(alice_client, bookish, django_assert_num_queries):
    url = reverse("magic:spells", args=[bookish.pk])
    alice_client.get(url)  # the offer is drawn once

    with django_assert_num_queries(SPELLBOOK_QUERIES):
        response = alice_client.get(url)

    assert response.status_code == 200
    assert response.content.decode().count('data-testid="known-') == KnownSpell.objects.count()


def test_cast_action_queries(alice_client, bookish, spells, scripted, django_assert_num_queries):
    scripted(HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL)
    url = reverse("magic:cast", args=[bookish.pk])

    with django_assert_num_queries(CAST_QUERIES):
        response = alice_client.post(url, {"spell": spells["Boule de feu"].pk, "x": 6, "y": 5},
                                     **HTMX)

    assert 'class="log-cast"' in response.content.decode()
