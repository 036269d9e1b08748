"""PA and PV regeneration of many sheets: ``regenerate_all`` against hand-written SQL.

Every run starts from the same state: one UPDATE rewrites PA, PV and their anchors from each
row's id (some sheets a few periods behind, some far enough behind to reach the cap).
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import datetime, timezone
from decimal import Decimal

from django.db import DatabaseError, connection, transaction

HOUR = 3600
BATCH = 5000


def _tables():
    from characters.models import Character, EternalWarSheet

    q = connection.ops.quote_name
    return q(EternalWarSheet._meta.db_table), q(Character._meta.db_table)


def _clone_fields(sheet) -> dict:
    """The column values of ``sheet`` but its key: a sheet made by the real service, copied."""
    return {f.attname: getattr(sheet, f.attname) for f in sheet._meta.concrete_fields
            if not f.primary_key}


def create_sheets(count: int) -> int:
    """A campaign of ``count`` Eternal War One II characters (off the board), in bulk: one made
    by ``character_create``, the others with copies of its sheet. Returns the campaign id."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign, RuleSystem
    from characters.models import Character, EternalWarSheet
    from characters.services import character_create

    with transaction.atomic():
        campaign = Campaign.objects.create(name="Bench: regeneration",
                                           rule_system=RuleSystem.ETERNAL_WAR)
        owner = get_user_model().objects.create_user("bench-regeneration")
        model = character_create(user=owner, campaign=campaign, name="r000000",
                                 rng=random.Random(2024))
        template = _clone_fields(EternalWarSheet.objects.get(pk=model.pk))
        characters = Character.objects.bulk_create(
            [Character(campaign=campaign, owner=owner, name=f"r{i:06d}") for i in range(1, count)],
            batch_size=BATCH)
        EternalWarSheet.objects.bulk_create(
            [EternalWarSheet(**{**template, "character_id": c.pk}) for c in characters],
            batch_size=BATCH)
    return campaign.pk


def reset(campaign_id: int, ts: int) -> None:
    """The starting state: PA 0 to 11.5 with anchors 0 to 49 hours old (1 PA per 2 h), PV 40
    to 99 with anchors up to 299 hours old (1 PV per 6 h)."""
    sheet, character = _tables()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sheet} SET pa = (character_id %% 24) * 0.5,"
            f" pa_anchor = %s - (character_id %% 50) * {HOUR} - 17,"
            f" pv = 40 + character_id %% 60,"
            f" pv_anchor = %s - (character_id %% 300) * {HOUR} - 29"
            f" WHERE character_id IN (SELECT id FROM {character} WHERE campaign_id = %s)",
            [ts, ts, campaign_id])
        if connection.vendor == "postgresql":
            # Dead rows from the last run gone, statistics fresh, dirty pages written: no run
            # pays for the previous one (CHECKPOINT needs a superuser; skipped otherwise).
            cursor.execute(f"VACUUM ANALYZE {sheet}")
            try:
                with transaction.atomic():
                    cursor.execute("CHECKPOINT")
            except DatabaseError:
                pass


def _regen(value: str, cap: str, anchor: str, ts: int, period: int, due: str | None = None) -> str:
    """SET clauses: whole periods since the anchor, capped (as ``gamerules.regeneration``);
    with ``due``, rows where it is false keep their values."""
    periods = f"(({ts} - {anchor}) / {period})"
    new_value = f"CASE WHEN {value} + {periods} >= {cap} THEN {cap} ELSE {value} + {periods} END"
    new_anchor = f"{anchor} + {periods} * {period}"
    if due:
        new_value = f"CASE WHEN {due} THEN {new_value} ELSE {value} END"
        new_anchor = f"CASE WHEN {due} THEN {new_anchor} ELSE {anchor} END"
    return f"{value} = {new_value}, {anchor} = {new_anchor}"


def sql_pa(campaign_id: int, ts: int, pa_period: int) -> None:
    """The PA regeneration of ``regenerate_all`` as one hand-written UPDATE."""
    sheet, character = _tables()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sheet} SET {_regen('pa', 'pa_max', 'pa_anchor', ts, pa_period)}"
            f" WHERE pa < pa_max AND pa_anchor <= {ts - pa_period}"
            f" AND character_id IN (SELECT id FROM {character} WHERE campaign_id = %s)",
            [campaign_id])


def sql_pa_pv(campaign_id: int, ts: int, pa_period: int, pv_period: int) -> None:
    """All of ``regenerate_all`` (PA, and PV while not disincarnated) as one UPDATE."""
    sheet, character = _tables()
    pa_due = f"(pa < pa_max AND pa_anchor <= {ts - pa_period})"
    pv_due = f"(pv >= 0 AND pv < pv_max AND pv_anchor <= {ts - pv_period})"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sheet} SET {_regen('pa', 'pa_max', 'pa_anchor', ts, pa_period, pa_due)},"
            f" {_regen('pv', 'pv_max', 'pv_anchor', ts, pv_period, pv_due)}"
            f" WHERE ({pa_due} OR {pv_due})"
            f" AND character_id IN (SELECT id FROM {character} WHERE campaign_id = %s)",
            [campaign_id])


def state(campaign_id: int) -> tuple:
    """A fingerprint of PA, PV and their anchors."""
    sheet, character = _tables()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), SUM(CASE WHEN pa = pa_max THEN 1 ELSE 0 END), SUM(pa * 2),"
            f" SUM(pa_anchor), SUM(pv), SUM(pv_anchor) FROM {sheet}"
            f" WHERE character_id IN (SELECT id FROM {character} WHERE campaign_id = %s)",
            [campaign_id])
        row = cursor.fetchone()
    return tuple(int(round(Decimal(str(v)))) for v in row)


def run(*, count: int, repeats: int, out) -> bool:
    """Print the timings; return False when the hand-written SQL disagrees with the ORM."""
    from campaigns.models import Campaign
    from characters.regeneration import regenerate_all

    started = time.perf_counter()
    campaign_id = create_sheets(count)
    params = Campaign.objects.get(pk=campaign_id).parameters
    pa_period, pv_period = params.pa_regen_hours * HOUR, params.pv_regen_hours * HOUR
    now = datetime.now(timezone.utc).replace(microsecond=0)
    ts = int(now.timestamp())
    print(f"  {count} sheets created in {time.perf_counter() - started:.1f} s", file=out)

    variants = {
        "regenerate_all (ORM: PA and PV, 1 UPDATE)": lambda: regenerate_all(now=now),
        "hand-written SQL, 1 UPDATE, PA only": lambda: sql_pa(campaign_id, ts, pa_period),
        "hand-written SQL, 1 UPDATE, PA and PV": lambda: sql_pa_pv(campaign_id, ts, pa_period,
                                                                  pv_period),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    results: dict[str, tuple] = {}
    reset(campaign_id, ts)
    before = state(campaign_id)
    for _ in range(repeats):
        for name, work in variants.items():  # interleaved, so drift hits all alike
            reset(campaign_id, ts)
            t0 = time.perf_counter()
            work()
            times[name].append(time.perf_counter() - t0)
            results[name] = state(campaign_id)

    medians = {name: statistics.median(values) for name, values in times.items()}
    width = max(map(len, variants))
    for name, median in medians.items():
        print(f"  {name:<{width}}  {median * 1000:8.1f} ms  (median of {repeats};"
              f" {min(times[name]) * 1000:.0f}-{max(times[name]) * 1000:.0f})", file=out)
    orm, pa_only, both = medians.values()
    print(f"  ratio ORM / hand-written (PA only)      {orm / pa_only:6.2f}", file=out)
    print(f"  ratio ORM / hand-written (PA and PV)    {orm / both:6.2f}", file=out)

    orm_state, pa_state, both_state = results.values()
    ok = orm_state == both_state and pa_state[:4] == orm_state[:4] and orm_state != before
    print(f"  same end state: {'yes' if ok else 'NO'}"
          f" ({orm_state[1]} of {orm_state[0]} sheets at their PA cap, {before[1]} before)",
          file=out)
    if not ok:
        print(f"    start {before}\n    ORM {orm_state}\n    SQL PA {pa_state}\n"
              f"    SQL PA+PV {both_state}", file=out)
    return ok
