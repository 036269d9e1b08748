"""Open event streams (issue 17, items 1 and 2; campaigns.live): gunicorn with 2 uvicorn
workers, as the Procfile runs it, on the bench database and Redis; BENCH_STREAMS streams
(default 2,000) of the players' page of a homebrew encounter of 20 combatants, spread over its
GM and two players, opened by one asyncio client, then rounds of: bare requests, one change
(a version written, its event published), its delivery to every stream timed (each stream
pushes its page's new fragment). Prints delivery p50, p95 and max against the bare request's
latency in the same run, the workers' memory per open stream (RSS delta / streams), their threads and the
bench database's PostgreSQL connections with the streams open, and the errors (must be 0).

Bounded: opening takes about 20 s for 2,000 streams on 2 cores, each round a second or two.
The server listens on BENCH_STREAM_PORT (default 8176; the port range 8170-8177 is shared, run
the bench under ``flock /tmp/percentile-ports.lock``). Without Redis the two workers cannot hear
one another, so the delivery part is skipped (the figures without it are still printed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "var" / "bench" / "streams-gunicorn.log"
OPEN_BATCH = 20  # streams opened at once: each open's check uses a connection for a moment
ROUNDS = 5
BARE_PER_ROUND = 10
DELIVERY_TIMEOUT_S = 20
OPEN_TIMEOUT_S = 30
STORM_TIMEOUT_S = 60  # every stream reopened at once
# The pages' reopen of a refused stream (static/js/live.js): first wait, cap, tries.
REOPEN_S, REOPEN_MAX_S, REOPEN_TRIES = 5.0, 60.0, 8
IDLE_S = 25
JITTER_S = 0.2  # a page's random wait before its refetch (static/js/encounter-push.js)
CURRENT_TIMEOUT_S = 90
REFETCH_RETRY_S, REFETCH_RETRIES = 2.0, 5  # encounter-push.js's retry of a refused refetch
LINE_LIMIT = 8 * 1024 * 1024  # a pushed fragment is one SSE data line (tens of KB)
_VERSION = re.compile(rb'data: \{"version": (\d+)')


def _set_version(encounter: int, version: int) -> None:
    """The version a step would have written, before its event is published: the streams push
    the fragment of the version the database holds (encounters.streamed). Run in a thread of
    its own (the ORM refuses the event loop's)."""
    from django.db import connection

    from encounters.models import Encounter

    try:
        Encounter.objects.filter(pk=encounter).update(version=version)
    finally:
        connection.close()


def _build():
    """A homebrew encounter of 20 combatants, started (bench.wave.homebrew_table), and a session
    of each of its viewers: its GM and two players, three kinds of viewer whose pages differ.
    Returns ([session key of the GM, alice, bob], encounter id)."""
    from bench.wave import homebrew_table, sessions_of

    encounter, gm, (alice, bob) = homebrew_table("streams", 20)
    sessions = sessions_of({"gm": gm, "alice": alice, "bob": bob})
    return [sessions["gm"], sessions["alice"], sessions["bob"]], encounter.pk


def _stream_request(encounter: int, cookie: str) -> bytes:
    return (f"GET /encounters/{encounter}/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Cookie: sessionid={cookie}\r\nAccept: text/event-stream\r\n\r\n").encode()


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _workers(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def _connections() -> int | str:
    """PostgreSQL connections to the bench database, through a connection of its own (psycopg,
    not Django's ORM, which refuses the event loop's thread); the bench's own included."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return "n/a"
    import psycopg

    s = connection.settings_dict
    with psycopg.connect(dbname="postgres", host=s["HOST"] or None, port=s["PORT"] or None,
                         user=s["USER"] or None, password=s["PASSWORD"] or None) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                           [s["NAME"]]).fetchone()
    return row[0] if row is not None else 0  # count(*) always answers one row


def _pct(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class _Stream:
    """One page's stream, as static/js/live.js and encounter-push.js hold it: an answer that is
    not a stream (the server's 503 during a storm) is opened again after the pages' growing
    random wait (REOPEN_MS doubled each time, REOPEN_TRIES at most); ``refused`` counts them."""

    def __init__(self, cookie: str) -> None:
        self.cookie = cookie  # the session of the page's viewer
        self.opened = asyncio.Event()
        self.seen: dict[int, float] = {}
        self.pushed: set[int] = set()  # versions whose fragment came in the stream (a body)
        self.waiters: dict[int, asyncio.Event] = {}
        self.failed = False
        self.refused = 0
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int, request: bytes) -> None:
        while True:
            try:
                await self._once(port, request)
            except _Refused:
                if self.refused >= REOPEN_TRIES:
                    break
                wait = min(REOPEN_MAX_S, REOPEN_S * 2 ** self.refused)
                self.refused += 1
                await asyncio.sleep(wait / 2 + random.random() * wait / 2)
                continue
            except (OSError, ConnectionError, ValueError):
                pass
            break
        self.failed = True
        self.opened.set()
        for waiter in self.waiters.values():
            waiter.set()

    async def _once(self, port: int, request: bytes) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port,
                                                            limit=LINE_LIMIT)
        self.writer.write(request)
        await self.writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            self.writer.close()
            raise _Refused(status)
        event = b""
        while line := await reader.readline():
            if line.startswith(b"event: "):
                event = line[7:].strip()
                if event == b"stream-open":
                    self.opened.set()
            elif line.startswith(b"data: {"):
                # Only the head is read: a pushed fragment's line is tens of KB, and parsing
                # 2,000 of them would make this client, not the server, the bottleneck.
                head = _VERSION.match(line)
                version = int(head.group(1)) if head else json.loads(line[6:]).get("version")
                self.seen[version] = time.perf_counter()
                if event == b"body":
                    self.pushed.add(version)
                if version in self.waiters:
                    self.waiters[version].set()
        raise ConnectionError("closed")


class _Refused(Exception):
    """The server answered the opening with something else than a stream (503 while busy)."""


async def _get(port: int, cookie: str, path: str, headers: str = "") -> bytes:
    """One GET on a connection of its own (closed after it): the whole answer, head and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sessionid={cookie}\r\n"
                 f"{headers}Connection: close\r\n\r\n".encode())
    await writer.drain()
    body = await reader.read()
    writer.close()
    return body


async def _bare(port: int, cookie: str) -> float:
    started = time.perf_counter()
    body = await _get(port, cookie, "/bench/bare")
    if not body.startswith(b"HTTP/1.1 200"):
        raise ConnectionError(body[:80])
    return time.perf_counter() - started


async def _measure(port: int, cookies: list[str], encounter: int, count: int,
                   redis_url: str | None, *, master: int, out) -> bool:
    """The streams spread over the viewers of ``cookies`` in turn (the bare requests are the
    first one's)."""
    topic = f"encounter-{encounter}"
    cookie = cookies[0]
    workers = _workers(master)
    bare_before = [await _bare(port, cookie) for _ in range(BARE_PER_ROUND)]
    rss0 = sum(_rss_kb(p) for p in workers)
    threads0 = sum(_threads(p) for p in workers)
    connections0 = _connections()
    streams: list[_Stream] = []
    tasks = []
    started = time.perf_counter()
    for i in range(0, count, OPEN_BATCH):
        batch = [_Stream(cookies[(i + k) % len(cookies)])
                 for k in range(min(OPEN_BATCH, count - i))]
        tasks += [asyncio.create_task(s.run(port, _stream_request(encounter, s.cookie)))
                  for s in batch]
        await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in batch)), OPEN_TIMEOUT_S)
        streams += batch
    opening = time.perf_counter() - started
    await asyncio.sleep(1)
    held = sum(not s.failed for s in streams)
    rss1 = sum(_rss_kb(p) for p in workers)
    threads1 = sum(_threads(p) for p in workers)
    connections1 = _connections()
    print(f"  {held} of {count} streams held on 2 workers (opened in {opening:.1f} s, "
          f"{OPEN_BATCH} at a time); worker RSS {rss0 / 1024:.0f} -> {rss1 / 1024:.0f} MB: "
          f"{(rss1 - rss0) / max(held, 1):.1f} KB per stream", file=out)
    print(f"  worker threads {threads0} -> {threads1}; PostgreSQL connections to the bench "
          f"database {connections0} -> {connections1}", file=out)
    bare = list(bare_before)
    errors = count - held
    if not redis_url:
        print("  no REDIS_URL: the two workers cannot share an event, delivery not measured",
              file=out)
    else:
        import redis

        publisher = redis.Redis.from_url(redis_url)
        errors += await _deliveries(port, cookie, streams, bare, publisher=publisher,
                                    encounter=encounter, out=out)
        errors += await _currency(port, cookie, encounter, streams, publisher=publisher,
                                  topic=topic, out=out)
    errors += await _storm_and_idle(port, cookie, encounter, streams, tasks, master=master,
                                    out=out)
    server_errors = LOG.read_text().count("Traceback")
    print(f"  errors: {errors} (streams refused, dropped or missing an event), "
          f"{server_errors} server tracebacks", file=out, flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return errors == 0 and server_errors == 0


async def _deliveries(port: int, cookie: str, streams: list[_Stream], bare: list[float], *,
                      publisher, encounter: int, out) -> int:
    """ROUNDS changes to every stream, interleaved with bare requests (added to ``bare``): each
    a new version written, then its event published, as a step does; each stream answers with
    its page's new fragment (encounters.streamed). The delivery's p50, p95 and max against the
    bare request's. Errors: deliveries missing."""
    topic = f"encounter-{encounter}"
    errors, held = 0, len(streams)
    deliveries: list[float] = []
    for round_ in range(1, ROUNDS + 1):
        bare += [await _bare(port, cookie) for _ in range(BARE_PER_ROUND)]
        for s in streams:
            s.waiters[round_] = asyncio.Event()
        data = json.dumps({"topic": topic, "version": round_})
        await asyncio.to_thread(_set_version, encounter, round_)
        # What campaigns.live.announce publishes (django-eventstream's Redis message).
        sent = time.perf_counter()
        publisher.publish("events_channel", json.dumps(
            {"channel": topic, "event_type": "change", "data": data, "pub_id": None}))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(
                *(s.waiters[round_].wait() for s in streams)), DELIVERY_TIMEOUT_S)
        got = [s.seen[round_] - sent for s in streams if round_ in s.seen]
        errors += len(streams) - len(got)
        deliveries += got
    b50, b95 = _pct(bare, 50), _pct(bare, 95)
    d50, d95, dmax = _pct(deliveries, 50), _pct(deliveries, 95), max(deliveries or [0])
    print(f"  one event to all {held} streams, {ROUNDS} rounds ({len(deliveries)} "
          f"deliveries), interleaved with {len(bare)} bare requests:", file=out)
    print(f"  {'':12} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}   {'p50 x':>6} {'p95 x':>6}",
          file=out)
    print(f"  {'bare':12} {b50 * 1000:8.1f} {b95 * 1000:8.1f} {max(bare) * 1000:8.1f}   "
          f"{1:6.2f} {1:6.2f}", file=out)
    print(f"  {'delivery':12} {d50 * 1000:8.1f} {d95 * 1000:8.1f} {dmax * 1000:8.1f}   "
          f"{d50 / b50:6.2f} {d95 / b95:6.2f}", file=out)
    return errors


async def _refetch(port: int, cookie: str, path: str) -> int:
    """One page's refetch of its fragment (htmx), as static/js/encounter-push.js makes it: the
    answer's status (0 for no HTTP answer)."""
    body = await _get(port, cookie, path, headers="HX-Request: true\r\n")
    return int(body[9:12]) if body.startswith(b"HTTP/1.1 ") else 0


async def _currency(port: int, cookie: str, encounter: int, streams: list[_Stream], *,
                    publisher, topic: str, out) -> int:
    """Every page current after a change: a new version written and its event published; each
    stream pushes its page's new fragment (encounters.streamed), and a page that got the bare
    change instead refetches its fragment after its random wait (up to JITTER_S, as
    encounter-push.js), a refused refetch (503) made again as the page does. The pages
    are the players' page of the GM, alice and bob (20 combatants). The time from the
    event until each page has its fragment: p50, p95, max. Errors: pages that never got it."""
    version = ROUNDS + 1
    done: list[float] = []
    statuses: dict[int, int] = {}
    path = f"/encounters/{encounter}/?v=0"

    async def page(s: _Stream, sent: float) -> None:
        await s.waiters[version].wait()
        if s.failed:
            return
        if version in s.pushed:  # the new fragment came in the stream: current, no request
            done.append(s.seen[version] - sent)
            return
        await asyncio.sleep(random.random() * JITTER_S)
        for retry in range(REFETCH_RETRIES + 1):
            try:
                status = await _refetch(port, s.cookie, path)
            except OSError:
                status = 0
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                done.append(time.perf_counter() - sent)
                return
            wait = REFETCH_RETRY_S * 2 ** retry  # as encounter-push.js retries a refused fetch
            await asyncio.sleep(wait / 2 + random.random() * wait / 2)

    for s in streams:
        s.waiters[version] = asyncio.Event()
    await asyncio.to_thread(_set_version, encounter, version)
    sent = time.perf_counter()
    pages = [asyncio.create_task(page(s, sent)) for s in streams]
    publisher.publish("events_channel", json.dumps(
        {"channel": topic, "event_type": "change",
         "data": json.dumps({"topic": topic, "version": version}), "pub_id": None}))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*pages), CURRENT_TIMEOUT_S)
    pushed = sum(version in s.pushed for s in streams)
    print(f"  every page current: {len(done)} of {len(streams)} pages have the new fragment "
          f"({pushed} pushed in the stream, the others refetched it: answers {statuses}, "
          f"retries included); from the event to the fragment p50 "
          f"{_pct(done, 50) * 1000:.0f} ms, p95 {_pct(done, 95) * 1000:.0f} ms, max "
          f"{max(done or [0]) * 1000:.0f} ms (target: all within 2 s)", file=out, flush=True)
    return len(streams) - len(done)


async def _storm_and_idle(port: int, cookie: str, encounter: int, streams: list[_Stream],
                          tasks: list, *, master: int, out) -> int:
    """The reconnect storm (every stream dropped, then all reopened at once, as the pages do
    after a restart, with bare requests meanwhile), then the streams left idle past one
    keep-alive (IDLE_S): errors (streams not reopened or dropped while idle, a worker
    replaced). Replaces ``streams`` and ``tasks`` by the reopened ones."""
    count = len(streams)
    workers = sorted(_workers(master))
    for s in streams:
        if s.writer is not None:
            s.writer.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(1)
    again = [_Stream(s.cookie) for s in streams]
    started = time.perf_counter()
    reopening = [asyncio.create_task(s.run(port, _stream_request(encounter, s.cookie)))
                 for s in again]
    bare = await asyncio.gather(*(_bare(port, cookie) for _ in range(BARE_PER_ROUND)),
                                return_exceptions=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in again)),
                               STORM_TIMEOUT_S)
    took = time.perf_counter() - started
    reopened = sum(s.opened.is_set() and not s.failed for s in again)
    refused = sum(s.refused for s in again)
    answered = [b for b in bare if isinstance(b, float)]
    print(f"  reconnect storm: {count} streams dropped, then reopened all at once: {reopened} "
          f"held in {took:.1f} s ({refused} openings refused with 503 and reopened after the "
          f"pages' wait); {len(answered)} of {len(bare)} bare requests answered meanwhile "
          f"(p50 {(_pct(answered, 50) if answered else 0) * 1000:.0f} ms)",
          file=out, flush=True)
    await asyncio.sleep(IDLE_S)
    idle = sum(s.opened.is_set() and not s.failed for s in again)
    same = sorted(_workers(master)) == workers
    print(f"  idle {IDLE_S} s (past the 20 s keep-alive): {idle} of {count} still open; "
          f"workers {'the same' if same else 'REPLACED'}", file=out, flush=True)
    streams[:], tasks[:] = again, reopening
    return (count - reopened) + (reopened - idle) + (0 if same else 1)


def run(*, out, redis_url: str | None, database_url: str | None) -> bool:
    from django.conf import settings

    from bench.load import _database_url

    count = int(os.environ.get("BENCH_STREAMS", "2000"))
    port = int(os.environ.get("BENCH_STREAM_PORT", "8176"))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = count + 512  # the client's sockets here; each worker (inheriting it) holds ~half
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    cookies, encounter = _build()
    cookie = cookies[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="bench.settings", DATABASE_URL=_database_url(database_url),
               SECRET_KEY=settings.SECRET_KEY, DEBUG="false")
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with open(LOG, "w") as log:  # gunicorn writes its errors here until it stops
        server = subprocess.Popen(
            [gunicorn, "config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker",
             "--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
            start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    asyncio.run(_bare(port, cookie))
                    if len(_workers(server.pid)) == 2:
                        break
                except OSError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    print(f"gunicorn did not start: {LOG.read_text()[-2000:]}", file=out)
                    return False
                time.sleep(0.3)
            print(f"gunicorn, 2 uvicorn workers (ASGI) on 127.0.0.1:{port}, "
                  f"{'Redis pub/sub' if redis_url else 'no Redis'}:", file=out, flush=True)
            return asyncio.run(_measure(port, cookies, encounter, count, redis_url,
                                        master=server.pid, out=out))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
