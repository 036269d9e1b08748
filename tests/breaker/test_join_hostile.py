"""Joining an encounter as a hostile player (encounters.roster.encounter_join): two joins at
once on PostgreSQL (two characters of one player, or one character twice from two tabs) end
with one combatant; after joining, what the GM hides stays hidden from the joiner on the page,
the fragment and the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from encounters import services
from encounters.models import Combatant
from tests.concurrency import run_together
from tests.encounters.conftest import NOW
from tests.encounters.test_join import JoinTable


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second", ["cassian", "cyra"])
def test_two_joins_at_once_make_one_combatant(second):
    t = JoinTable()
    t.allow()

    def join(character):
        return lambda: services.encounter_join(user=t.carol, encounter_id=t.encounter.pk,
                                               character_id=character.pk, now=NOW)

    results = run_together(join(t.cyra), join(getattr(t, second)))

    joined = [r for r in results if isinstance(r, Combatant)]
    refused = [r for r in results if not isinstance(r, Combatant)]
    assert len(joined) == 1 and len(refused) == 1, results
    assert getattr(refused[0], "code", None) == "already_joined", refused
    mine = Combatant.objects.filter(encounter=t.encounter, character__owner=t.carol)
    assert mine.count() == 1


@pytest.mark.django_db
def test_a_joiner_sees_nothing_the_gm_hides(client):
    t = JoinTable()
    hidden = t.c["Orc"]
    Combatant.objects.filter(pk=hidden.pk).update(hidden=True, name="Lurking Assassin")
    t.allow()
    services.encounter_join(user=t.carol, encounter_id=t.encounter.pk, character_id=t.cyra.pk,
                            now=NOW)
    client.force_login(t.carol)
    for url in (f"/encounters/{t.encounter.pk}/",):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client.get(url, **headers).content.decode()
            assert "Cyra" in html and "Lurking Assassin" not in html
            assert f"enc-row-{hidden.pk}" not in html
    api = APIClient()
    api.force_login(t.carol)
    body = api.get(f"/api/encounters/{t.encounter.pk}/").content.decode()
    assert "Cyra" in body and "Lurking Assassin" not in body
