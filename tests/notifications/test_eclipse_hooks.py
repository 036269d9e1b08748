"""Eclipse Phase's notifications (issue 22, item 4): the GM's healing tells the healed
character's player without naming the GM; a volley's hits are read from its summary (each
target's damage, its morph dead or destroyed)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from eclipse import services
from eclipse.defence import hits_of
from eclipse.models import Sleeve
from notifications.models import Notification
from tests.eclipse.conftest import _local_cache, ep  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_gms_healing_tells_the_player(ep, alice, django_capture_on_commit_callbacks):  # noqa: F811
    Sleeve.objects.filter(owner_id=ep.ash.pk).update(damage=10, wounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.heal(user=ep.gm, character=ep.ash, damage=4)
        services.heal(user=ep.gm, character=ep.ash, damage=0)  # nothing healed: nothing told
    n = Notification.objects.get(kind="healed")
    assert n.user_id == ep.ash.owner_id and n.code == "healed_hidden"
    with translation.override("en"):
        from notifications.kinds import render
        assert render(n.code, n.params) == f"{ep.ash.name} was healed."


def combatant(name, character_id):
    return SimpleNamespace(name=name, character_id=character_id)


def test_a_volleys_hits_are_each_targets():
    ctx = [combatant("Ash", 1), combatant("Brick", 2), combatant("Drone", None)]
    summary = {"target": "Ash", "damage": 6, "condition": "active", "others": [
        {"target": "Brick", "damage": 12, "condition": "destroyed"},
        {"target": "Drone", "damage": 3, "condition": "dead"}]}
    assert hits_of(ctx, summary) == ((1, "attacked"), (2, "killed"))
    assert hits_of(ctx, {"target": "Ash", "damage": 0, "condition": "active"}) == ()
    assert hits_of(ctx, {"cancelled": True}) == ()
