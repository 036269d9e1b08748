"""A pending attack is stored as its typed order (gamerules.eclipse_phase.volley.order_to_json,
versioned); a prompt stored before the schema (version 1, the untyped payload without
``version``) is still read and resolved the same (issue 20, item 1)."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord
from eclipse.attack import encounter_attack
from encounters import services as enc
from encounters.models import PendingReaction
from gamerules.eclipse_phase.volley import ORDER_VERSION, order_from_json
from tests.eclipse_play.conftest import running
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _shot_and_answer(ep, *, legacy: bool):
    e, c = running(ep)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="SS", range_band="short", rng=FakeRandom(), now=ep.now)
    stored = PendingReaction.objects.get(pk=step.reaction.pk)
    assert stored.payload["version"] == ORDER_VERSION
    assert order_from_json(stored.payload) == step.order
    if legacy:
        stored.payload = {k: v for k, v in stored.payload.items() if k != "version"}
        stored.save(update_fields=["payload"])
    enc.answer_reaction(user=ep.gm, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(45, 30, 7, 8, 50), now=ep.now)
    return ActionRecord.objects.get(kind="eclipse_attack").summary["result"]


@pytest.mark.parametrize("legacy", [False, True])
def test_a_prompt_stored_before_the_schema_resolves_as_a_new_one(ep, legacy):
    """The same dice give the same outcome: 45 beats the dodge's 30, DV 7+8+5 through the
    vest's 4 less AP 2: 18 damage, two wounds."""
    result = _shot_and_answer(ep, legacy=legacy)
    assert result["hits"] == 1 and result["damage"] == 18 and result["after"]["wounds"] == 2
    assert result["shots"][0]["attack"]["reading"] == 45 and result["defence"] == "dodge"
