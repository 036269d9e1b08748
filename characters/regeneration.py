"""PA and PV regeneration of Eternal War One II sheets: per sheet on read, in bulk in the tick.

Both use ``gamerules.regeneration``'s rule (whole periods from a Unix-seconds anchor), so a tick
that runs twice, late, or never gives the same values as reading the sheet.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
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
    sheet.pv, sheet.pv_anchor = int(pv.value), pv.anchor  # whole PV: accrued on an int
    return pa, pv


def regenerate_all(*, now: datetime | None = None) -> int:
    """Materialise PA and PV for every Eternal War One II character in ONE UPDATE statement,
    whatever the number of campaigns (each campaign may set its own periods: they come in as a
    list of values joined on the campaign), touching only the rows owed at least one period:
    a tick with nothing owed writes nothing. Rows at their cap are left alone: reading them
    later gives the same values. Two queries in all (the campaigns, the UPDATE). Returns the
    number of rows updated."""
    ts = unix(now or timezone.now())
    periods = {}
    for campaign in Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR).only(
            "id", "rule_system", "rule_parameters"):
        params = campaign.parameters
        periods[campaign.id] = (int(params.pa_regen_hours) * HOUR,
                                int(params.pv_regen_hours) * HOUR)
    if not periods:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(tick_sql(periods, ts, vendor=connection.vendor))
        return cursor.rowcount


def tick_sql(periods: dict[int, tuple[int, int]], ts: int, *, vendor: str) -> str:
    """The tick's UPDATE for ``periods`` (campaign id: (PA period, PV period), seconds) at Unix
    time ``ts``, in PostgreSQL's or SQLite's dialect (both run UPDATE ... FROM over a VALUES
    list, whose columns are column1, column2... in both). Every number is an int formatted here,
    never text from outside.

    A row is owed PA when ``pa < pa_max`` and its anchor is at least one period old (PV: the
    same, and not disincarnated, ``pv >= 0``); its value gains the whole periods elapsed, capped,
    and its anchor moves by as many periods (``gamerules.regeneration.accrue``). The same test
    with the shortest periods of all campaigns, on the sheet's own columns, comes first: the
    database drops the rows owed nothing before it joins them to their campaign's periods.
    When every campaign has the same periods there is no join at all."""
    sheet, character = (connection.ops.quote_name(m._meta.db_table)
                        for m in (EternalWarSheet, Character))
    least = "LEAST" if vendor == "postgresql" else "MIN"
    rows = ", ".join(f"({int(c)}, {int(pa)}, {int(pv)})" for c, (pa, pv) in periods.items())
    min_pa = min(pa for pa, _ in periods.values())
    min_pv = min(pv for _, pv in periods.values())
    ts = int(ts)

    def owed(pa_period, pv_period):
        return (f"(pa < pa_max AND pa_anchor <= {ts} - {pa_period})",
                f"(pv >= 0 AND pv < pv_max AND pv_anchor <= {ts} - {pv_period})")

    def assignments(pa_period, pv_period):
        pa_owed, pv_owed = owed(pa_period, pv_period)
        pa_steps, pv_steps = (f"(({ts} - pa_anchor) / {pa_period})",
                              f"(({ts} - pv_anchor) / {pv_period})")
        return (f"pa = CASE WHEN {pa_owed} THEN {least}(pa_max, pa + {pa_steps}) ELSE pa END, "
                f"pa_anchor = CASE WHEN {pa_owed} THEN pa_anchor + {pa_steps} * {pa_period}"
                f" ELSE pa_anchor END, "
                f"pv = CASE WHEN {pv_owed} THEN {least}(pv_max, pv + {pv_steps}) ELSE pv END, "
                f"pv_anchor = CASE WHEN {pv_owed} THEN pv_anchor + {pv_steps} * {pv_period}"
                f" ELSE pv_anchor END")

    any_pa, any_pv = owed(min_pa, min_pv)
    if len(set(periods.values())) == 1:
        # Every campaign has the same periods (the usual case): constants and no join, the
        # statement one would write by hand (every sheet table row is an EW1 character's).
        return f"UPDATE {sheet} SET {assignments(min_pa, min_pv)} WHERE {any_pa} OR {any_pv}"
    pa_owed, pv_owed = owed("p.pa_period", "p.pv_period")
    return (
        f"UPDATE {sheet} SET {assignments('p.pa_period', 'p.pv_period')} "
        f"FROM {character} c JOIN (SELECT column1 AS campaign_id, column2 AS pa_period,"
        f" column3 AS pv_period FROM (VALUES {rows}) AS v) AS p"
        f" ON p.campaign_id = c.campaign_id "
        f"WHERE c.id = {sheet}.character_id AND ({any_pa} OR {any_pv}) "
        f"AND ({pa_owed} OR {pv_owed})")
