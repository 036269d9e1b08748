"""The Eclipse Phase demo: the squad, opponents, weapons of every firing mode, an encounter ready
to run; loading twice adds nothing."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from characters.models import Character
from eclipse.demo import DEMO_CAMPAIGN, load_eclipse_demo
from eclipse.models import WeaponTemplate
from encounters.models import Combatant, Encounter
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_demo_loads_once_with_every_firing_mode_and_an_encounter(alice, bob):
    from django.utils import timezone
    gm = factories.user("gm")
    players = {"alice": alice, "bob": bob}
    campaign = load_eclipse_demo(gm=gm, players=players, now=timezone.now())
    assert load_eclipse_demo(gm=gm, players=players, now=timezone.now()) == campaign
    assert Campaign.objects.filter(name=DEMO_CAMPAIGN).count() == 1
    weapons = list(WeaponTemplate.objects.filter(campaign=campaign))
    modes = set().union(*(w.modes for w in weapons))
    assert {m.value for m in modes} == {"SS", "SA", "BF", "FA"}
    assert any(w.beam for w in weapons) and any(w.blast for w in weapons)
    assert any(w.melee for w in weapons)
    kinds = set(Character.objects.filter(campaign=campaign, eclipse__sleeve__isnull=False)
                .values_list("eclipse__sleeve__kind", flat=True))
    assert kinds == {"biomorph", "synthmorph", "pod"}
    encounter = Encounter.objects.get(campaign=campaign)
    assert encounter.state == Encounter.State.SETUP
    names = dict(Combatant.objects.filter(encounter=encounter)
                 .values_list("name", "turns_per_round"))
    assert names["Brick"] == 2 and names["Mercenary 1"] == 2 and names["Ash Okonkwo"] == 1
    assert len(names) == 6
