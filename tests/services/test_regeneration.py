from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, RuleSystem
from ew1.models import EternalWarSheet
from ew1.regeneration import campaign_periods, regenerate_all, sheet_refresh, unix
from gamerules.errors import ParameterError
from tests import factories
from tests.services.conftest import NOW

T = unix(NOW)
H = 3600


def make(owner, campaign, name="R", **sheet):
    """A character whose PA and PV anchors are NOW, with ``sheet`` values."""
    return factories.character(owner=owner, campaign=campaign, name=name, now=NOW, **sheet).ew1


def read(sheet):
    return EternalWarSheet.objects.get(pk=sheet.pk)


def refreshed(sheet, campaign, at):
    s = read(sheet)
    sheet_refresh(s, params=campaign.parameters, now=at)
    return s


# Reading a sheet: exact at any moment, with no tick.

@pytest.mark.parametrize(("elapsed", "pa", "pa_anchor"), [
    (timedelta(0), Decimal("5.5"), T),
    (timedelta(hours=1, minutes=59, seconds=59), Decimal("5.5"), T),
    (timedelta(hours=2), Decimal("6.5"), T + 2 * H),
    (timedelta(hours=2, minutes=59), Decimal("6.5"), T + 2 * H),
    (timedelta(hours=5, minutes=59), Decimal("7.5"), T + 4 * H),
])
def test_reading_a_sheet_gives_one_pa_per_whole_two_hours(alice, campaign, elapsed, pa,
                                                          pa_anchor):
    sheet = make(alice, campaign, pa=Decimal("5.5"))
    s = refreshed(sheet, campaign, NOW + elapsed)
    assert (s.pa, s.pa_anchor) == (pa, pa_anchor)
    assert read(sheet).pa == Decimal("5.5")  # reading writes nothing


def test_reading_a_sheet_gives_one_pv_per_whole_six_hours(alice, campaign):
    sheet = make(alice, campaign, pv=40)
    assert refreshed(sheet, campaign, NOW + timedelta(hours=5, minutes=59)).pv == 40
    assert refreshed(sheet, campaign, NOW + timedelta(hours=6)).pv == 41
    assert refreshed(sheet, campaign, NOW + timedelta(hours=13)).pv == 42


def test_the_accrual_says_when_the_next_pa_comes(alice, campaign):
    sheet = make(alice, campaign, pa=Decimal("3"))
    pa, _ = sheet_refresh(read(sheet), params=campaign.parameters, now=NOW + timedelta(hours=3))
    assert (pa.gained, pa.next_at) == (1, T + 4 * H)


# The bulk tick.

def test_the_tick_gives_exactly_what_is_owed(alice, campaign):
    sheet = make(alice, campaign, pa=Decimal("5.5"), pv=50)
    assert regenerate_all(now=NOW + timedelta(hours=13)) == 1  # one sheet, PA and PV at once
    s = read(sheet)
    assert (s.pa, s.pa_anchor) == (Decimal("11.5"), T + 12 * H)
    assert (s.pv, s.pv_anchor) == (52, T + 12 * H)


def test_a_tick_before_a_whole_period_changes_nothing(alice, campaign):
    sheet = make(alice, campaign, pa=Decimal("5.5"), pv=50)
    before = read(sheet)
    assert regenerate_all(now=NOW + timedelta(hours=1, minutes=59)) == 0
    s = read(sheet)
    assert (s.pa, s.pa_anchor, s.pv, s.pv_anchor) == (
        before.pa, before.pa_anchor, before.pv, before.pv_anchor)


def test_running_the_tick_twice_changes_nothing_more(alice, campaign):
    sheet = make(alice, campaign, pa=Decimal("2"), pv=70)
    at = NOW + timedelta(hours=7, minutes=12)
    regenerate_all(now=at)
    once = read(sheet)
    assert regenerate_all(now=at) == 0
    twice = read(sheet)
    assert (twice.pa, twice.pa_anchor, twice.pv, twice.pv_anchor) == (
        once.pa, once.pa_anchor, once.pv, once.pv_anchor) == (Decimal("5"), T + 6 * H, 71, T + 6 * H)


@pytest.mark.parametrize(("t1", "t2"), [(1, 3), (3, 7), (2.5, 2.9), (5, 30), (0.5, 13.2)])
def test_two_ticks_give_what_one_late_tick_gives(alice, campaign, t1, t2):
    sheet = make(alice, campaign, pa=Decimal("1.5"), pv=60)
    results = []
    for ticks in ((t1, t2), (t2,)):
        with transaction.atomic():
            for hours in ticks:
                regenerate_all(now=NOW + timedelta(hours=hours))
            s = read(sheet)
            results.append((s.pa, s.pa_anchor, s.pv, s.pv_anchor))
            transaction.set_rollback(True)
    assert results[0] == results[1]


def test_a_day_without_ticks_fills_pa_to_the_cap_and_keeps_whole_periods(alice, campaign):
    sheet = make(alice, campaign, pa=Decimal("0.5"))
    regenerate_all(now=NOW + timedelta(hours=25, minutes=30))
    s = read(sheet)
    assert (s.pa, s.pa_anchor) == (Decimal("12"), T + 24 * H)


def test_a_sheet_at_its_cap_is_left_alone(alice, campaign):
    sheet = make(alice, campaign)
    assert regenerate_all(now=NOW + timedelta(days=3)) == 0
    s = read(sheet)
    assert (s.pa, s.pa_anchor, s.pv, s.pv_anchor) == (12, T, 100, T)


def test_pv_regenerate_up_to_the_maximum(alice, campaign):
    sheet = make(alice, campaign, pv=99, pv_max=104)
    regenerate_all(now=NOW + timedelta(hours=6))
    assert read(sheet).pv == 100  # pv_max follows the level, not the base
    regenerate_all(now=NOW + timedelta(days=10))
    assert read(sheet).pv == 104


def test_pv_at_0_regenerate(alice, campaign):
    sheet = make(alice, campaign, pv=0)
    regenerate_all(now=NOW + timedelta(hours=6))
    assert read(sheet).pv == 1


def test_a_disincarnated_character_gets_no_pv(alice, campaign):
    sheet = make(alice, campaign, pv=-3, pa=Decimal("4"))
    regenerate_all(now=NOW + timedelta(days=2))
    s = read(sheet)
    assert (s.pv, s.pv_anchor) == (-3, T)
    assert s.pa == 12  # PA still come back
    assert refreshed(sheet, campaign, NOW + timedelta(days=4)).pv == -3


def test_each_campaign_has_its_own_periods(alice):
    fast = factories.campaign(name="Fast", pa_regen_hours=1, pv_regen_hours=1)
    slow = factories.campaign(name="Slow")
    f = make(alice, fast, "F", pa=Decimal("0"), pv=10)
    s = make(alice, slow, "S", pa=Decimal("0"), pv=10)
    regenerate_all(now=NOW + timedelta(hours=3, minutes=30))
    f, s = read(f), read(s)
    assert (f.pa, f.pa_anchor, f.pv) == (Decimal("3"), T + 3 * H, 13)
    assert (s.pa, s.pa_anchor, s.pv) == (Decimal("1"), T + 2 * H, 10)


def test_the_tick_ignores_other_rule_systems(alice, campaign):
    factories.campaign(name="Eclipse", rule_system=RuleSystem.ECLIPSE_PHASE)
    sheet = make(alice, campaign, pa=Decimal("0"))
    regenerate_all(now=NOW + timedelta(hours=2))
    assert read(sheet).pa == 1


def test_the_tick_reads_each_campaigns_periods_from_its_overrides(db):
    """Issue 9: the periods read as plain values, parameters built once per distinct override
    text; the same overrides in another key order, or none at all, give the same periods."""
    default = factories.campaign(name="Default")
    fast = factories.campaign(name="Fast", pa_regen_hours=1, pv_regen_hours=3)
    also_fast = factories.campaign(name="Also fast", pv_regen_hours=3, pa_regen_hours=1)
    slow_pv = factories.campaign(name="Slow PV", pv_regen_hours=12)
    factories.campaign(name="Eclipse", rule_system=RuleSystem.ECLIPSE_PHASE)
    assert campaign_periods() == {default.pk: (2 * H, 6 * H), fast.pk: (H, 3 * H),
                                  also_fast.pk: (H, 3 * H), slow_pv.pk: (2 * H, 12 * H)}


def test_the_tick_refuses_a_campaign_with_invalid_periods(alice, campaign):
    """Overrides written past the form (the form refuses them) stop the tick with the
    parameters' own error, as reading the campaign's parameters would."""
    Campaign.objects.filter(pk=campaign.pk).update(rule_parameters={"pa_regen_hours": 0})
    with pytest.raises(ParameterError):
        regenerate_all(now=NOW)


@pytest.mark.parametrize("count", [3, 50])
def test_the_tick_runs_two_queries_whatever_the_number_of_characters(
        alice, campaign, django_assert_num_queries, count):
    for i in range(count):
        make(alice, campaign, f"C{i}", pa=Decimal(i % 12), pv=50 + i % 40)
    with django_assert_num_queries(2):  # SELECT the campaigns, one UPDATE for PA and PV
        regenerate_all(now=NOW + timedelta(hours=7))
    got = {name: (pa, pv) for name, pa, pv in
           EternalWarSheet.objects.values_list("character__name", "pa", "pv")}
    assert got == {f"C{i}": (min(12, i % 12 + 3), 50 + i % 40 + 1) for i in range(count)}


@pytest.mark.parametrize("campaigns", [3, 30])
def test_the_tick_runs_one_update_whatever_the_number_of_campaigns(alice, campaigns,
                                                                   django_assert_num_queries):
    """Issue 9: one UPDATE for every campaign, each with its own period (it was one per
    campaign)."""
    for i in range(campaigns):
        make(alice, factories.campaign(name=f"Camp {i}", pa_regen_hours=i % 3 + 1,
                                       pv_regen_hours=i % 2 + 1), "C", pa=Decimal("0"), pv=50)
    with django_assert_num_queries(2):  # SELECT the campaigns, one UPDATE for all of them
        assert regenerate_all(now=NOW + timedelta(hours=6)) == campaigns
    got = sorted(EternalWarSheet.objects.values_list("character__campaign__name", "pa", "pv"))
    assert got == sorted((f"Camp {i}", 6 // (i % 3 + 1), 50 + 6 // (i % 2 + 1))
                         for i in range(campaigns))
    with django_assert_num_queries(2):
        assert regenerate_all(now=NOW + timedelta(hours=6)) == 0  # nothing owed: no row written


# The tick and reading a sheet always agree.

@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pa_halves=st.integers(0, 24), pv=st.integers(-5, 104), pv_max=st.integers(100, 104),
       pa_age=st.integers(0, 30 * H), pv_age=st.integers(0, 30 * H),
       elapsed=st.integers(0, 3 * 24 * H), pa_hours=st.integers(1, 5), pv_hours=st.integers(1, 8))
def test_the_tick_and_reading_a_sheet_agree(alice, pa_halves, pv, pv_max, pa_age, pv_age,
                                            elapsed, pa_hours, pv_hours):
    with transaction.atomic():
        campaign = factories.campaign(name="Agree", pa_regen_hours=pa_hours,
                                      pv_regen_hours=pv_hours)
        sheet = make(alice, campaign, pa=Decimal(pa_halves) / 2, pv=pv, pv_max=pv_max,
                     pa_anchor=T - pa_age, pv_anchor=T - pv_age)
        at = NOW + timedelta(seconds=elapsed)
        expected = refreshed(sheet, campaign, at)

        regenerate_all(now=at)
        stored = read(sheet)
        again = refreshed(sheet, campaign, at)
        transaction.set_rollback(True)

    assert (stored.pa, stored.pv) == (expected.pa, expected.pv)
    assert (again.pa, again.pa_anchor, again.pv) == (expected.pa, expected.pa_anchor, expected.pv)
