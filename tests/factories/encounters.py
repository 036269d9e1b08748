"""Encounters and their combatants. ``EncounterFactory`` and ``CombatantFactory`` write the rows
(an encounter being set up, a combatant of a character or a named extra); ``encounter_of``
goes through the services, as the game master would: created, combatants added (initiative
and ranks as the system rolls them), started when asked."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from encounters import services
from encounters.models import Combatant, Encounter

from .core import CampaignFactory


class EncounterFactory(DjangoModelFactory):
    class Meta:
        model = Encounter

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Encounter {n}")


class CombatantFactory(DjangoModelFactory):
    """A combatant of ``encounter``: ``character``'s (named after it) or, without one, a named
    extra; ``position`` in the order as given (0)."""

    class Meta:
        model = Combatant

    encounter = factory.SubFactory(EncounterFactory)
    character = None
    name = factory.LazyAttributeSequence(
        lambda o, n: o.character.name if o.character is not None else f"Extra {n}")


def encounter_of(*, gm, campaign, characters=(), name: str = "Fight", start: bool = False,
                 hidden=(), surprised=(), **start_options) -> Encounter:
    """An encounter of ``campaign`` made by ``gm`` through the services, with ``characters`` as
    combatants (those in ``hidden`` hidden, those in ``surprised`` surprised); started with
    ``start_options`` (``mode="gm"``...) when ``start``."""
    e = services.encounter_create(user=gm, campaign_id=campaign.pk, name=name)
    if characters:
        services.combatants_add(user=gm, encounter_id=e.pk, entries=[
            services.CombatantEntry(character_id=c.pk, hidden=c in hidden,
                                    surprised=c in surprised) for c in characters])
    if start:
        services.encounter_start(user=gm, encounter_id=e.pk, **start_options)
    e.refresh_from_db()
    return e
