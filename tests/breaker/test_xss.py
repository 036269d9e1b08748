"""Markup in every name a player or a game master can choose (campaign, character, item, spell,
draft, faction) is escaped on every page that shows it, the journal and error messages included."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from characters.models import Character
from ew1.models import ItemTemplate
from factions.models import Faction
from magic.models import Spell
from tests.breaker.conftest import HTMX, api_logged_in, logged_in

XSS = "<script>alert(1)</script>"
RAW = b"<script>alert"
ESCAPED = b"&lt;script&gt;alert(1)&lt;/script&gt;"


@pytest.fixture
def marked(world):
    """The world with markup in every name, and a journal that names them."""
    w = world
    Campaign.objects.filter(pk=w.campaign.pk).update(name=f"Camp {XSS}",
                                                     description=f"Desc {XSS}")
    Character.objects.filter(pk=w.a.pk).update(name=f"A {XSS}")
    Character.objects.filter(pk=w.b.pk).update(name=f"B {XSS}")
    Character.objects.filter(pk=w.creature.pk).update(name=f"Wolf {XSS}")
    for template in ItemTemplate.objects.all():
        ItemTemplate.objects.filter(pk=template.pk).update(name=f"Item {template.pk} {XSS}")
    for spell in Spell.objects.all():
        Spell.objects.filter(pk=spell.pk).update(name=f"Spell {spell.pk} {XSS}")
    Faction.objects.create(campaign=w.campaign, name=f"Faction {XSS}", leader=w.a,
                           description=f"About {XSS}")
    alice, bob = api_logged_in(w.alice), api_logged_in(w.bob)
    assert alice.post(f"/api/characters/{w.a.pk}/attack/", {"target": w.b.pk, "kind": "brawl"},
                      format="json").status_code == 200
    assert bob.post(f"/api/characters/{w.b.pk}/cast/", {"spell": w.b_spell.pk, "x": 2, "y": 2},
                    format="json").status_code == 200
    assert alice.post(f"/api/characters/{w.a.pk}/items/{w.a_potion.pk}/use/",
                      format="json").status_code == 200
    assert alice.post(f"/api/characters/{w.a.pk}/items/{w.a_sword.pk}/equip/",
                      format="json").status_code == 200
    offered = w.a_offer.spells.first()
    assert alice.post(f"/api/characters/{w.a.pk}/spells/offer/",
                      {"offer": w.a_offer.pk, "spell": offered.pk},
                      format="json").status_code == 200
    # A draft named with markup.
    assert alice.post("/api/drafts/", {"campaign": w.campaign.pk, "name": f"D {XSS}"},
                      format="json").status_code == 201
    return w


def pages(w):
    from ew1.models import CharacterDraft
    draft = CharacterDraft.objects.get(user=w.alice, campaign=w.campaign)
    faction = Faction.objects.get(campaign=w.campaign)
    return [
        "/characters/", f"/characters/{w.a.pk}/", f"/characters/{w.a.pk}/board/",
        f"/characters/{w.a.pk}/level-up/", f"/characters/{w.a.pk}/spells/",
        f"/characters/drafts/{draft.pk}/", f"/campaigns/{w.campaign.pk}/leaderboard/",
        "/factions/", f"/factions/campaign/{w.campaign.pk}/", f"/factions/{faction.pk}/",
        f"/factions/{faction.pk}/manage/",
    ]


def test_every_page_escapes_markup_in_names(marked):
    client = logged_in(marked.alice)
    shown = 0
    for url in pages(marked):
        for extra in ({}, HTMX):
            response = client.get(url, **extra)
            assert response.status_code == 200, url
            assert RAW not in response.content, url
            shown += ESCAPED in response.content
    assert shown >= 16  # the names are on the pages, escaped


@pytest.mark.parametrize("url", ["/characters/{a}/move/", "/characters/{a}/attack/",
                                 "/characters/{a}/cast/", "/characters/{a}/game/"])
def test_action_fragments_and_their_errors_escape_names(marked, url):
    """The board fragment after an action, with its result or its error (which may name the
    target or the spell)."""
    w = marked
    body = {"dx": 0, "dy": 1, "target": w.b.pk, "kind": "melee", "spell": w.a_spell.pk,
            "x": 3, "y": 2}
    response = logged_in(w.alice).post(url.format(a=w.a.pk), body, **HTMX)
    assert response.status_code == 200
    assert RAW not in response.content
    assert ESCAPED in response.content


def test_error_messages_naming_a_spell_are_escaped(marked):
    """Learning a spell one already knows: the message names the character and the spell."""
    w = marked
    from ew1.models import EternalWarSheet
    from magic.spellbook import spell_offer_pending
    EternalWarSheet.objects.filter(pk=w.a.pk).update(level=5)
    response = logged_in(w.alice).post(f"/characters/{w.a.pk}/spells/",
                                       {"offer": 999999, "spell": w.a_spell.pk})
    assert RAW not in response.content
    w.a.refresh_from_db()
    offer = spell_offer_pending(character=w.a)
    if offer is not None:
        response = logged_in(w.alice).post(
            f"/characters/{w.a.pk}/spells/",
            {"offer": offer.pk, "spell": offer.spells.first().pk, "replace": w.a_spell.pk})
        assert RAW not in response.content


def test_admin_lists_escape_names(marked, client):
    from tests import factories
    client.force_login(factories.user("gm", is_staff=True, is_superuser=True))
    for url in ["/admin/campaigns/campaign/", "/admin/characters/character/",
                "/admin/ew1/itemtemplate/", "/admin/magic/spell/",
                "/admin/campaigns/actionrecord/", f"/admin/characters/character/{marked.a.pk}/"
                                                  "change/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert RAW not in response.content, url


def test_the_api_returns_names_as_data(marked):
    """JSON is not HTML: the names come back verbatim, served as application/json."""
    response = api_logged_in(marked.alice).get(f"/api/characters/{marked.a.pk}/")
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["name"] == f"A {XSS}"
