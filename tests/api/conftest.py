"""Helpers of the API tests: clients, seeded dice, and a snapshot of what an action may change."""

from __future__ import annotations

import random

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from campaigns.models import ActionRecord, RollRecord
from characters.models import Character, EternalWarSheet
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
    """Everything a move or an attack could change, read fresh from the database."""
    ids = [c.pk for c in characters]
    return {
        "characters": list(Character.objects.filter(pk__in=ids).order_by("pk").values(
            "pk", "board_id", "x", "y", "first_action_at", "last_action_at", "kills", "deaths")),
        "sheets": list(EternalWarSheet.objects.filter(pk__in=ids).order_by("pk").values(
            "pk", "pa", "pa_anchor", "pv", "pv_anchor", "xp", "level")),
        "actions": ActionRecord.objects.count(),
        "rolls": RollRecord.objects.count(),
    }
