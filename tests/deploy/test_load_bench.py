"""`make bench`'s load run (issue 9, item 12), shortened: gunicorn on loopback (uvicorn workers,
and sync workers for the "@wsgi" lines), every scenario answered as expected (no login page, no
5xx), each figure printed as a ratio to the bare view, and ASGI against WSGI."""

import io
import os
import re

import pytest

from bench import load

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.deployment]


def test_the_load_run_measures_every_scenario_against_the_bare_view(transactional_db,
                                                                    monkeypatch):
    monkeypatch.setenv("BENCH_LOAD_SLICE", "0.3")
    monkeypatch.setenv("BENCH_LOAD_ROUNDS", "1")
    monkeypatch.setenv("BENCH_PORT", "8177")
    monkeypatch.setattr(load, "CONCURRENCIES", (1, 2))
    out = io.StringIO()
    assert load.run(out=out, redis_url=os.environ["REDIS_URL"],
                    database_url=os.environ["DATABASE_URL"]), out.getvalue()
    text = out.getvalue()
    for concurrency in (1, 2):
        assert f"{concurrency} client threads:" in text
    rows = {m[0]: m for m in re.findall(
        r"^  ([\w@]+) +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)  (\{.*\})$",
        text, re.M)}
    assert set(rows) == set(load.SCENARIOS), text
    assert rows["bare"][5:8] == ("1.00", "1.00", "1.00")
    assert re.search(r"\{204: \d+\}", rows["poll"][8]), text  # nothing changed: all 204
    for scenario in ("board", "sheet", "attack", "bare@wsgi", "board@wsgi"):
        assert re.fullmatch(r"\{200: \d+\}", rows[scenario][8]), text
    assert "server errors" not in text
    assert "unchanged poll p95 / bare p95 =" in text
    assert re.search(r"board: ASGI p50 / WSGI p50 = [\d.]+", text), text
