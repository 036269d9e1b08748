"""The suicide block follows the campaign's current ``suicide_cooldown_hours`` (issue 8, item
3): the suicide's time is stored and the end derived, so lowering the parameter releases blocks
already running and raising it lengthens them. docs/rules/eternal-war-one-ii.md, "Suicide"."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign
from characters.models import Character
from combat.services import character_reincarnate, character_suicide
from ew1.cooldowns import reincarnation_available_at, suicides_released_by
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW, FakeRandom


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), now=NOW)


def set_cooldown(campaign, hours):
    Campaign.objects.filter(pk=campaign.pk).update(
        rule_parameters={"suicide_cooldown_hours": hours})


def fetch(c):
    return Character.objects.select_related("campaign").get(pk=c.pk)


def test_the_suicide_time_is_stored_and_the_end_derived(alice, hero):
    character_suicide(user=alice, character_id=hero.pk, now=NOW)
    hero = fetch(hero)
    assert hero.suicided_at == NOW
    assert reincarnation_available_at(hero, hero.campaign.parameters) == NOW + timedelta(hours=6)
    set_cooldown(hero.campaign, 2)
    hero = fetch(hero)
    assert hero.ew1.reincarnation_blocked_until == NOW + timedelta(hours=2)


def test_lowering_the_parameter_releases_a_block_already_set(alice, hero):
    character_suicide(user=alice, character_id=hero.pk, now=NOW)
    set_cooldown(hero.campaign, 1)

    character_reincarnate(user=alice, character_id=hero.pk, rng=FakeRandom(2, 2),
                          now=NOW + timedelta(hours=1))

    hero = fetch(hero)
    assert hero.board_id is not None and hero.suicided_at is None
    assert hero.ew1.reincarnation_blocked_until is None


def test_raising_the_parameter_lengthens_a_block_already_set(alice, hero, unchanged):
    character_suicide(user=alice, character_id=hero.pk, now=NOW)
    set_cooldown(hero.campaign, 12)
    with unchanged(), pytest.raises(errors.ReincarnationBlocked) as exc:
        character_reincarnate(user=alice, character_id=hero.pk, rng=FakeRandom(2, 2),
                              now=NOW + timedelta(hours=11, minutes=59))
    assert exc.value.until == NOW + timedelta(hours=12)


def test_zero_hours_lets_a_suicided_character_come_back_at_once(alice, hero):
    set_cooldown(hero.campaign, 0)
    character_suicide(user=alice, character_id=hero.pk, now=NOW)
    character_reincarnate(user=alice, character_id=hero.pk, rng=FakeRandom(2, 2), now=NOW)
    assert fetch(hero).on_board


def test_the_cutoff_finds_exactly_the_released_characters(alice, campaign, hero):
    other = factories.character(owner=alice, campaign=campaign, name="Other", at=(1, 1), now=NOW)
    character_suicide(user=alice, character_id=hero.pk, now=NOW)
    character_suicide(user=alice, character_id=other.pk, now=NOW + timedelta(minutes=1))
    cutoff = suicides_released_by(campaign.parameters, NOW + timedelta(hours=6))
    released = Character.objects.filter(campaign=campaign, suicided_at__lte=cutoff)
    assert [c.name for c in released] == ["Hero"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_existing_blocks_forward():
    """0004 turns each stored block end into a suicide time with the campaign's cooldown of the
    day, so every block ends when it did before; backwards gives the same end again."""
    before = [("characters", "0003_sheet_anchor_defaults")]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    campaign = old.get_model("campaigns", "Campaign").objects.create(
        name="Old", rule_parameters={"suicide_cooldown_hours": 3})
    old_character = old.get_model("characters", "Character").objects
    blocked = old_character.create(campaign=campaign, name="Blocked",
                                   reincarnation_blocked_until=NOW + timedelta(hours=2))
    free = old_character.create(campaign=campaign, name="Free")

    executor = MigrationExecutor(connection)
    executor.migrate(leaves)

    rows = {c.name: c for c in Character.objects.select_related("campaign")}
    assert rows["Blocked"].suicided_at == NOW - timedelta(hours=1)
    assert rows["Blocked"].ew1.reincarnation_blocked_until == NOW + timedelta(hours=2)
    assert rows["Free"].suicided_at is None and rows["Free"].ew1.reincarnation_blocked_until is None

    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    again = old.get_model("characters", "Character").objects
    assert again.get(pk=blocked.pk).reincarnation_blocked_until == NOW + timedelta(hours=2)
    assert again.get(pk=free.pk).reincarnation_blocked_until is None
    MigrationExecutor(connection).migrate(leaves)
