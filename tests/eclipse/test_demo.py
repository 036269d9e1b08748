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


def test_the_demo_plays_the_first_editions_morphs_and_ratings(alice, bob):
    """Each morph's aptitude maximum; the tables' ratings stored as ranks, so a morph's bonus
    moves them (Ash's blades 40 under SOM 15, in a SOM+5 splicer: 45); Brick's synth carries
    a pain filter as an added implant; nobody defaults to psi assault."""
    from django.utils import timezone

    from eclipse.models import EclipseSheet, MorphTemplate
    from eclipse.selectors import figures_of, loaded_view

    campaign = load_eclipse_demo(gm=factories.user("gm"), players={"alice": alice, "bob": bob},
                                 now=timezone.now())
    maxima = dict(MorphTemplate.objects.filter(campaign=campaign)
                  .values_list("name", "aptitude_max"))
    assert maxima == {"Splicer": 25, "Fury": 30, "Synth": 30, "Octomorph": 30,
                      "Pleasure pod": 30}
    params = campaign.parameters

    def ratings(name):
        character = Character.objects.get(campaign=campaign, name=name)
        return figures_of(loaded_view(character), params)

    ash = ratings("Ash Okonkwo")
    skills = {k.name: k for k in ash.skills}
    assert EclipseSheet.objects.get(character__name="Ash Okonkwo").skills["blades"] == 25
    assert (skills["blades"].rating, skills["kinetic_weapons"].rating) == (45, 55)
    assert not skills["psi_assault"].usable
    brick = ratings("Brick")
    assert brick.pain_filter and not ash.pain_filter
    merc = {k.name: k.rating for k in ratings("Ultimate mercenary").skills}
    assert (merc["fray"], merc["blades"]) == (55, 60)  # fury REF+5, SOM+10
