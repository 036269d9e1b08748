"""Races on the encounter and homebrew services (PostgreSQL): a player and the GM pressing
"next" at once advance one turn; two rests granted at once both land (no lost update, never
above the maxima); one name created twice at once gives one character."""

from __future__ import annotations

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord
from characters.models import Character
from encounters import services
from encounters.models import Encounter
from gamerules.errors import RuleError
from homebrew.models import HomebrewSheet
from homebrew.services import homebrew_character_create, rest_grant
from tests.concurrency import Racers, run_together
from tests.encounters.conftest import Table, register_test_system, unregister_test_system
from tests.homebrew.conftest import SPREAD, build_world

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def codes(results):
    return sorted(r.code if isinstance(r, RuleError) else "ok" for r in results)


@pytest.fixture
def enc_system():
    register_test_system()
    yield
    unregister_test_system()


def test_the_player_and_the_gm_pressing_next_at_once_advance_one_turn(enc_system):
    t = Table()
    e = t.start(mode="gm")
    with Racers(2) as racers:
        for _ in range(4):
            before = Encounter.objects.select_related("current__character").get(pk=e.pk)
            player = before.current.character.owner if before.current.character else None
            seen = before.turn_serial
            results = racers.run(
                lambda seen=seen: services.encounter_next_turn(user=t.gm, encounter_id=e.pk,
                                                               turn=seen),
                lambda seen=seen, who=player or t.gm: services.encounter_next_turn(
                    user=who, encounter_id=e.pk, turn=seen))
            assert codes(results) == ["ok", "turn_already_advanced"], results
            assert Encounter.objects.get(pk=e.pk).turn_serial == seen + 1


def test_two_short_rests_granted_at_once_both_land(alice, bob):
    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(hp=10, mp=0)
    before = ActionRecord.objects.count()

    def grant():
        return rest_grant(user=hb.gm, campaign=hb.campaign, kind="short",
                          character_ids=[hb.aria.pk, hb.bran.pk])

    results = run_together(grant, grant)
    assert not any(isinstance(r, Exception) for r in results), results
    for pk in (hb.aria.pk, hb.bran.pk):
        sheet = HomebrewSheet.objects.get(pk=pk)
        assert (sheet.hp, sheet.mp) == (14, 2)  # twice 2 HP and 1 MP: none lost
    assert ActionRecord.objects.count() == before + 4


def test_two_long_rests_at_once_stop_at_the_maxima(alice, bob):
    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(hp=1, mp=0)

    def grant():
        return rest_grant(user=hb.gm, campaign=hb.campaign, kind="long",
                          character_ids=[hb.aria.pk])

    results = run_together(grant, grant)
    gained = sorted(r[0].outcome.hp_gained for r in results)
    assert gained == [0, 19]
    sheet = HomebrewSheet.objects.get(pk=hb.aria.pk)
    assert (sheet.hp, sheet.mp) == (sheet.hp_max, sheet.mp_max)


def test_one_name_created_twice_at_once_gives_one_character(alice, bob):
    hb = build_world(alice, bob)

    def create(user):
        return lambda: homebrew_character_create(user=user, campaign=hb.campaign, name="Zed",
                                                 values=SPREAD, now=timezone.now())

    results = run_together(create(alice), create(bob))
    made = [r for r in results if isinstance(r, Character)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(made) == 1 and [r.code for r in refused] == ["invalid_input"], results
    assert Character.objects.filter(campaign=hb.campaign, name="Zed").count() == 1
    assert HomebrewSheet.objects.filter(character__name="Zed").count() == 1


def test_two_names_differing_by_case_created_at_once(alice, bob):
    """The service refuses "zed" when "Zed" exists (name__iexact); at once, both may pass it,
    and the case-insensitive unique constraint refuses the second insert: name_taken."""
    hb = build_world(alice, bob)

    def create(user, name):
        return lambda: homebrew_character_create(user=user, campaign=hb.campaign, name=name,
                                                 values=SPREAD, now=timezone.now())

    for i in range(5):
        results = run_together(create(alice, f"Zed{i}"), create(bob, f"zed{i}"))
        assert sorted(getattr(r, "key", "made") for r in results) == ["made", "name_taken"]
        assert Character.objects.filter(campaign=hb.campaign,
                                        name__iexact=f"zed{i}").count() == 1
