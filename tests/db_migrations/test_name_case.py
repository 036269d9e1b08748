"""characters 0009 makes names unique per campaign whatever their case: the duplicates an
existing database may hold ("Aldric", "aldric", "ALDRIC" in one campaign: the old constraint
was case-sensitive) are renamed first, the oldest keeping its name, then the constraint holds.
Runs on SQLite and, with DATABASE_URL set, on PostgreSQL."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from characters.models import Character

BEFORE = [("characters", "0008_ew1_models_moved")]
AFTER = [("characters", "0009_name_unique_ignoring_case")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0009():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


def _names(campaign_id):
    return list(Character.objects.filter(campaign_id=campaign_id).order_by("pk")
                .values_list("name", flat=True))


@pytest.mark.django_db(transaction=True)
def test_later_duplicates_are_renamed_and_the_oldest_keeps_its_name(before_0009):
    old = before_0009
    Campaign, Character_ = (old.get_model("campaigns", "Campaign"),
                            old.get_model("characters", "Character"))
    one, two = Campaign.objects.create(name="One"), Campaign.objects.create(name="Two")
    for name in ("Aldric", "aldric", "Bryn", "ALDRIC", "aldric (2)", "x" * 60, "X" * 60):
        Character_.objects.create(campaign=one, name=name)
    Character_.objects.create(campaign=two, name="aldric")  # another campaign: no clash

    after = _migrate(AFTER)

    # "aldric (2)" was there already: the first later Aldric skips to (3), the next to (4) --
    # and "aldric (2)" itself, now older than nobody it clashes with, keeps its name.
    assert _names(one.pk) == ["Aldric", "aldric (3)", "Bryn", "ALDRIC (4)", "aldric (2)",
                              "x" * 60, "X" * 56 + " (2)"]
    assert _names(two.pk) == ["aldric"]
    assert all(len(n) <= 60 for n in _names(one.pk))
    with pytest.raises(IntegrityError), transaction.atomic():
        # the model as of 0009 (today's has columns later migrations add: the portrait)
        after.get_model("characters", "Character").objects.create(campaign_id=one.pk,
                                                                   name="bRYN")


@pytest.mark.django_db(transaction=True)
def test_back_and_forth_again_changes_nothing(before_0009):
    old = before_0009
    campaign = old.get_model("campaigns", "Campaign").objects.create(name="One")
    for name in ("Aldric", "aldric"):
        old.get_model("characters", "Character").objects.create(campaign=campaign, name=name)
    _migrate(AFTER)
    _migrate(BEFORE)  # the names stay as renamed; the case-sensitive constraint again
    _migrate(AFTER)
    assert _names(campaign.pk) == ["Aldric", "aldric (2)"]
