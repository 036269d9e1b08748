"""Helpers of the API tests: clients, seeded dice, and a snapshot of what an action may change."""

from __future__ import annotations

import random

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from campaigns.models import ActionRecord, RollRecord
from characters.models import Character
from ew1.equipment import item_grant
from ew1.models import CharacterDraft, EternalWarSheet, ItemInstance, ItemTemplate
from tests import factories


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Throttle counters in process memory: query counts then do not depend on whether the
    cache is the database (default) or Redis (CI)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "api-tests"}}
    caches["default"].clear()


@pytest.fixture
def api():
    """An anonymous client; ``api_as(user)`` gives one logged in by session."""
    return APIClient()


@pytest.fixture
def api_as(db):
    def make(user, *, csrf: bool = False) -> APIClient:
        client = APIClient(enforce_csrf_checks=csrf)
        assert client.login(username=user.username, password=factories.PASSWORD)
        return client
    return make


@pytest.fixture
def seeded_dice(monkeypatch):
    """Make the services' ``random.SystemRandom()`` a seeded generator (per call)."""
    def seed(value: int = 1234):
        monkeypatch.setattr("combat.services.random.SystemRandom",
                            lambda: random.Random(value))
    seed()
    return seed


def snapshot(*characters) -> dict:
    """Everything an action could change, read fresh from the database: the characters, their
    sheets and items, every draft, the journal's size."""
    ids = [c.pk for c in characters]
    return {
        "characters": list(Character.objects.filter(pk__in=ids).order_by("pk").values(
            "pk", "board_id", "x", "y", "first_action_at", "last_action_at", "kills", "deaths",
            "attacks", "dodges", "suicided_at")),
        "sheets": list(EternalWarSheet.objects.filter(pk__in=ids).order_by("pk").values(
            "pk", "pa", "pa_anchor", "pv", "pv_anchor", "xp", "level", "skills", "skill_points",
            "characteristic_points", "skills_raised", "FOR", "DEF", "TAI", "INT", "DEX", "LUK")),
        "items": list(ItemInstance.objects.filter(owner_id__in=ids).order_by("pk").values(
            "pk", "owner_id", "template_id", "equipped", "modifier_values")),
        "drafts": list(CharacterDraft.objects.order_by("pk").values(
            "pk", "user_id", "campaign_id", "name", "rolled", "deltas", "rerolls", "band")),
        "actions": ActionRecord.objects.count(),
        "rolls": RollRecord.objects.count(),
    }


def forced(user) -> APIClient:
    """A client authenticated without a session (no CSRF check, no login query)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def assert_refused(response, status: int, code: str, before: dict, *characters):
    """The answer is ``status`` with ``code`` and a message, and the database did not change."""
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert snapshot(*characters) == before


def template(name: str, kind: str, **fields) -> ItemTemplate:
    """A catalogue item available in every campaign."""
    return ItemTemplate.objects.create(name=name, kind=kind, **fields)


def sword(**fields) -> ItemTemplate:
    return template("Sword", "melee", damage_dice="1d8", **fields)


def bow(**fields) -> ItemTemplate:
    return template("Bow", "ranged", damage_dice="1d6", range_cells=4, **fields)


def potion(**fields) -> ItemTemplate:
    return template("Potion", "misc", heal_dice="2d6", **fields)


def give(character, item_template, *, equipped: bool = False) -> ItemInstance:
    item = item_grant(character=character, template=item_template)
    if equipped:
        ItemInstance.objects.filter(pk=item.pk).update(equipped=True)
        item.equipped = True
    return item


def give_many(character, count: int) -> list[ItemInstance]:
    """``count`` unequipped armours: inventory that no action needs."""
    return [give(character, template(f"Rag {character.pk}-{i}", "armour", armour=1))
            for i in range(count)]
