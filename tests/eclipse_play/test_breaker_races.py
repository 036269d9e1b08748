"""Races on PostgreSQL found by breaking the Eclipse Phase play (issue 12): the attack's
resolution writes the target's sleeve and both Moxie pools; the GM's healing and a Moxie spent
from the sheet lock the sheet (eclipse.services). The resolution must lock them too, or one of
the two writes is lost."""

from __future__ import annotations

import threading

import pytest

from eclipse import services
from eclipse.attack import encounter_attack
from gamerules.eclipse_phase import volley
from eclipse.models import Sleeve
from tests.concurrency import run_together
from tests.eclipse_play.conftest import running
from tests.gamerules.fakes import FakeRandom

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_gm_healing_during_an_attack_keeps_both(ep, monkeypatch):
    """Bo lies unconscious (damage 30 = DUR). Ava's shot (8 damage after armour) and the GM's
    healing of 30 race: in either order Bo ends with 8 damage; the attack's write, computed
    from what it read before the healing, must not erase the healing (38)."""
    e, c = running(ep)
    sleeve_id = ep.sheets[ep.bo.pk].sleeve_id
    Sleeve.objects.filter(pk=sleeve_id).update(damage=30)
    read, healed = threading.Event(), threading.Event()
    real = volley.take_hit

    def slow_take_hit(*args, **kwargs):  # the attack has read Bo's sleeve: let the GM in
        read.set()
        healed.wait(2)
        return real(*args, **kwargs)

    monkeypatch.setattr(volley, "take_hit", slow_take_hit)

    def attack():
        return encounter_attack(user=ep.alice, encounter_id=e.pk,
                                combatant_id=c[ep.ava.pk].pk, target_id=c[ep.bo.pk].pk,
                                weapon_id=ep.w.ava_pistol.pk, mode="SS",
                                rng=FakeRandom(10, 5, 5))

    def heal():
        read.wait(5)
        try:
            return services.heal(user=ep.gm, character=ep.bo.pk, damage=30)
        finally:
            healed.set()

    results = run_together(attack, heal)
    assert not any(isinstance(r, Exception) for r in results), results
    assert Sleeve.objects.get(pk=sleeve_id).damage == 8
