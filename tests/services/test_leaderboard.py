"""The campaign leaderboard: player characters ranked by kills, level or attacks, in one query."""

import pytest

from characters.leaderboard import leaderboard
from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.services import piece_create
from tests import factories
from tests.services.conftest import NOW


def ranked(campaign, order):
    return [c.name for c in leaderboard(campaign=campaign, order=order)]


@pytest.fixture
def ranks(alice, bob, campaign):
    rows = {"Ada": (3, 1, 2, 150, 10), "Bea": (5, 4, 1, 50, 20), "Cid": (3, 0, 4, 500, 5)}
    for name, (kills, deaths, level, xp, attacks) in rows.items():
        c = factories.character(owner=alice if name != "Bea" else bob, campaign=campaign,
                                name=name, now=NOW)
        Character.objects.filter(pk=c.pk).update(kills=kills, deaths=deaths, attacks=attacks)
        EternalWarSheet.objects.filter(pk=c.pk).update(level=level, xp=xp)
    piece_create(campaign=campaign, kind="creature", name="Beast", x=0, y=0, pv=10,
                 fixed_reduction=0, now=NOW)
    Character.objects.filter(name="Beast").update(kills=99, attacks=99)
    return campaign


def test_by_kills_then_fewer_deaths(ranks):
    assert ranked(ranks, "kills") == ["Bea", "Cid", "Ada"]


def test_by_level_then_xp(ranks):
    assert ranked(ranks, "level") == ["Cid", "Ada", "Bea"]


def test_by_attacks(ranks):
    assert ranked(ranks, "attacks") == ["Bea", "Ada", "Cid"]


def test_an_unknown_order_falls_back_to_kills(ranks):
    assert ranked(ranks, "dance") == ranked(ranks, "kills")


def test_only_player_characters_of_the_campaign(ranks, alice):
    other = factories.campaign(name="Other")
    factories.character(owner=alice, campaign=other, name="Elsewhere", now=NOW)
    assert "Beast" not in ranked(ranks, "kills") and "Elsewhere" not in ranked(ranks, "kills")
    assert ranked(other, "kills") == ["Elsewhere"]


@pytest.mark.parametrize("size", [3, 30])
def test_one_query_whatever_the_size(alice, bob, django_assert_num_queries, size):
    campaign = factories.campaign(name="Big", width=10, height=10)
    for i in range(size):
        factories.character(owner=alice if i % 2 else bob, campaign=campaign, name=f"C{i:02}",
                            seed=i, now=NOW)
    with django_assert_num_queries(1):
        rows = [(c.name, c.owner.username, c.ew1.level, c.kills)
                for c in leaderboard(campaign=campaign, order="level")]
    assert len(rows) == size
