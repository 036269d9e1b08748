"""PA and PV regeneration of Eternal War One II sheets: per sheet on read, in bulk in the tick.

Both use ``gamerules.regeneration``'s rule (whole periods from a Unix-seconds anchor), so a tick
that runs twice, late, or never gives the same values as reading the sheet.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Case, F, Value, When
from django.db.models.functions import Least
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from characters.models import EternalWarSheet
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
    """Materialise PA and PV for every Eternal War One II character, in two UPDATE statements per
    campaign (each campaign may set its own periods). Rows already at their cap are left alone:
    reading them later gives the same values. Returns the number of rows updated."""
    ts = unix(now or timezone.now())
    updated = 0
    for campaign in Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR).only(
            "id", "rule_system", "rule_parameters"):
        params = campaign.parameters
        sheets = EternalWarSheet.objects.filter(character__campaign_id=campaign.id)
        updated += _regenerate(sheets.filter(pa__lt=F("pa_max")), "pa", "pa_max", "pa_anchor",
                               params.pa_regen_hours * HOUR, ts)
        updated += _regenerate(sheets.filter(pv__gte=0, pv__lt=F("pv_max")), "pv", "pv_max",
                               "pv_anchor", params.pv_regen_hours * HOUR, ts)
    return updated


def _regenerate(queryset, value: str, cap: str, anchor: str, period: int, ts: int) -> int:
    # Whole periods since the anchor, in integer arithmetic that PostgreSQL and SQLite share.
    periods = (Value(ts) - F(anchor)) / Value(period)
    # PV and max PV are different integer fields: say which type the result has.
    field = queryset.model._meta.get_field(value)
    return queryset.filter(**{f"{anchor}__lte": ts - period}).update(**{
        value: Case(When(**{f"{value}__gte": F(cap)}, then=F(value)),
                    default=Least(F(cap), F(value) + periods, output_field=field),
                    output_field=field),
        anchor: F(anchor) + periods * Value(period),
    })
