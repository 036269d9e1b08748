"""The daily PA cap on Eternal War One II sheets: the count kept with each spend, what a page
shows, and the beat's reset.

A sheet stores ``pa_spent_today`` with ``pa_spent_day``, the game day (a local date in the
campaign's ``game_day_time_zone``) the count belongs to. Spends and pages derive "spent today"
from that pair (``gamerules.ew1.daily``), so they are exact whether the reset ran or not; the
reset only materialises the new day's 0 in bulk. Source: 000_afeb9d2c9ccd2b72.txt, “Expérience
et Points d'action (PA)” (“12 PA par jour”, the example day “avec 24 PA”).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.readiness import pa_shortfall
from gamerules.ew1.daily import DailySpend, daily_spend, game_day, spent_on
from gamerules.ew1.params import EW1Parameters


def charge_pa(sheet: EternalWarSheet, cost, *, params: EW1Parameters, now: datetime
              ) -> DailySpend:
    """Take ``cost`` PA from the locked ``sheet`` (in memory; the caller saves it in the same
    transaction) and count them against the game day's ``daily_pa_cap``. Both checks run before
    any change, so a refused spend changes nothing. Raises NotEnoughPA, DailyPACapReached."""
    if shortfall := pa_shortfall(sheet, cost):  # the same check the pages' buttons show
        raise shortfall
    spend = daily_spend(cost=cost, spent=sheet.pa_spent_today, spent_day=sheet.pa_spent_day,
                        today=game_day(now, params.game_day_time_zone), cap=params.daily_pa_cap)
    sheet.pa -= cost
    sheet.pa_spent_today, sheet.pa_spent_day = spend.after, spend.day
    return spend


def pa_spent_today(sheet: EternalWarSheet, *, params: EW1Parameters, now: datetime) -> Decimal:
    """PA the sheet spent on the game day of ``now`` (no query)."""
    return spent_on(game_day(now, params.game_day_time_zone), spent=sheet.pa_spent_today,
                    spent_day=sheet.pa_spent_day)


def daily_pa_reset(*, now: datetime | None = None, campaigns: list[int] | None = None) -> int:
    """Set the daily PA count of every sheet whose count belongs to an earlier game day to 0 for
    today: one query for the campaigns, then one UPDATE per time zone in use, whatever the number
    of characters. Idempotent: a second run, or two beats at once, find nothing older than today
    (on PostgreSQL an UPDATE waiting on a row re-checks ``day < today`` once it gets it). A beat
    down for days resets once when it comes back. Returns the number of sheets reset;
    ``campaigns``, when given, receives the campaigns of the time zones where some sheet was
    (the beat task announces their boards)."""
    now = now or timezone.now()
    by_zone: dict[str, list[int]] = defaultdict(list)
    for campaign in Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR).only(
            "id", "rule_system", "rule_parameters"):
        by_zone[campaign.parameters.game_day_time_zone].append(campaign.id)
    reset = 0
    for zone, campaign_ids in sorted(by_zone.items()):
        today = game_day(now, zone)
        count = EternalWarSheet.objects.filter(
            pa_spent_day__lt=today,
            character_id__in=Character.objects.filter(campaign_id__in=campaign_ids).values("id"),
        ).update(pa_spent_today=Decimal(0), pa_spent_day=today)
        reset += count
        if count and campaigns is not None:
            campaigns.extend(campaign_ids)
    return reset
