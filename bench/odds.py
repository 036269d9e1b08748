"""The Eclipse Phase odds request (issue 21, item 3): the heaviest case the attack form asks,
timed through the real view, interleaved with a bare view in the same run.

The case: the GM's Guard fires its rifle (2d10+2, AP 4) full auto, concentrated on damage
(+3d10: 5d10+2 DV) at Ava, wounded twice (a wound malus on her dodge), every defence she may
choose (none, dodge): ``POST /eclipse/encounters/<id>/odds/`` as htmx, in process (a
RequestFactory's WSGI environ through the test ClientHandler: the app's whole middleware, the
GM's session, the template; not django.test.Client, whose capture of every template's context
for the test's assertions costs more than the view), against ``/bench/bare`` (bench.urls: one
ORM query, no template) through the same handler.

Two series, interleaved with the bare view round by round: **warm** (the pure tables the odds
memoise are kept between requests, as in a running server where the form is redrawn on every
change, and the attack's context kept for the encounter's version: eclipse.play_selectors.
odds_context) and **cold** (gamerules.eclipse_phase.odds.clear_tables and eclipse.
play_selectors.clear_odds_contexts before each request: the first time a process meets these
numbers, every query run). Each prints p50 and p95 and the ratios to the bare view's.
Bounded: BENCH_ODDS_ROUNDS rounds (default 60) per series.
"""

from __future__ import annotations

import importlib
import os
import statistics
import time

TARGET_P95_MS = 20.0


class _Handler:
    """Requests through the app's middleware (CSRF checks off, as the test client's) with the
    session cookie ``session_key``: ``get``/``post`` return the response."""

    def __init__(self, session_key: str):
        from django.test import RequestFactory
        from django.test.client import ClientHandler

        self.factory = RequestFactory(HTTP_COOKIE=f"sessionid={session_key}")
        self.handler = ClientHandler(enforce_csrf_checks=False)

    def get(self, url: str):
        return self.handler(self.factory.get(url).environ)

    def post(self, url: str, data: dict, **headers):
        return self.handler(self.factory.post(url, data, **headers).environ)


def build():
    """The Eclipse test world (tests.eclipse_play.conftest), Ava wounded twice, the encounter
    started and at the Guard's turn. Returns (the GM's handler, odds URL, form data)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from eclipse.models import Sleeve
    from encounters import services as enc
    # The tests' world, imported by name: mypy checks the app and the bench, not the tests.
    world = importlib.import_module("tests.eclipse_play.conftest")
    build_world, running = world.build_world, world.running

    users = get_user_model().objects
    alice = users.create_user("odds-alice", "odds-alice@example.invalid", "odds-password-42")
    bob = users.create_user("odds-bob", "odds-bob@example.invalid", "odds-password-42")
    ep = build_world(alice, bob)
    Sleeve.objects.filter(owner=ep.sheets[ep.ava.pk]).update(wounds=2, damage=14)
    e, c = running(ep)
    for user in (alice, bob):  # Ava's turn, Bo's, then the Guard's
        e.refresh_from_db()
        enc.encounter_next_turn(user=user, encounter_id=e.pk, turn=e.turn_serial)
    e.refresh_from_db()
    client = Client()
    client.force_login(ep.gm)
    handler = _Handler(client.cookies["sessionid"].value)
    data = {"page": "play", "turn": e.turn_serial, "combatant": c[ep.guard.pk].pk,
            "target": c[ep.ava.pk].pk, "weapon": ep.w.guard_rifle.pk, "mode": "FA",
            "concentrate": "damage", "range_band": "short"}
    return handler, f"/eclipse/encounters/{e.pk}/odds/", data


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def _series(client, url, data, rounds: int, cold: bool) -> tuple[list[float], list[float], bool]:
    from eclipse.play_selectors import clear_odds_contexts
    from gamerules.eclipse_phase.odds import clear_tables

    odds, bare = [], []
    ok = True
    for _ in range(rounds):
        started = time.perf_counter()
        r = client.get("/bench/bare")
        bare.append(time.perf_counter() - started)
        ok = ok and r.status_code == 200
        if cold:
            clear_tables()
            clear_odds_contexts()
        started = time.perf_counter()
        r = client.post(url, data, HTTP_HX_REQUEST="true")
        odds.append(time.perf_counter() - started)
        ok = ok and r.status_code == 200 and r.content.count(b'data-testid="odds-line"') == 2
    return odds, bare, ok


def run(*, out) -> bool:
    """Build, measure, print. False when a request failed or the warm p95 misses the target."""
    from django.test.utils import override_settings

    rounds = int(os.environ.get("BENCH_ODDS_ROUNDS", "60"))
    with override_settings(ROOT_URLCONF="bench.urls"):
        client, url, data = build()
        first = client.post(url, data, HTTP_HX_REQUEST="true")
        if first.status_code != 200 or b'data-testid="odds-line"' not in first.content:
            print(f"  the odds request failed: {first.status_code} "
                  f"{first.content[:300]!r}", file=out)
            return False
        client.get("/bench/bare")
        print(f"  full auto, +3d10 (5d10+2 DV), Ava wounded twice, defences: none, dodge; "
              f"{rounds} rounds per series, interleaved with /bench/bare", file=out)
        ok = True
        warm_p95 = 0.0
        for label, cold in (("warm", False), ("cold", True)):
            odds, bare, fine = _series(client, url, data, rounds, cold)
            ok = ok and fine
            o50, o95 = statistics.median(odds) * 1000, _p95(odds) * 1000
            b50, b95 = statistics.median(bare) * 1000, _p95(bare) * 1000
            warm_p95 = o95 if not cold else warm_p95
            print(f"    {label}: odds p50 {o50:6.1f} ms p95 {o95:6.1f} ms; bare p50 {b50:5.1f} ms "
                  f"p95 {b95:5.1f} ms; ratio p50 {o50 / b50:5.1f}, p95 {o95 / b95:5.1f}",
                  file=out, flush=True)
    print(f"    target: odds p95 <= {TARGET_P95_MS:.0f} ms (warm): "
          f"{'met' if warm_p95 <= TARGET_P95_MS else 'MISSED'}", file=out)
    return ok and warm_p95 <= TARGET_P95_MS
