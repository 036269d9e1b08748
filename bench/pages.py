"""Render cost of the big pages (issue 21, item 9) on loopback: gunicorn with 2 uvicorn
workers (bench.wave.serving), each page against the bare one-query view (``/bench/bare``,
bench.urls), interleaved request by request in the same run, p50 and ratio printed.

- **Encounter pages at 50 combatants**: one homebrew encounter (two players' characters and
  48 goblins, a rolled order, a few turns played): the GM's control page and a player's page,
  whole (no htmx: the body is rendered on every request), then the control page's fragment as
  a refetch of a version nobody fetched yet (rendered; the bench bumps the version before each)
  and of one already rendered (from the cache).
- **The Eternal War One II board with 200 pieces in view** (bench.board_queries.build): the
  owner's board page, whole.

Targets: an encounter page <= 3 times the bare view, the board <= 5 times. Bounded:
BENCH_PAGES_ROUNDS rounds (default 30) per page; the server is stopped at the end. Traffic goes
to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import statistics
import time

from bench import wave

COMBATANTS = 50
PIECES = 200
ENCOUNTER_TARGET, BOARD_TARGET = 3.0, 5.0


def build_encounter() -> tuple[int, dict[str, str]]:
    """The homebrew encounter of COMBATANTS combatants, started, three turns played.
    Returns (encounter id, {"gm": session key, "alice": session key})."""
    from encounters import services

    e, gm, (alice, _bob) = wave.homebrew_table("pages", COMBATANTS)
    for _ in range(3):
        e = services.encounter_next_turn(user=gm, encounter_id=e.pk, turn=e.turn_serial)
    return e.pk, wave.sessions_of({"gm": gm, "alice": alice})


def build_board() -> tuple[int, str]:
    """The board of bench.board_queries with PIECES others in view. Returns (the owner's
    character id, the owner's session key)."""
    from bench import board_queries
    from campaigns.models import Campaign

    owner, character_id, campaign, radii = board_queries.build(sizes=(PIECES,))
    Campaign.objects.filter(pk=campaign.pk).update(rule_parameters={"view_radius": radii[PIECES]})
    return character_id, wave.sessions_of({"owner": owner})["owner"]


def _session(key: str):
    import requests

    http = requests.Session()
    http.cookies.set("sessionid", key, domain="127.0.0.1", path="/")
    return http


def _timed(http, url: str, **headers) -> tuple[float, int, int]:
    started = time.perf_counter()
    r = http.get(url, headers=headers, timeout=60)
    return time.perf_counter() - started, r.status_code, len(r.content)


def _series(http, base: str, url: str, rounds: int, before=None, **headers):
    """``rounds`` times: the bare view, then ``url`` (after ``before()``, untimed):
    (page p50 s, bare p50 s, size, every status 200)."""
    pages, bares, sizes, ok = [], [], [], True
    for _ in range(rounds):
        took, status, _size = _timed(http, f"{base}/bench/bare")
        bares.append(took)
        ok = ok and status == 200
        if before is not None:
            before()
        took, status, size = _timed(http, base + url, **headers)
        pages.append(took)
        sizes.append(size)
        ok = ok and status == 200
    return statistics.median(pages), statistics.median(bares), statistics.median(sizes), ok


def run(*, out, redis_url: str | None, database_url: str | None) -> bool:
    """Build, start gunicorn, measure, print, stop it. False when a request failed or a page
    misses its target."""
    from django.db.models import F

    from encounters.models import Encounter

    rounds = int(os.environ.get("BENCH_PAGES_ROUNDS", "30"))
    encounter_id, sessions = build_encounter()
    character_id, owner = build_board()

    def bump() -> None:  # a version nobody fetched: the fragment is rendered
        Encounter.objects.filter(pk=encounter_id).update(version=F("version") + 1)

    def version() -> int:
        return Encounter.objects.values_list("version", flat=True).get(pk=encounter_id)

    with wave.serving(redis_url=redis_url, database_url=database_url) as (base, server):
        if not wave.ready(base, server, out=out):
            return False
        print(f"  gunicorn, 2 uvicorn workers (ASGI), on {base} (cache: "
              f"{'Redis' if redis_url else 'database'}); {rounds} rounds per page, each "
              f"request after a bare one", file=out, flush=True)
        gm, alice, board = _session(sessions["gm"]), _session(sessions["alice"]), _session(owner)
        htmx = {"HX-Request": "true"}
        cases = [
            ("encounter control page (GM), whole", gm, f"/encounters/{encounter_id}/control/",
             None, {}, ENCOUNTER_TARGET),
            ("encounter page (player), whole", alice, f"/encounters/{encounter_id}/", None, {},
             ENCOUNTER_TARGET),
            ("control fragment, rendered (new version)", gm,
             f"/encounters/{encounter_id}/control/?v=0", bump, htmx, ENCOUNTER_TARGET),
            ("control fragment, from the cache", gm, f"/encounters/{encounter_id}/control/?v=0",
             None, htmx, ENCOUNTER_TARGET),
            (f"EW1 board, {PIECES} pieces in view, whole", board,
             f"/characters/{character_id}/board/", None, {}, BOARD_TARGET),
        ]
        ok = met = True
        for label, http, url, before, headers, target in cases:
            for _ in range(3):  # warm: the workers' first requests load templates and such
                http.get(base + url, headers=headers, timeout=60)
                http.get(f"{base}/bench/bare", timeout=60)
            p50, bare, size, fine = _series(http, base, url, rounds, before, **headers)
            ok = ok and fine
            met = met and p50 / bare <= target
            print(f"    {label:<45} p50 {p50 * 1000:6.1f} ms ({size / 1000:5.1f} KB); bare p50 "
                  f"{bare * 1000:5.1f} ms; ratio {p50 / bare:5.2f} (target <= {target:.0f})",
                  file=out, flush=True)
        print(f"  encounter at version {version()}, {COMBATANTS} combatants", file=out)
    errors = wave.LOG.read_text().count("Traceback")
    if errors:
        print(f"  {errors} server errors: see {wave.LOG.relative_to(wave.ROOT)}", file=out)
        ok = False
    return ok and met
