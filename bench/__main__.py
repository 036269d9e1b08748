"""``python -m bench``: regeneration timings and board-page query counts, printed.

Options come from the environment: BENCH_SHEETS (default 100000: below it the tick's fixed
cost, reading the campaigns, is a visible share of a no-op tick), BENCH_REPEATS (default 7),
and for the load run (bench.load) BENCH_LOAD_SLICE, BENCH_LOAD_ROUNDS, BENCH_PORT.
``python -m bench load`` runs the load run alone; ``python -m bench wave`` the refetch wave
(bench.wave: 50 and 200 pages of one encounter after a step, the step's answer; BENCH_WAVE_ROUNDS),
``python -m bench streams`` the open streams (bench.streams: BENCH_STREAMS, BENCH_STREAM_PORT),
``python -m bench odds`` the heaviest Eclipse Phase odds request (bench.odds: BENCH_ODDS_ROUNDS),
``python -m bench pages`` the render cost of the encounter pages at 50 combatants and the board
with 200 pieces in view (bench.pages: BENCH_PAGES_ROUNDS).
Exits non-zero when the board page's query count depends on the number of characters in view,
when the tick is more than 1.2 times the hand-written statement in a case, when a no-op tick
writes a row, when the tick and the hand-written statement disagree, or when the odds request's
p95 is over 20 ms, or when an encounter page costs more than 3 bare views (the board 5).
"""

from __future__ import annotations

import os
import sys
import time
import warnings

from bench.db import configure_environment, throwaway_database


def main() -> int:
    parts = sys.argv[1:] or ["regeneration", "board", "load", "wave", "streams", "odds", "pages"]
    # The load run's server uses Redis when the environment has it (the bench process never).
    redis_url, database_url = os.environ.get("REDIS_URL"), os.environ.get("DATABASE_URL")
    configure_environment()
    # The test settings serve static files from the app folders; no collectstatic needed.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    from bench import board_queries, load, odds, pages, regeneration, streams, wave

    sheets = int(os.environ.get("BENCH_SHEETS", "100000"))
    repeats = int(os.environ.get("BENCH_REPEATS", "7"))
    out = sys.stdout
    started = time.perf_counter()
    with throwaway_database() as label:
        print(f"Percentile benchmarks on {label}", file=out)
        same = equal = loaded = waved = streamed = fast = cheap = True
        if "regeneration" in parts:
            print(f"\nRegeneration tick, {sheets} Eternal War One II sheets:", file=out,
                  flush=True)
            same = regeneration.run(count=sheets, repeats=repeats, out=out)
        if "board" in parts:
            print("\nBoard page queries (logged in as the owner, django.test.Client):",
                  file=out, flush=True)
            equal = board_queries.run(sizes=(10, 200), out=out)
        if "load" in parts:
            print("\nLoad run on loopback (bench.load), each against a bare one-query view:",
                  file=out, flush=True)
            loaded = load.run(out=out, redis_url=redis_url, database_url=database_url)
        if "wave" in parts:
            print("\nRefetch wave and step answer on loopback (bench.wave):", file=out,
                  flush=True)
            waved = wave.run(out=out, redis_url=redis_url, database_url=database_url)
        if "streams" in parts:
            print("\nOpen event streams (bench.streams), against a bare one-query view:",
                  file=out, flush=True)
            streamed = streams.run(out=out, redis_url=redis_url, database_url=database_url)
        if "odds" in parts:
            print("\nEclipse Phase odds request (bench.odds, django.test.Client), against a bare "
                  "one-query view:", file=out, flush=True)
            fast = odds.run(out=out)
        if "pages" in parts:
            print("\nRender cost of the big pages on loopback (bench.pages), each against the bare "
                  "one-query view:", file=out, flush=True)
            cheap = pages.run(out=out, redis_url=redis_url, database_url=database_url)
    print(f"\nDone in {time.perf_counter() - started:.0f} s.", file=out)
    return 0 if same and equal and loaded and waved and streamed and fast and cheap else 1


if __name__ == "__main__":
    sys.exit(main())
