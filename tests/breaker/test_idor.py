"""Bob reaches for Alice's objects through every page and API endpoint, by their own URL or by
mixing his character's id with her item, offer, spell or draft ids. Every attempt is a 404 (a
stranger's object looks like a missing one) or a refusal, and nothing changes."""

from __future__ import annotations

import pytest

from tests.breaker.conftest import HTMX, api_logged_in, logged_in

# (method, url template, data). {a}: Alice's character, {b}: Bob's; {a_sword}... Alice's items.
PAGES_OF_ALICE = [
    ("get", "/characters/{a}/", None),
    ("get", "/characters/{a}/board/", None),
    ("post", "/characters/{a}/move/", {"dx": 1, "dy": 0}),
    ("post", "/characters/{a}/attack/", {"target": "{b}", "kind": "brawl"}),
    ("post", "/characters/{a}/game/", {}),
    ("post", "/characters/{a}/suicide/", {}),
    ("post", "/characters/{a}/reincarnate/", {}),
    ("get", "/characters/{a}/level-up/", None),
    ("post", "/characters/{a}/level-up/", {"skill_brawl": 1}),
    ("post", "/characters/{a}/items/{a_sword}/equip/", {}),
    ("post", "/characters/{a}/items/{a_sword}/unequip/", {}),
    ("post", "/characters/{a}/items/{a_potion}/use/", {}),
    ("get", "/characters/{a}/spells/", None),
    ("post", "/characters/{a}/spells/", {"offer": "{a_offer}", "spell": "{a_offered}"}),
    ("post", "/characters/{a}/cast/", {"spell": "{a_spell}", "x": 3, "y": 2}),
    ("get", "/characters/drafts/{a_draft}/", None),
    ("post", "/characters/drafts/{a_draft}/reroll/", {}),
    ("post", "/characters/drafts/{a_draft}/redistribute/",
     {"FOR": 1, "DEF": -1, "TAI": 0, "INT": 0, "DEX": 0, "LUK": 0}),
    ("post", "/characters/drafts/{a_draft}/confirm/", {}),
    # Bob's own character with Alice's item or offer.
    ("post", "/characters/{b}/items/{a_sword}/equip/", {}),
    ("post", "/characters/{b}/items/{a_sword}/unequip/", {}),
    ("post", "/characters/{b}/items/{a_potion}/use/", {}),
    ("post", "/characters/{b}/spells/", {"offer": "{a_offer}", "spell": "{a_offered}"}),
]

API_OF_ALICE = [
    ("get", "/api/characters/{a}/", None),
    ("get", "/api/characters/{a}/board/", None),
    ("post", "/api/characters/{a}/move/", {"dx": 1, "dy": 0}),
    ("post", "/api/characters/{a}/attack/", {"target": "{b}", "kind": "brawl"}),
    ("post", "/api/characters/{a}/game/", {}),
    ("post", "/api/characters/{a}/suicide/", {}),
    ("post", "/api/characters/{a}/reincarnate/", {}),
    ("post", "/api/characters/{a}/level-up/", {"skills": {"brawl": 1}}),
    ("post", "/api/characters/{a}/items/{a_sword}/equip/", {}),
    ("post", "/api/characters/{a}/items/{a_sword}/unequip/", {}),
    ("post", "/api/characters/{a}/items/{a_potion}/use/", {}),
    ("get", "/api/characters/{a}/spells/", None),
    ("post", "/api/characters/{a}/spells/offer/", {"offer": "{a_offer}", "spell": "{a_offered}"}),
    ("post", "/api/characters/{a}/cast/", {"spell": "{a_spell}", "x": 3, "y": 2}),
    ("get", "/api/drafts/{a_draft}/", None),
    ("post", "/api/drafts/{a_draft}/reroll/", {}),
    ("post", "/api/drafts/{a_draft}/redistribute/", {"deltas": {"FOR": 1, "DEF": -1}}),
    ("post", "/api/drafts/{a_draft}/confirm/", {}),
    ("post", "/api/characters/{b}/items/{a_sword}/equip/", {}),
    ("post", "/api/characters/{b}/items/{a_sword}/unequip/", {}),
    ("post", "/api/characters/{b}/items/{a_potion}/use/", {}),
    ("post", "/api/characters/{b}/spells/offer/", {"offer": "{a_offer}", "spell": "{a_offered}"}),
]


def ids(world) -> dict:
    from magic.models import Spell
    return {"a": world.a.pk, "b": world.b.pk, "a_sword": world.a_sword.pk,
            "a_potion": world.a_potion.pk, "a_offer": world.a_offer.pk,
            "a_offered": world.a_offer.spells.order_by("pk").first().pk,
            "a_spell": world.a_spell.pk, "a_draft": world.a_draft.pk,
            "b_spell": world.b_spell.pk, "b_known": world.b_known.pk,
            "a_known": world.a_known.pk, "any_spell": Spell.objects.order_by("pk").first().pk}


def fill(value, world):
    table = ids(world)
    if isinstance(value, str):
        if value.startswith("{") and value.endswith("}") and value[1:-1] in table:
            return table[value[1:-1]]
        return value.format(**table)
    if isinstance(value, dict):
        return {k: fill(v, world) for k, v in value.items()}
    return value


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("method,url,data", PAGES_OF_ALICE,
                         ids=[f"{m} {u}" for m, u, _ in PAGES_OF_ALICE])
def test_pages_hide_another_players_objects(world, unchanged, method, url, data, htmx):
    client = logged_in(world.bob)
    extra = HTMX if htmx else {}
    with unchanged():
        response = getattr(client, method)(fill(url, world), fill(data, world) or {}, **extra)
    assert response.status_code == 404
    assert b"Aline" not in response.content


@pytest.mark.parametrize("method,url,data", API_OF_ALICE,
                         ids=[f"{m} {u}" for m, u, _ in API_OF_ALICE])
def test_api_hides_another_players_objects(world, unchanged, method, url, data):
    client = api_logged_in(world.bob)
    with unchanged():
        response = getattr(client, method)(fill(url, world), fill(data, world), format="json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"
    assert b"Aline" not in response.content


# Bob casts with his own character but a spell he does not know, or with an id that is not a
# spell id (a KnownSpell row's id): refused, nothing spent.
CAST_IDS = ["a_spell", "a_known"]


@pytest.mark.parametrize("which", CAST_IDS)
def test_cast_with_a_spell_one_does_not_know_is_refused(world, unchanged, which):
    from magic.models import KnownSpell
    spell_id = ids(world)[which]
    if KnownSpell.objects.filter(character=world.b, spell_id=spell_id).exists():
        pytest.skip("the id happens to be a spell Bob knows")
    client = api_logged_in(world.bob)
    with unchanged():
        response = client.post(f"/api/characters/{world.b.pk}/cast/",
                               {"spell": spell_id, "x": 2, "y": 2}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "spell_unknown"
    page = logged_in(world.bob)
    with unchanged():
        response = page.post(f"/characters/{world.b.pk}/cast/",
                             {"spell": spell_id, "x": 2, "y": 2}, **HTMX)
    assert response.status_code == 200
    assert b'data-testid="error"' in response.content


def test_offer_answer_with_a_spell_offered_to_someone_else_is_refused(world, unchanged):
    """Bob's own offer, but a spell only Alice was offered."""
    alice_only = set(world.a_offer.spells.values_list("pk", flat=True)) - set(
        world.b_offer.spells.values_list("pk", flat=True))
    spell_id = min(alice_only) if alice_only else world.a_spell.pk
    client = api_logged_in(world.bob)
    with unchanged():
        response = client.post(f"/api/characters/{world.b.pk}/spells/offer/",
                               {"offer": world.b_offer.pk, "spell": spell_id}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_offer"


def test_attacking_a_piece_of_another_campaign_is_refused(world, unchanged):
    from tests import factories
    other = factories.campaign(name="Other campaign")
    stranger = factories.character(owner=world.alice, campaign=other, name="Faraway", at=(3, 3))
    client = api_logged_in(world.bob)
    with unchanged():
        response = client.post(f"/api/characters/{world.b.pk}/attack/",
                               {"target": stranger.pk, "kind": "throw"}, format="json")
    assert response.status_code == 400, response.content
