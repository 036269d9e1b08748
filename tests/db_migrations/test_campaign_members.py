"""campaigns 0013 adds members, invitations and requests to join: the campaigns an existing
database holds take no requests (``accepts_requests`` False, from the column's database
default, so that a row written by code that does not know the column gets it too) and admit
as before: an open one anyone, a closed one only whoever oversees it. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign
from campaigns.permissions import admits

BEFORE = [("campaigns", "0012_alter_campaignmaster_one_co_master_per_user")]
AFTER = [("campaigns", "0013_members_invitations_requests")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0013():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_existing_campaigns_take_no_requests_and_admit_as_before(before_0013):
    old = before_0013
    User = old.get_model("auth", "User")
    gm = User.objects.create(username="gm")
    stranger = User.objects.create(username="stranger")
    OldCampaign = old.get_model("campaigns", "Campaign")
    OldCampaign.objects.create(name="Open", game_master=gm, is_open=True)
    OldCampaign.objects.create(name="Closed", game_master=gm, is_open=False)

    after = _migrate(AFTER)

    assert list(after.get_model("campaigns", "Campaign").objects.order_by("name").values_list(
        "name", "is_open", "accepts_requests")) == [("Closed", False, False),
                                                    ("Open", True, False)]
    users = get_user_model().objects
    gm, stranger = users.get(pk=gm.pk), users.get(pk=stranger.pk)
    closed, open_ = Campaign.objects.get(name="Closed"), Campaign.objects.get(name="Open")
    assert admits(stranger, open_) and not admits(stranger, closed)
    assert admits(gm, closed)
