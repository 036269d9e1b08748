"""A character without its sheet (saved around the admin, or by an older admin that allowed it)
never makes a page or an API call answer 500 (issue 8, item 1): a piece without a sheet is left
off the board, the character's own pages answer 404 ``sheet_missing``."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.services import piece_create
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def scene(alice, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))
    door = piece_create(campaign=campaign, kind="door", name="Door", x=6, y=5, pv=50,
                        fixed_reduction=3)
    EternalWarSheet.objects.filter(pk=door.pk).delete()
    client, api = Client(), APIClient()
    client.force_login(alice)
    api.force_authenticate(alice)
    return hero, door, client, api


def test_a_piece_without_a_sheet_is_left_off_the_board(scene, campaign):
    hero, _door, client, api = scene
    for url, headers in [(reverse("combat:board", args=[hero.pk]), {}),
                         (reverse("combat:board", args=[hero.pk]), HTMX),
                         (reverse("characters:detail", args=[hero.pk]), {}),
                         (reverse("campaigns:leaderboard", args=[campaign.pk]), {}),
                         (reverse("magic:spells", args=[hero.pk]), {})]:
        response = client.get(url, **headers)
        assert response.status_code == 200, url
    assert "Door" not in client.get(reverse("combat:board", args=[hero.pk])).content.decode()
    board = api.get(f"/api/characters/{hero.pk}/board/")
    assert board.status_code == 200 and "Door" not in board.content.decode()


def test_attacking_a_piece_without_a_sheet_is_a_clear_refusal(scene):
    hero, door, _, api = scene
    response = api.post(f"/api/characters/{hero.pk}/attack/",
                        {"target": door.pk, "kind": "brawl"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_target"


def test_a_character_without_a_sheet_answers_sheet_missing(scene, alice):
    hero, _, client, api = scene
    EternalWarSheet.objects.filter(pk=hero.pk).delete()

    for path in (f"/api/characters/{hero.pk}/", f"/api/characters/{hero.pk}/board/"):
        response = api.get(path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "sheet_missing"
    assert api.get("/api/characters/").json() == []
    for name in ("characters:detail", "combat:board", "ew1:level-up"):
        assert client.get(reverse(name, args=[hero.pk])).status_code == 404, name
    assert client.get(reverse("characters:list")).status_code == 200
    assert api.post(f"/api/characters/{hero.pk}/move/", {"dx": 1, "dy": 0},
                    format="json").status_code < 500
    assert Character.objects.filter(pk=hero.pk).exists()


def test_a_faction_member_without_a_sheet_leaves_the_faction_pages_working(scene, alice,
                                                                          campaign):
    from factions.models import Faction, Membership

    hero, _, client, _ = scene
    other = factories.character(owner=alice, campaign=campaign, name="Other", at=(1, 1))
    faction = Faction.objects.create(campaign=campaign, name="Wolves", leader=hero)
    Membership.objects.create(faction=faction, character=hero)
    Membership.objects.create(faction=faction, character=other)
    EternalWarSheet.objects.filter(pk=other.pk).delete()
    for name in ("factions:detail", "factions:manage"):
        response = client.get(reverse(name, args=[faction.pk]))
        assert response.status_code == 200, name


def test_a_zone_spell_over_a_piece_without_a_sheet_is_cast(scene, campaign):
    from magic.models import Spell
    from magic.spellbook import spell_grant

    hero, door, _, api = scene
    EternalWarSheet.objects.filter(pk=hero.pk).update(skills={"magic": 95})
    boom = Spell.objects.create(campaign=campaign, name="Boom", tier="zone", effect="damage",
                                dice="1d6", range_cells=5, zone_radius=1)
    spell_grant(character=hero, spell=boom, source="granted")
    response = api.post(f"/api/characters/{hero.pk}/cast/",
                        {"spell": boom.pk, "x": door.x, "y": door.y}, format="json")
    assert response.status_code == 200
    targets = [t["name"] for t in response.json()["action"]["summary"]["targets"]]
    assert "Door" not in targets  # no sheet, no target
