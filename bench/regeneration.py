"""The regeneration tick, ``regenerate_all``, against the minimal hand-written statement.

Six cases: a steady tick (a tick every 5 minutes: 1 in 24 sheets owed PA, 1 in 72 owed PV), a
no-op tick (nothing owed: it must write 0 rows) and a catch-up tick (every sheet many periods
behind) over the same number of sheets in 1 campaign, in 100, and in 100 with mixed periods
(``MIXED``: a third of the campaigns each at the default periods, 3 h / 8 h and 4 h / 12 h).
With the default periods the hand-written statement is one UPDATE with constant periods and no
join: the least any tick could do. With mixed periods it is the UPDATE one would write knowing
the campaigns: joined to the characters, each period a CASE over the campaign ids of each
period, the rows owed nothing at the shortest periods dropped first.

The hand-written statement the target is measured against gives the tick's guarantees, not
fewer: on PostgreSQL it takes its rows FOR UPDATE SKIP LOCKED (``_lock``), as the tick must to
neither overwrite nor wait for a row an action holds (a waiting tick deadlocked with actions:
tests/services/test_tick_races.py). The same UPDATE without the lock ("lock-free", the
baseline before) is printed too, for the lock's price; ``BENCH_FORMS=1`` adds the other ways to
write the lock (a CTE joined on ctid; for mixed periods, the lock joined to the characters so
it takes only the rows owed at their campaign's periods). Each run starts from the same state
(one UPDATE rewrites PA, PV and their anchors from each row's id, then VACUUM ANALYZE and
CHECKPOINT on PostgreSQL); the variants alternate (the order reversed every repeat), and the
medians of the repeats are compared, with the quartiles of the per-repeat ratios as spread.

On PostgreSQL it also measures, for the catch-up and steady ticks, the WAL written and the share
of HOT updates (``pg_current_wal_lsn``, ``pg_stat_get_xact_tuples_hot_updated``) with the sheet
table rewritten at fillfactor 100 (before the migration) and at the migration's fillfactor, and
the lock-free statement's at the migration's (the WAL price of the lock).
"""

from __future__ import annotations

import os
import random
from importlib import import_module
import statistics
import time
from collections.abc import Callable
from datetime import datetime, UTC
from functools import partial
from decimal import Decimal

from django.db import DatabaseError, connection, transaction

HOUR = 3600
TARGET = 1.2  # issue 9: at most 1.2 times the hand-written statement
STORAGE = os.environ.get("BENCH_STORAGE", "1") != "0"  # the WAL and HOT figures (fillfactor)
FORMS = os.environ.get("BENCH_FORMS", "0") != "0"  # also time the other locking forms


def _tables():
    from characters.models import Character
    from ew1.models import EternalWarSheet

    q = connection.ops.quote_name
    return q(EternalWarSheet._meta.db_table), q(Character._meta.db_table)


def create_sheets(count: int, campaigns: int) -> list[int]:
    """``count`` Eternal War One II characters (off the board) spread over ``campaigns``
    campaigns: one made by ``character_create``, the others copies of its character and sheet
    rows made by two INSERT ... SELECT statements (a recursive CTE numbers the copies; the same
    SQL on PostgreSQL and SQLite). Returns the campaign ids."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign, RuleSystem
    from characters.models import Character
    from characters.services import character_create
    from ew1.models import EternalWarSheet

    sheet, character = _tables()
    q = connection.ops.quote_name
    with transaction.atomic():
        made = Campaign.objects.bulk_create(
            [Campaign(name=f"Bench: regeneration {i}", rule_system=RuleSystem.ETERNAL_WAR)
             for i in range(campaigns)])
        owner = get_user_model().objects.create_user(f"bench-regeneration-{campaigns}")
        model = character_create(user=owner, campaign=made[0], name="r000000",
                                 rng=random.Random(2024))
        computed = {"name": "'r' || CAST(n.i AS TEXT)", "campaign_id": "k.campaign_id"}
        columns = [f.column for f in Character._meta.concrete_fields if not f.primary_key]
        keys = ", ".join(f"({i}, {int(c.pk)})" for i, c in enumerate(made))
        numbers = (f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                   f" WHERE i < {int(count) - 1})")
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {character} ({', '.join(map(q, columns))}) {numbers}"
                f" SELECT {', '.join(computed.get(c, f'm.{q(c)}') for c in columns)}"
                f" FROM n JOIN (SELECT column1 AS slot, column2 AS campaign_id FROM"
                f" (VALUES {keys}) AS v) AS k ON k.slot = n.i % {int(campaigns)}"
                f" CROSS JOIN {character} m WHERE m.id = {int(model.pk)}")
            columns = [f.column for f in EternalWarSheet._meta.concrete_fields]
            cursor.execute(
                f"INSERT INTO {sheet} ({', '.join(map(q, columns))})"
                f" SELECT {', '.join('c.id' if c == 'character_id' else f'm.{q(c)}' for c in columns)}"
                f" FROM {character} c CROSS JOIN {sheet} m WHERE m.character_id = {int(model.pk)}"
                f" AND c.campaign_id IN ({', '.join(str(int(c.pk)) for c in made)})"
                f" AND c.id <> {int(model.pk)}")
    return [c.pk for c in made]


def drop_sheets(campaign_ids: list[int]) -> None:
    sheet, character = _tables()
    ids = ", ".join(str(int(i)) for i in campaign_ids)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {sheet} WHERE character_id IN"
                       f" (SELECT id FROM {character} WHERE campaign_id IN ({ids}))")
    from campaigns.models import Campaign
    from characters.models import Character

    # The model character (made by the service, journaled) the ORM way, the copies in bulk.
    Character.objects.filter(campaign_id__in=campaign_ids).exclude(name="r000000")._raw_delete(
        connection.alias)
    Campaign.objects.filter(pk__in=campaign_ids).delete()


# The starting states, as SET clauses computed from each row's id (``ts``: the tick's time).
STATES = {
    # Ages of 5 min to 2 h for PA (1 row in 24 a whole period behind), to 6 h for PV (1 in 72).
    "steady": ("pa = (character_id % 24) * 0.5, pa_anchor = {ts} - (character_id % 24 + 1) * 300,"
               " pv = 40 + character_id % 60, pv_anchor = {ts} - (character_id % 72 + 1) * 300"),
    # Anchors a few seconds old: nothing owed.
    "no-op": ("pa = (character_id % 24) * 0.5, pa_anchor = {ts} - 17,"
              " pv = 40 + character_id % 60, pv_anchor = {ts} - 29"),
    # Up to 49 h behind for PA (some reach the cap), 299 h for PV.
    "catch-up": ("pa = (character_id % 24) * 0.5,"
                 " pa_anchor = {ts} - (character_id % 50) * 3600 - 17 - 7200,"
                 " pv = 40 + character_id % 60,"
                 " pv_anchor = {ts} - (character_id % 300) * 3600 - 29 - 21600"),
}


def reset(state: str, ts: int) -> None:
    sheet, _ = _tables()
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {sheet} SET " + STATES[state].format(ts=int(ts)))
        if connection.vendor == "postgresql":
            # Dead rows from the last run gone, statistics fresh, dirty pages written: no run
            # pays for the previous one (CHECKPOINT needs a superuser; skipped otherwise).
            cursor.execute(f"VACUUM ANALYZE {sheet}")
            try:
                with transaction.atomic():
                    cursor.execute("CHECKPOINT")
            except DatabaseError:
                pass


def _lock(target: str, sheet: str, where: str) -> str:
    """The conjunct that locks the rows ``where`` keeps as the tick does: ``FOR UPDATE SKIP
    LOCKED`` in one scan, the UPDATE then fetching exactly those rows by address. Of the
    hand-written forms with that lock it was the fastest (``BENCH_FORMS=1`` times the others).
    ``where`` names the columns unqualified (they are the subquery's)."""
    return f"{target}.ctid = ANY(ARRAY(SELECT ctid FROM {sheet} WHERE {where} FOR UPDATE SKIP LOCKED))"


def _locking() -> bool:
    return connection.vendor == "postgresql"  # SQLite writes one transaction at a time


def hand_written(ts: int, pa_period: int, pv_period: int, *, lock: bool = True,
                 form: str = "array") -> int:
    """The least a tick can do when every campaign has these periods: one UPDATE, constant
    periods, no join, only the rows owed something. With ``lock`` (PostgreSQL) it takes those
    rows FOR UPDATE SKIP LOCKED as the tick must (never overwriting nor waiting for a row an
    action holds): the target's baseline. ``form`` "cte" writes the same lock as ``WITH owed AS
    (SELECT ctid ... FOR UPDATE SKIP LOCKED) UPDATE ... FROM owed`` (an extra line)."""
    sheet, _ = _tables()
    least = "LEAST" if connection.vendor == "postgresql" else "MIN"
    pa_due = f"(pa < pa_max AND pa_anchor <= {ts - pa_period})"
    pv_due = f"(pv >= 0 AND pv < pv_max AND pv_anchor <= {ts - pv_period})"
    pa_n, pv_n = f"(({ts} - pa_anchor) / {pa_period})", f"(({ts} - pv_anchor) / {pv_period})"
    where, head, tail = f"{pa_due} OR {pv_due}", "", ""
    if lock and _locking():
        if form == "cte":
            head = (f"WITH owed AS (SELECT ctid AS tid FROM {sheet} WHERE {where}"
                    f" FOR UPDATE SKIP LOCKED) ")
            tail, where = " FROM owed", f"{sheet}.ctid = owed.tid"
        else:
            where = _lock(sheet, sheet, where)
    with connection.cursor() as cursor:
        cursor.execute(
            f"{head}UPDATE {sheet} SET"
            f" pa = CASE WHEN {pa_due} THEN {least}(pa_max, pa + {pa_n}) ELSE pa END,"
            f" pa_anchor = CASE WHEN {pa_due} THEN pa_anchor + {pa_n} * {pa_period}"
            f" ELSE pa_anchor END,"
            f" pv = CASE WHEN {pv_due} THEN {least}(pv_max, pv + {pv_n}) ELSE pv END,"
            f" pv_anchor = CASE WHEN {pv_due} THEN pv_anchor + {pv_n} * {pv_period}"
            f" ELSE pv_anchor END{tail}"
            f" WHERE {where}")
        return cursor.rowcount


# Mixed periods (hours): campaign i of 100 gets MIXED[i % 3] (issue 9, item 10).
MIXED = [(2, 6), (3, 8), (4, 12)]


def set_periods(campaign_ids: list[int], choices) -> dict[int, tuple[int, int]]:
    """Give campaign i of ``campaign_ids`` the periods ``choices[i % len(choices)]`` (hours);
    returns campaign id: (PA period, PV period) in seconds."""
    from campaigns.models import Campaign

    periods = {}
    for i, pk in enumerate(campaign_ids):
        pa, pv = choices[i % len(choices)]
        Campaign.objects.filter(pk=pk).update(
            rule_parameters={"pa_regen_hours": pa, "pv_regen_hours": pv})
        periods[pk] = (pa * HOUR, pv * HOUR)
    return periods


def hand_written_mixed(ts: int, periods: dict[int, tuple[int, int]], *, lock: bool = True,
                       form: str = "array") -> int:
    """The UPDATE one would write for campaigns of different periods: joined to the characters
    for their campaign, each period a CASE over the campaign ids having it, and the rows owed
    nothing even at the shortest periods dropped on the sheet's own columns first. With
    ``lock`` (PostgreSQL) that first filter moves into the locking subquery (``_lock``): the
    target's baseline. ``form`` "exact" locks instead exactly the rows owed at their own
    campaign's periods (the join inside the lock; an extra line)."""
    sheet, character = _tables()
    least = "LEAST" if connection.vendor == "postgresql" else "MIN"

    def case(index, column="c.campaign_id"):
        groups: dict[int, list[int]] = {}
        for campaign, pair in periods.items():
            groups.setdefault(pair[index], []).append(campaign)
        *rest, (last, _) = sorted(groups.items())
        whens = " ".join(f"WHEN {column} IN ({', '.join(map(str, ids))}) THEN {p}"
                         for p, ids in rest)
        return f"(CASE {whens} ELSE {last} END)" if whens else str(last)

    def due(s, pa_p, pv_p):  # s: "s." or "k." or "" (unqualified)
        return (f"({s}pa < {s}pa_max AND {s}pa_anchor <= {ts} - {pa_p})",
                f"({s}pv >= 0 AND {s}pv < {s}pv_max AND {s}pv_anchor <= {ts} - {pv_p})")

    pa_p, pv_p = case(0), case(1)
    min_pa, min_pv = (min(p[i] for p in periods.values()) for i in (0, 1))
    pa_due, pv_due = due("s.", pa_p, pv_p)

    def owed_any(s):  # owed something at the shortest periods: the sheet's columns alone
        return "({} OR {})".format(*due(s, min_pa, min_pv))

    first = owed_any("s.")
    pa_n, pv_n = f"(({ts} - s.pa_anchor) / {pa_p})", f"(({ts} - s.pv_anchor) / {pv_p})"
    where = f"{first} AND ({pa_due} OR {pv_due})"
    if lock and _locking():
        if form == "exact":
            exact = "({} OR {})".format(*due("k.", case(0, "kc.campaign_id"),
                                             case(1, "kc.campaign_id")))
            where = (f"s.ctid = ANY(ARRAY(SELECT k.ctid FROM {sheet} k JOIN {character} kc"
                     f" ON kc.id = k.character_id WHERE {owed_any('k.')} AND {exact}"
                     f" FOR UPDATE OF k SKIP LOCKED))")
        else:
            where = f"{_lock('s', sheet, owed_any(''))} AND ({pa_due} OR {pv_due})"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sheet} AS s SET"
            f" pa = CASE WHEN {pa_due} THEN {least}(s.pa_max, s.pa + {pa_n}) ELSE s.pa END,"
            f" pa_anchor = CASE WHEN {pa_due} THEN s.pa_anchor + {pa_n} * {pa_p}"
            f" ELSE s.pa_anchor END,"
            f" pv = CASE WHEN {pv_due} THEN {least}(s.pv_max, s.pv + {pv_n}) ELSE s.pv END,"
            f" pv_anchor = CASE WHEN {pv_due} THEN s.pv_anchor + {pv_n} * {pv_p}"
            f" ELSE s.pv_anchor END"
            f" FROM {character} c WHERE c.id = s.character_id AND {where}")
        return cursor.rowcount


def fingerprint() -> tuple:
    """A fingerprint of PA, PV and their anchors."""
    sheet, _ = _tables()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), SUM(CASE WHEN pa = pa_max THEN 1 ELSE 0 END), SUM(pa * 2),"
            f" SUM(pa_anchor), SUM(pv), SUM(pv_anchor) FROM {sheet}")
        row = cursor.fetchone()
    return tuple(round(Decimal(str(v or 0))) for v in row)


def _timed(work) -> tuple[float, int]:
    t0 = time.perf_counter()
    rows = work()
    return time.perf_counter() - t0, rows


def run_case(*, state: str, ts: int, repeats: int, variants: dict) -> dict:
    """Time the variants on ``state``, interleaved (the order alternates each repeat). A run
    that wrote no row leaves the state as it was: the next one starts without a reset, so the
    no-op case takes three times the repeats for the same time."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    rows, prints = {}, {}
    names = list(variants)
    dirty = True
    for i in range(repeats * (3 if state == "no-op" else 1)):
        for name in (names if i % 2 == 0 else names[::-1]):
            if dirty:
                reset(state, ts)
            elapsed, rows[name] = _timed(variants[name])
            dirty = rows[name] != 0
            times[name].append(elapsed)
            prints[name] = fingerprint()
    return {"times": times, "rows": rows, "prints": prints}


def storage(ts: int, tick, fillfactor: int) -> dict:
    """WAL bytes and HOT share of one tick per state, the table rewritten at ``fillfactor`` in
    character id order before each state. In id order (the order rows are made in) the rows a
    state owes are spread over the pages, as in play; without it the bench's own history
    decides: the rows a run's tick moved off full pages are, every run, the same ones (1 in 24),
    and after a few runs they sit together, a page of them (VACUUM FULL keeps the physical
    order), so a steady tick measured 70 % HOT instead of 100 %."""
    sheet, _ = _tables()
    out = {}
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {sheet} SET (fillfactor = {int(fillfactor)})")
        cursor.execute("SELECT indexrelid::regclass::text FROM pg_index"
                       " WHERE indrelid = %s::regclass AND indisprimary", [sheet])
        (primary,) = cursor.fetchone()
        for state in ("steady", "catch-up"):
            cursor.execute(f"CLUSTER {sheet} USING {primary}")
            reset(state, ts)
            cursor.execute("SELECT pg_current_wal_lsn()")
            (start,) = cursor.fetchone()
            counters = ("SELECT pg_stat_get_xact_tuples_updated(%s::regclass),"
                        " pg_stat_get_xact_tuples_hot_updated(%s::regclass)")
            with transaction.atomic():  # the backend's counters may hold earlier transactions
                cursor.execute(counters, [sheet, sheet])
                before = cursor.fetchone()
                tick()
                cursor.execute(counters, [sheet, sheet])
                updated, hot = (a - b for a, b in zip(cursor.fetchone(), before))
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", [start])
            (wal,) = cursor.fetchone()
            out[state] = (updated, hot, int(wal))
    return out


BASELINE = (
    "  The target's baseline, \"hand-written\", is the least statement with the tick's guarantees:"
    "\n  the same rows written with the same values, and on PostgreSQL the same lock (FOR UPDATE"
    "\n  SKIP LOCKED: it neither overwrites nor waits for a row an action holds, so it cannot"
    "\n  deadlock with one). \"lock-free\" is the same UPDATE without the lock (it waits for such"
    "\n  a row, and deadlocked against actions): shown for the lock's price, not the target."
    "\n  ratio: tick median / hand-written median; [q1 median q3]: the quartiles of the"
    "\n  per-repeat ratios (each repeat times every variant back to back, the order alternating).")


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def run(*, count: int, repeats: int, out) -> bool:
    """Print the timings and ratios; return False when a ratio misses the target, a no-op tick
    writes a row, or a statement leaves other values than the tick."""
    from campaigns.models import Campaign
    from ew1.regeneration import regenerate_all
    from gamerules.ew1.params import EW1Parameters

    params = EW1Parameters()
    pa_period, pv_period = params.pa_regen_hours * HOUR, params.pv_regen_hours * HOUR
    now = datetime.now(UTC).replace(microsecond=0)
    ts = int(now.timestamp())
    ok = True
    ratios = []
    print(BASELINE if _locking() else "  SQLite locks no row: the hand-written UPDATE has no lock.",
          file=out)
    for campaigns, mixed in ((1, False), (100, False), (100, True)):
        started = time.perf_counter()
        if not mixed:
            ids = create_sheets(count, campaigns)
        assert Campaign.objects.count() >= campaigns
        variants: dict[str, Callable[[], int]] = {"regenerate_all": lambda: regenerate_all(now=now)}
        if mixed:
            periods = set_periods(ids, MIXED)
            label = f"{campaigns} campaigns of mixed periods {MIXED} (hours)"
            variants["hand-written"] = partial(hand_written_mixed, ts, periods)
            extras: dict[str, Callable[[], int]] = {
                "lock-free": partial(hand_written_mixed, ts, periods, lock=False),
                "exact lock": partial(hand_written_mixed, ts, periods, form="exact")}
        else:
            label = f"{campaigns} campaign(s)"
            variants["hand-written"] = lambda: hand_written(ts, pa_period, pv_period)
            extras = {"lock-free": lambda: hand_written(ts, pa_period, pv_period, lock=False),
                      "CTE lock": lambda: hand_written(ts, pa_period, pv_period, form="cte")}
        if _locking():
            variants.update((n, f) for n, f in extras.items() if n == "lock-free" or FORMS)
        print(f"\n  {count} sheets in {label}, ready in"
              f" {time.perf_counter() - started:.1f} s; median of {repeats} ({3 * repeats}"
              f" for no-op):", file=out, flush=True)
        for state in STATES:
            result = run_case(state=state, ts=ts, repeats=repeats, variants=variants)
            times = result["times"]
            med = {n: statistics.median(v) for n, v in times.items()}
            base = med["hand-written"]
            ratio = med["regenerate_all"] / base
            ratios.append(ratio)
            low, mid, high = _quartiles([t / b for t, b in zip(times["regenerate_all"],
                                                               times["hand-written"])])
            same = all(p == result["prints"]["regenerate_all"]
                       for p in result["prints"].values())
            rows = result["rows"]["regenerate_all"]
            good = same and ratio <= TARGET and (state != "no-op" or rows == 0)
            ok &= good
            spread = {n: f"{min(v) * 1000:.0f}-{max(v) * 1000:.0f}" for n, v in times.items()}
            print(f"    {state:<9} tick {med['regenerate_all'] * 1000:8.1f} ms"
                  f" ({spread['regenerate_all']}), hand-written {base * 1000:8.1f} ms"
                  f" ({spread['hand-written']}), ratio {ratio:5.2f} [{low:.2f} {mid:.2f} {high:.2f}],"
                  f" {rows} rows{'' if same else ', STATES DIFFER'}"
                  f"{'' if good else '  <-- MISSED'}", file=out, flush=True)
            for name in list(variants)[2:]:
                print(f"    {'':<9} {name:<12} {med[name] * 1000:8.1f} ms ({spread[name]}),"
                      f" {med[name] / base:5.2f} x the hand-written", file=out, flush=True)
        if connection.vendor == "postgresql" and campaigns == 1 and STORAGE:
            migration = import_module("characters.migrations.0007_sheet_fillfactor")
            tick = ("tick", variants["regenerate_all"])
            lock_free = ("lock-free", lambda: hand_written(ts, pa_period, pv_period, lock=False))
            for fillfactor, (name, work) in ((100, tick), (migration.FILLFACTOR, tick),
                                             (migration.FILLFACTOR, lock_free)):
                for state, (updated, hot, wal) in storage(ts, work, fillfactor).items():
                    print(f"    fillfactor {fillfactor:3}: {state:<9} {name:<9} {updated:6} rows,"
                          f" HOT {100 * hot / max(updated, 1):5.1f} %,"
                          f" WAL {wal / 1e6:7.2f} MB", file=out, flush=True)
        if campaigns == 1 or mixed:
            drop_sheets(ids)
    print(f"  worst ratio {max(ratios):.2f} (target <= {TARGET})", file=out)
    return ok
