"""campaigns 0011 adds co-game masters: the campaigns an existing database holds get no co-GM
(``co_master_ids`` [], from the column's database default, so that a row written by code that
does not know the column gets it too), and oversee as before. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign
from campaigns.permissions import oversees

BEFORE = [("campaigns", "0010_campaign_enemy_state")]
AFTER = [("campaigns", "0011_co_game_masters")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0011():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_existing_campaigns_have_no_co_game_master_and_oversee_as_before(before_0011):
    old = before_0011
    User = old.get_model("auth", "User")
    gm = User.objects.create(username="gm")
    stranger = User.objects.create(username="stranger")
    old.get_model("campaigns", "Campaign").objects.create(name="Old", game_master=gm)

    after = _migrate(AFTER)

    assert list(after.get_model("campaigns", "Campaign").objects.values_list(
        "name", "co_master_ids")) == [("Old", [])]
    # The columns 0011 knows (later migrations add others: accepts_requests in 0013).
    campaign = Campaign.objects.only("game_master", "co_master_ids").get(name="Old")
    users = get_user_model().objects
    assert oversees(users.get(pk=gm.pk), campaign)
    assert not oversees(users.get(pk=stranger.pk), campaign)
