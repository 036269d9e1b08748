"""PA and PV regeneration of Eternal War One II sheets: per sheet on read, in bulk in the tick.

Both use ``gamerules.regeneration``'s rule (whole periods from a Unix-seconds anchor), so a tick
that runs twice, late, or never gives the same values as reading the sheet.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import BigIntegerField, Case, F, Q, Value, When
from django.db.models.functions import Least
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import Character, EternalWarSheet
from gamerules.ew1.params import EW1Parameters
from gamerules.regeneration import Accrual, accrue

HOUR = 3600


def unix(now: datetime) -> int:
    return int(now.timestamp())


def sheet_refresh(sheet: EternalWarSheet, *, params: EW1Parameters, now: datetime
                  ) -> tuple[Accrual, Accrual]:
    """Bring ``sheet``'s PA and PV up to ``now`` in memory (the caller saves). PV regenerates only
    while the character is not disincarnated (PV >= 0). Returns the PA and PV accruals."""
    ts = unix(now)
    pa = accrue(value=sheet.pa, cap=sheet.pa_max, anchor=sheet.pa_anchor, now=ts,
                period=params.pa_regen_hours * HOUR)
    sheet.pa, sheet.pa_anchor = pa.value, pa.anchor
    if sheet.pv >= 0:
        pv = accrue(value=sheet.pv, cap=sheet.pv_max, anchor=sheet.pv_anchor, now=ts,
                    period=params.pv_regen_hours * HOUR)
    else:
        pv = Accrual(sheet.pv, ts, 0, None)
    sheet.pv, sheet.pv_anchor = pv.value, pv.anchor
    return pa, pv


def regenerate_all(*, now: datetime | None = None) -> int:
    """Materialise PA and PV for every Eternal War One II character: one UPDATE statement per
    campaign (each campaign may set its own periods), touching only the rows owed something.
    Rows at their cap are left alone: reading them later gives the same values. Returns the
    number of rows updated."""
    ts = unix(now or timezone.now())
    updated = 0
    for campaign in Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR).only(
            "id", "rule_system", "rule_parameters"):
        params = campaign.parameters
        pa = _Resource("pa", "pa_max", "pa_anchor", params.pa_regen_hours * HOUR, ts,
                       Q(pa__lt=F("pa_max")))
        pv = _Resource("pv", "pv_max", "pv_anchor", params.pv_regen_hours * HOUR, ts,
                       Q(pv__gte=0, pv__lt=F("pv_max")))
        # A subquery on the characters keeps the sheet conditions in the UPDATE's own WHERE
        # (a join filter makes Django rewrite it as "id IN (SELECT ... sheet JOIN character)").
        updated += EternalWarSheet.objects.filter(
            pa.owed | pv.owed,
            character_id__in=Character.objects.filter(campaign_id=campaign.id).values("id"),
        ).update(**pa.assignments(), **pv.assignments())
    return updated


class _Resource:
    """The SQL of one regenerating column: which rows are owed at least one step, and the new
    value and anchor (whole periods, integer arithmetic that PostgreSQL and SQLite share)."""

    def __init__(self, value: str, cap: str, anchor: str, period: int, ts: int, below_cap: Q):
        self.value, self.cap, self.anchor, self.period = value, cap, anchor, period
        self.owed = below_cap & Q(**{f"{anchor}__lte": ts - period})
        self.periods = (Value(ts) - F(anchor)) / Value(period)

    def assignments(self) -> dict:
        field = EternalWarSheet._meta.get_field(self.value)  # PV and max PV differ in type
        return {
            self.value: Case(When(self.owed, then=Least(F(self.cap), F(self.value) + self.periods,
                                                        output_field=field)),
                             default=F(self.value), output_field=field),
            self.anchor: Case(When(self.owed, then=F(self.anchor) + self.periods * Value(
                self.period)), default=F(self.anchor), output_field=BigIntegerField()),
        }
