"""A load run on loopback: gunicorn (2 uvicorn workers, the production server) on the bench
database, a threaded HTTP client; beside it a gunicorn with 2 sync workers serving the WSGI
application, for the cost of ASGI (the "@wsgi" scenarios, interleaved with the others).

Measured, each at two client concurrencies and in the same run as the yardstick (a bare view
that runs one ORM query, ``bench.urls``): the board page, the board poll when nothing changed (the
204 of combat.polls), an attack (the board's htmx POST), the sheet. Scenarios are interleaved
in short slices, several rounds, so that a change of machine load hits them all alike. Prints
p50, p95 and requests per second, and each as a ratio to the bare view.

Bounded: every slice lasts BENCH_LOAD_SLICE seconds (default 1), BENCH_LOAD_ROUNDS rounds
(default 6), about two minutes in all, and the server is stopped at the end. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

CONCURRENCIES = (2, 8)
# "@wsgi": the same request to a second gunicorn serving the WSGI application with sync workers,
# interleaved with the rest: what serving ASGI (uvicorn workers, for the server push) costs.
SCENARIOS = ("bare", "board", "poll", "sheet", "attack", "bare@wsgi", "board@wsgi")
ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "var" / "bench" / "load-gunicorn.log"  # the server's errors, if any
WSGI_LOG = ROOT / "var" / "bench" / "load-gunicorn-wsgi.log"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(original: str | None) -> str:
    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    parts = urlsplit(original or "")
    return urlunsplit(parts._replace(path="/" + name))


def build(pairs: int):
    """``pairs`` attackers next to their targets in one campaign, ten pieces around each
    attacker; a logged-in session per attacker. Returns [(session key, attacker, target)]."""
    import random

    from django.contrib.auth import get_user_model
    from django.test import Client

    from campaigns.models import Board, Campaign, RuleSystem
    from characters.models import Character
    from characters.services import character_create
    from ew1.models import EternalWarSheet

    rng = random.Random(11)
    campaign = Campaign.objects.create(name="Bench: load", rule_system=RuleSystem.ETERNAL_WAR,
                                       rule_parameters={"view_radius": 2})
    board = Board.objects.create(campaign=campaign, width=6 * pairs, height=5)
    users = get_user_model().objects
    out = []
    for i in range(pairs):
        owner = users.create_user(f"load-{i}", f"load{i}@example.invalid", "load-password-42")
        foe_owner = users.create_user(f"load-foe-{i}", f"foe{i}@example.invalid", "x")
        x0 = 6 * i
        attacker = character_create(user=owner, campaign=campaign, name=f"A{i:02}", rng=rng)
        target = character_create(user=foe_owner, campaign=campaign, name=f"T{i:02}", rng=rng)
        crowd = [character_create(user=foe_owner, campaign=campaign, name=f"C{i:02}{j}",
                                  rng=rng) for j in range(8)]
        cells = [(x0 + 2, 2), (x0 + 3, 2)] + [(x0 + dx, y) for dx in (0, 1, 4, 5)
                                              for y in (1, 3)]
        pieces = [attacker, target, *crowd]
        Character.objects.filter(pk__in=[p.pk for p in pieces]).update(board=None, x=None,
                                                                        y=None)
        for piece, (x, y) in zip(pieces, cells):
            Character.objects.filter(pk=piece.pk).update(board=board, x=x, y=y,
                                                         first_action_at=attacker.created_at)
        # PA above the cap never runs out (nor regenerates: no countdown), PV that lasts.
        EternalWarSheet.objects.filter(pk=attacker.pk).update(pa=90000)
        EternalWarSheet.objects.filter(pk__in=[p.pk for p in pieces]).update(pv=10 ** 6,
                                                                             pv_max=10 ** 6)
        client = Client()
        client.force_login(owner)
        out.append((client.cookies["sessionid"].value, attacker.pk, target.pk))
    return out


class _Player:
    """One client thread's HTTP session, logged in as one attacker."""

    def __init__(self, bases: tuple[str, str], session_key: str, attacker: int, target: int):
        import requests

        (self.base, self.wsgi_base), self.attacker, self.target = bases, attacker, target
        self.http = requests.Session()
        self.http.cookies.set("sessionid", session_key, domain="127.0.0.1", path="/")
        page = self.http.get(f"{self.base}/characters/{attacker}/board/", timeout=30,
                             allow_redirects=False)
        if page.status_code != 200:
            raise SystemExit(f"the bench session is refused: {page.status_code}")
        self.csrf: str = self.http.cookies.get("csrftoken") or ""
        self.token: str | None = None

    def request(self, scenario: str) -> tuple[float, int]:
        scenario, _at, server = scenario.partition("@")
        base, a = (self.wsgi_base if server == "wsgi" else self.base), self.attacker
        htmx = {"HX-Request": "true"}
        started = time.perf_counter()
        if scenario == "bare":
            r = self.http.get(f"{base}/bench/bare", timeout=30,
                              allow_redirects=False)
        elif scenario == "board":
            r = self.http.get(f"{base}/characters/{a}/board/", timeout=30,
                              allow_redirects=False)
        elif scenario == "sheet":
            r = self.http.get(f"{base}/characters/{a}/", timeout=30,
                              allow_redirects=False)
        elif scenario == "poll":
            r = self.http.get(f"{base}/characters/{a}/board/", params={"v": self.token or ""},
                              headers=htmx, timeout=30, allow_redirects=False)
        else:
            r = self.http.post(f"{base}/characters/{a}/attack/",
                               data={"target": self.target, "kind": "brawl"},
                               headers={**htmx, "X-CSRFToken": self.csrf}, timeout=30,
                               allow_redirects=False)
        elapsed = time.perf_counter() - started
        if r.status_code == 200 and scenario != "bare" and 'id="board"' not in r.text \
                and 'id="sheet"' not in r.text:
            return elapsed, 0  # not the page asked for (a login page): never counted
        if scenario == "poll" and r.status_code == 200:
            match = re.search(r'\?v=([^"]*)"', r.text)
            self.token = match[1] if match else None
        return elapsed, r.status_code

    def settle_poll(self) -> None:
        """Two polls: the first renders and hands out a token read before its data."""
        for _ in range(3):
            _, status = self.request("poll")
            if status == 204:
                return


def _slice(players, scenario: str, seconds: float) -> tuple[list[float], dict[int, int], float]:
    """Every player requests ``scenario`` in a loop for ``seconds``: (latencies of the
    requests that count, statuses, wall time)."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    expected = {"poll": 204}.get(scenario, 200)

    def loop(player):
        while time.perf_counter() < stop:
            elapsed, status = player.request(scenario)
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == expected:
                    latencies.append(elapsed)

    if scenario == "poll":
        for player in players:
            player.settle_poll()
    started = time.perf_counter()
    stop = started + seconds
    threads = [threading.Thread(target=loop, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, statuses, time.perf_counter() - started


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def run(*, out, redis_url: str | None, database_url: str | None) -> bool:
    """Start gunicorn, load it, print the figures, stop it. False if a scenario failed."""
    from django.conf import settings
    from django.core.management import call_command

    seconds = float(os.environ.get("BENCH_LOAD_SLICE", "1"))
    rounds = int(os.environ.get("BENCH_LOAD_ROUNDS", "6"))
    port = int(os.environ.get("BENCH_PORT") or _free_port())
    if not redis_url:
        call_command("createcachetable", verbosity=0)  # the versions live in the cache
    players_data = build(max(CONCURRENCIES))
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="bench.settings", DATABASE_URL=_database_url(database_url),
               # The sessions made here are signed with this process's key.
               SECRET_KEY=settings.SECRET_KEY, DEBUG="false", API_USER_RATE="100000/minute")
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    wsgi_port = _free_port()
    bases = (f"http://127.0.0.1:{port}", f"http://127.0.0.1:{wsgi_port}")
    LOG.parent.mkdir(parents=True, exist_ok=True)  # a fresh clone has no var/
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with contextlib.ExitStack() as logs:  # gunicorn writes its errors there until it stops
        servers = [subprocess.Popen(
            [gunicorn, *app, "--bind", f"127.0.0.1:{p}", "--workers", "2", "--timeout", "60"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=logs.enter_context(open(log, "w")),
            start_new_session=True)
            for app, p, log in (
                (("config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"),
                 port, LOG),
                (("config.wsgi",), wsgi_port, WSGI_LOG))]
        try:
            return _measure(bases, servers, players_data, seconds, rounds, out=out,
                            cache_label="Redis" if redis_url else "database")
        finally:
            for server in servers:
                os.killpg(server.pid, signal.SIGTERM)
            for server in servers:
                try:
                    server.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait(timeout=10)


def _measure(bases, servers, players_data, seconds, rounds, *, out, cache_label) -> bool:  # noqa: PLR0912  one timed script
    import requests

    deadline = time.monotonic() + 60
    for base, server, log in zip(bases, servers, (LOG, WSGI_LOG)):
        while True:
            try:
                if requests.get(f"{base}/bench/bare", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                print(f"gunicorn did not start: {log.read_text()[-2000:]}", file=out)
                return False
            time.sleep(0.3)
    print(f"gunicorn, 2 uvicorn workers (ASGI), on {bases[0]}; beside it, for the @wsgi lines, "
          f"gunicorn with 2 sync workers (WSGI) on {bases[1]} (cache: {cache_label}); {rounds} "
          f"rounds of {seconds:g} s slices per scenario and concurrency, interleaved", file=out,
          flush=True)
    ok = True
    for concurrency in CONCURRENCIES:
        players = [_Player(bases, *p) for p in players_data[:concurrency]]
        samples: dict[str, list[float]] = {s: [] for s in SCENARIOS}
        statuses: dict[str, dict[int, int]] = {s: {} for s in SCENARIOS}
        wall = {s: 0.0 for s in SCENARIOS}
        for _ in range(rounds):
            for scenario in SCENARIOS:
                lat, st, took = _slice(players, scenario, seconds)
                samples[scenario] += lat
                wall[scenario] += took
                for k, v in st.items():
                    statuses[scenario][k] = statuses[scenario].get(k, 0) + v
        bare50, bare95 = _pct(samples["bare"], 50), _pct(samples["bare"], 95)
        bare_rps = len(samples["bare"]) / wall["bare"]
        print(f"\n  {concurrency} client threads:", file=out)
        print(f"  {'':10} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>7}   "
              f"{'p50 x':>6} {'p95 x':>6} {'req/s x':>7}  statuses", file=out)
        for scenario in SCENARIOS:
            lat = samples[scenario]
            p50, p95 = _pct(lat, 50), _pct(lat, 95)
            rps = len(lat) / wall[scenario] if wall[scenario] else 0.0
            print(f"  {scenario:10} {len(lat):6d} {p50 * 1000:8.1f} {p95 * 1000:8.1f} "
                  f"{rps:7.1f}   {p50 / bare50:6.2f} {p95 / bare95:6.2f} {rps / bare_rps:7.2f}"
                  f"  {dict(sorted(statuses[scenario].items()))}", file=out, flush=True)
            if not lat:
                ok = False
        poll_ratio = _pct(samples["poll"], 95) / bare95
        print(f"  unchanged poll p95 / bare p95 = {poll_ratio:.2f} (target <= 2)", file=out)
        for page in ("bare", "board"):
            print(f"  {page}: ASGI p50 / WSGI p50 = "
                  f"{_pct(samples[page], 50) / _pct(samples[page + '@wsgi'], 50):.2f}", file=out)
    errors = LOG.read_text().count("Traceback") + WSGI_LOG.read_text().count("Traceback")
    if errors:
        print(f"\n  {errors} server errors: see {LOG.relative_to(ROOT)}", file=out)
    return ok
