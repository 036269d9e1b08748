"""PA and PV regeneration of Eternal War One II sheets: per sheet on read, in bulk in the tick.

Both use ``gamerules.regeneration``'s rule (whole periods from a Unix-seconds anchor), so a tick
that runs twice, late, or never gives the same values as reading the sheet.
"""

from __future__ import annotations

import json
from datetime import datetime

from django.db import connection
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from campaigns.models import Campaign, RuleSystem
from campaigns.rule_systems import parameters_for
from characters.models import Character
from ew1.models import EternalWarSheet
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


def regenerate_all(*, now: datetime | None = None, changed: list[int] | None = None) -> int:
    """Materialise PA and PV for every Eternal War One II character in ONE UPDATE statement,
    whatever the number of campaigns and their periods, touching only the rows owed at least one
    period: a tick with nothing owed writes nothing. Rows at their cap are left alone: reading
    them later gives the same values. Two queries in all (the campaigns, the UPDATE). On
    PostgreSQL the tick never waits for a row lock, so it cannot deadlock with an action (see
    ``tick_sql``). Returns the number of rows updated; ``changed``, when given, receives their
    character ids (the statement returns them: the beat task announces the pages that show
    them, ew1.tasks)."""
    ts = unix(now or timezone.now())
    periods = campaign_periods()
    if not periods:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(tick_sql(periods, ts, vendor=connection.vendor,
                                returning=changed is not None))
        if changed is None:
            return cursor.rowcount
        ids = [row[0] for row in cursor.fetchall()]
    changed.extend(ids)
    return len(ids)


def campaign_periods() -> dict[int, tuple[int, int]]:
    """Campaign id: (PA period, PV period) in seconds, for every Eternal War One II campaign.
    One query of plain values, the overrides read as their JSON text and the parameters built
    once per distinct text (most campaigns share the defaults): with 100 campaigns about 1 ms
    instead of 2 with model instances, against 15-150 ms for ``make bench``'s no-op tick (a
    scan of every sheet) at 100,000-200,000 sheets. Raises ParameterError on a campaign's
    invalid overrides, as reading them would."""
    built: dict[str | None, tuple[int, int]] = {}
    periods = {}
    for campaign_id, text in Campaign.objects.filter(rule_system=RuleSystem.ETERNAL_WAR).values_list(
            "id", Cast("rule_parameters", TextField())):
        if text not in built:
            params = parameters_for(RuleSystem.ETERNAL_WAR, json.loads(text) if text else None)
            built[text] = (int(params.pa_regen_hours) * HOUR, int(params.pv_regen_hours) * HOUR)
        periods[campaign_id] = built[text]
    return periods


def _period_case(periods: dict[int, int], column: str) -> str:
    """``periods`` (campaign id: seconds) as one SQL expression of the campaign id ``column``:
    a CASE with one branch per distinct period (the most common one as the ELSE), so its size
    follows the number of campaigns that differ, and the planner sees no join to estimate."""
    by_period: dict[int, list[int]] = {}
    for campaign_id, period in sorted(periods.items()):
        by_period.setdefault(int(period), []).append(int(campaign_id))
    if len(by_period) == 1:
        return str(next(iter(by_period)))
    common = max(by_period, key=lambda p: (len(by_period[p]), -p))
    branches = " ".join(f"WHEN {column} IN ({', '.join(map(str, ids))}) THEN {period}"
                        for period, ids in sorted(by_period.items()) if period != common)
    return f"(CASE {branches} ELSE {common} END)"


def _owed(ts: int, pa_period: int | str, pv_period: int | str) -> tuple[str, str]:
    """The SQL conditions of a row owed PA, and owed PV, at Unix time ``ts`` with these
    periods (seconds, or a SQL expression of them: ``_period_case``)."""
    return (f"(pa < pa_max AND pa_anchor <= {ts} - {pa_period})",
            f"(pv >= 0 AND pv < pv_max AND pv_anchor <= {ts} - {pv_period})")


def _assignments(ts: int, pa_period: int | str, pv_period: int | str, *, least: str) -> str:
    """The SET list of the tick's UPDATE: each owed value gains its whole periods elapsed,
    capped by ``least`` (the dialect's LEAST or MIN), and its anchor moves by as many periods;
    a value owed nothing is left as it is."""
    pa_owed, pv_owed = _owed(ts, pa_period, pv_period)
    pa_steps, pv_steps = (f"(({ts} - pa_anchor) / {pa_period})",
                          f"(({ts} - pv_anchor) / {pv_period})")
    return (f"pa = CASE WHEN {pa_owed} THEN {least}(pa_max, pa + {pa_steps}) ELSE pa END, "
            f"pa_anchor = CASE WHEN {pa_owed} THEN pa_anchor + {pa_steps} * {pa_period}"
            f" ELSE pa_anchor END, "
            f"pv = CASE WHEN {pv_owed} THEN {least}(pv_max, pv + {pv_steps}) ELSE pv END, "
            f"pv_anchor = CASE WHEN {pv_owed} THEN pv_anchor + {pv_steps} * {pv_period}"
            f" ELSE pv_anchor END")


def tick_sql(periods: dict[int, tuple[int, int]], ts: int, *, vendor: str,
             returning: bool = False) -> str:
    """The tick's UPDATE for ``periods`` (campaign id: (PA period, PV period), seconds) at Unix
    time ``ts``, in PostgreSQL's or SQLite's dialect. Every number is an int formatted here,
    never text from outside.

    A row is owed PA when ``pa < pa_max`` and its anchor is at least one period old (PV: the
    same, and not disincarnated, ``pv >= 0``); its value gains the whole periods elapsed, capped,
    and its anchor moves by as many periods (``gamerules.regeneration.accrue``).

    - Every campaign with the same periods (the usual case): constant periods, no join, the
      statement one would write by hand (every sheet table row is an EW1 character's).
    - Campaigns with different periods: each row's period is a CASE over its character's
      campaign id (one branch per distinct period), so the planner sees no joined list to
      estimate (a VALUES join started from the characters table on stale statistics and was
      2.7-3.5 times slower); the rows are joined to their characters only after the sheet
      table's own columns have dropped those owed nothing even at the shortest periods.
    - On PostgreSQL the UPDATE takes its rows from ``ctid = ANY(ARRAY(SELECT ctid ... FOR
      UPDATE SKIP LOCKED))``: the sheet table is scanned once, for that subquery, which locks
      the rows owed something (at the shortest periods) and skips every row an action holds
      (``ew1.actors.lock_sheet_set``); the UPDATE then fetches exactly those rows by their
      address (a TID scan, no second scan, no join to estimate). The tick never waits for a
      row lock, so it cannot deadlock with an action or another tick, and the order it locks
      in does not matter (a TID scan visits its rows in address order anyway). Skipping is
      exact: values derive from the anchors, the action refreshes the sheets it locked, and the
      next tick (or any read) catches the row up; so is a row an action changed since the
      statement began (its new version is locked, the UPDATE does not see it and leaves it).
      With mixed periods a row owed something at the shortest periods but not at its own
      campaign's is locked and left unchanged (not counted, not rewritten). SQLite writes one
      transaction at a time and needs none of it.

    ``returning``: the statement returns the character id of each row it changed (both
    dialects: PostgreSQL, SQLite from 3.35)."""
    sheet, character = (connection.ops.quote_name(m._meta.db_table)
                        for m in (EternalWarSheet, Character))
    postgres = vendor == "postgresql"
    least = "LEAST" if postgres else "MIN"
    ts = int(ts)
    min_pa = min(int(pa) for pa, _ in periods.values())
    min_pv = min(int(pv) for _, pv in periods.values())
    pa_case = _period_case({c: pa for c, (pa, _) in periods.items()}, "c.campaign_id")
    pv_case = _period_case({c: pv for c, (_, pv) in periods.items()}, "c.campaign_id")
    mixed = not (pa_case.isdigit() and pv_case.isdigit())
    any_pa, any_pv = _owed(ts, min_pa, min_pv)
    candidates = f"({any_pa} OR {any_pv})"
    if postgres:
        # The rows owed something at the shortest periods, locked unless an action holds them.
        candidates = (f"{sheet}.ctid = ANY(ARRAY(SELECT ctid FROM {sheet} WHERE {candidates}"
                      f" FOR UPDATE SKIP LOCKED))")
    tail = f" RETURNING {sheet}.character_id" if returning else ""
    if not mixed:
        return (f"UPDATE {sheet} SET {_assignments(ts, min_pa, min_pv, least=least)}"
                f" WHERE {candidates}{tail}")
    pa_owed, pv_owed = _owed(ts, pa_case, pv_case)
    return (f"UPDATE {sheet} SET {_assignments(ts, pa_case, pv_case, least=least)} FROM {character} c"
            f" WHERE c.id = {sheet}.character_id AND {candidates}"
            f" AND ({pa_owed} OR {pv_owed}){tail}")
