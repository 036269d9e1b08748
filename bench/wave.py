"""The refetch wave on loopback (issue 17, item 2): gunicorn with 2 uvicorn workers (the
production server) on the bench database, one homebrew encounter of 20 combatants (two
players' characters and 18 goblins, a rolled order: 20 initiative entries in its log), pages
of it open as the game master (the control page) and as the two players.

- **Wave**: N pages (50, then 200) fetch the fragment of the version a step just made, all at
  once (one thread per page), as the push makes every open page do. Interleaved, in the same
  rounds, N bare requests at once (``/bench/bare``, bench.urls): the wave's wall time against
  the bare burst's, ratio printed. The fragment's body is rendered once per version and kind of
  viewer (here 3: the GM's control page, each player's page) and read from the cache by every
  other page (encounters.pages).
- **Step answer**: the GM's "next turn" as htmx (the out-of-band answer of what changed) against
  the bare view, one after the other, p50 and ratio; beside them the fragment the answer
  replaced (the whole body rendered: a refetch of a version nobody fetched yet).

Bounded: BENCH_WAVE_ROUNDS rounds (default 5) per size; the server is stopped at the end.
Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.load import _database_url, _free_port

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "var" / "bench" / "wave-gunicorn.log"
SIZES = (50, 200)


def _found(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in the page ``text``; a page without it stops the bench."""
    match = re.search(pattern, text)
    if match is None:
        raise SystemExit(f"the bench page has no {pattern!r}")
    return match[1]


def homebrew_table(prefix: str, combatants: int):
    """A homebrew campaign with a GM, two players' characters and goblins up to
    ``combatants``, their encounter started in a rolled order. Users and names start with
    ``prefix``. Returns (encounter, gm, [alice, bob])."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from campaigns.models import Campaign, RuleSystem
    from characters.models import Character
    from encounters import services
    from homebrew.models import HomebrewSheet
    from homebrew.services import homebrew_character_create

    users = get_user_model().objects
    gm = users.create_user(f"{prefix}-gm", f"{prefix}-gm@example.invalid", f"{prefix}-password-42")
    players = [users.create_user(n, f"{n}@example.invalid", f"{prefix}-password-42")
               for n in (f"{prefix}-alice", f"{prefix}-bob")]
    campaign = Campaign.objects.create(name=f"Bench: {prefix}", rule_system=RuleSystem.HOMEBREW,
                                       game_master=gm)
    spread = {"physique": 60, "perception": 50, "mental": 60, "force": 3, "dexterite": 3,
              "sens": 2, "ether": 3, "esprit": 4, "intelligence": 2}
    now = timezone.now()
    heroes = [homebrew_character_create(user=p, campaign=campaign, name=f"Hero {i}",
                                        values=spread, now=now)
              for i, p in enumerate(players)]
    goblin = Character.objects.create(campaign=campaign, name="Goblin",
                                      kind=Character.Kind.CREATURE)
    HomebrewSheet.objects.create(character=goblin, physique=50, perception=40, mental=20,
                                 force=2, dexterite=3, hp=8, hp_max=8, mp=0, mp_max=0)
    encounter = services.encounter_create(user=gm, campaign_id=campaign.pk,
                                          name=prefix.capitalize())
    services.combatants_add(user=gm, encounter_id=encounter.pk, entries=[
        *(services.CombatantEntry(character_id=h.pk) for h in heroes),
        services.CombatantEntry(template_id=goblin.pk, count=combatants - len(heroes))])
    encounter = services.encounter_start(user=gm, encounter_id=encounter.pk, mode="rolled")
    return encounter, gm, players


def sessions_of(users: dict) -> dict[str, str]:
    """{name: session key} of a logged-in session for each of ``users`` ({name: user})."""
    from django.test import Client

    sessions = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        sessions[name] = client.cookies["sessionid"].value
    return sessions


def build():
    """The campaign, the encounter of 20 combatants (started, rolled order) and a session per
    viewer. Returns (encounter id, {"gm": key, "alice": key, "bob": key})."""
    encounter, gm, (alice, bob) = homebrew_table("wave", 20)
    return encounter.pk, sessions_of({"gm": gm, "alice": alice, "bob": bob})


class _Page:
    """One open page: an HTTP session of one viewer, the version its fragment shows."""

    def __init__(self, base: str, encounter_id: int, session_key: str, control: bool):
        import requests

        self.http = requests.Session()
        self.http.cookies.set("sessionid", session_key, domain="127.0.0.1", path="/")
        self.url = f"{base}/encounters/{encounter_id}/{'control/' if control else ''}"
        self.base, self.encounter_id = base, encounter_id
        first = self.http.get(self.url, timeout=60)
        if first.status_code != 200:
            raise SystemExit(f"the bench session is refused: {first.status_code}")
        self.csrf: str = self.http.cookies.get("csrftoken") or ""
        self.version = int(_found(r'data-version="(\d+)"', first.text))

    def refetch(self) -> int:
        r = self.http.get(self.url, params={"v": self.version},
                          headers={"HX-Request": "true"}, timeout=60)
        if r.status_code == 200:
            match = re.search(r'data-version="(\d+)"', r.text)
            self.version = int(match[1]) if match else self.version
        return r.status_code

    def bare(self) -> int:
        return self.http.get(f"{self.base}/bench/bare", timeout=60).status_code

    def next_turn(self, htmx: bool = True) -> tuple[float, int, int]:
        """The GM's "next turn" (htmx: the out-of-band answer; else the redirect, the step
        alone): (seconds, status, bytes)."""
        page = self.http.get(self.url, timeout=60).text
        turn = _found(r'name="turn" value="(\d+)"', page)
        started = time.perf_counter()
        r = self.http.post(f"{self.base}/encounters/{self.encounter_id}/next/",
                           data={"turn": turn, "page": "control"},
                           headers={"HX-Request": "true", "X-CSRFToken": self.csrf} if htmx
                           else {"X-CSRFToken": self.csrf}, timeout=60, allow_redirects=False)
        return time.perf_counter() - started, r.status_code, len(r.content)


def _burst(pages, action) -> tuple[float, dict[int, int]]:
    """Every page does ``action`` at once (one thread each, released together): (wall time
    from the release to the last answer, statuses)."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    gate = threading.Barrier(len(pages) + 1)

    def one(page):
        gate.wait()
        try:
            status = action(page)
        except Exception:  # any failure (a refused or reset connection) counts as 0
            status = 0
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=one, args=(p,)) for p in pages]
    for t in threads:
        t.start()
    gate.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - started, statuses


def _add(into: dict[int, int], statuses: dict[int, int]) -> None:
    for k, v in statuses.items():
        into[k] = into.get(k, 0) + v


@contextlib.contextmanager
def serving(*, redis_url: str | None, database_url: str | None, log_path: Path = LOG):
    """gunicorn with 2 uvicorn workers on the bench database (bench.settings), on a free
    loopback port (or BENCH_PORT): yields (base URL, the process); stopped on exit, its
    errors written to ``log_path``."""
    from django.conf import settings
    from django.core.management import call_command

    port = int(os.environ.get("BENCH_PORT") or _free_port())
    if not redis_url:
        call_command("createcachetable", verbosity=0)  # the fragments' cache
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="bench.settings", DATABASE_URL=_database_url(database_url),
               SECRET_KEY=settings.SECRET_KEY, DEBUG="false", API_USER_RATE="100000/minute")
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with open(log_path, "w") as log:  # gunicorn writes its errors here until it stops
        server = subprocess.Popen(
            [gunicorn, "config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker",
             "--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60",
             # The pages keep their connections between waves, as browsers do with a stream open.
             "--keep-alive", "60"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
            start_new_session=True)
        try:
            yield f"http://127.0.0.1:{port}", server
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)


def ready(base: str, server, *, out, log_path: Path = LOG) -> bool:
    """Wait (up to 60 s) for the server's bare view to answer; False if it never does."""
    import requests

    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/bench/bare", timeout=2).status_code == 200:
                return True
        except requests.RequestException:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            print(f"gunicorn did not start: {log_path.read_text()[-2000:]}", file=out)
            return False
        time.sleep(0.3)


def run(*, out, redis_url: str | None, database_url: str | None) -> bool:
    """Start gunicorn, measure, print, stop it. False if a request failed."""
    rounds = int(os.environ.get("BENCH_WAVE_ROUNDS", "5"))
    encounter_id, sessions = build()
    with serving(redis_url=redis_url, database_url=database_url) as (base, server):
        return _measure(base, server, encounter_id, sessions, rounds, out=out,
                        cache_label="Redis" if redis_url else "database")


def _measure(base, server, encounter_id, sessions, rounds, *, out, cache_label) -> bool:  # noqa: PLR0915  one timed script
    if not ready(base, server, out=out):
        return False
    print(f"gunicorn, 2 uvicorn workers (ASGI), on {base} (cache: {cache_label}); one encounter "
          f"of 20 combatants; pages: 1 of the GM's control page, the rest shared between two "
          f"players (3 kinds of viewer); {rounds} rounds, interleaved", file=out, flush=True)
    gm = _Page(base, encounter_id, sessions["gm"], control=True)
    ok = True
    figures = []
    for size in SIZES:
        pages = [gm] + [_Page(base, encounter_id, sessions["alice" if i % 2 else "bob"], False)
                        for i in range(size - 1)]
        waves, bares = [], []
        wave_statuses: dict[int, int] = {}
        bare_statuses: dict[int, int] = {}
        for _ in range(rounds):
            took, st = _burst(pages, _Page.bare)
            bares.append(took)
            _add(bare_statuses, st)
            _took, status, _size = gm.next_turn()
            ok = ok and status == 200
            gm.version -= 1  # the GM's page refetches like the others
            took, st = _burst(pages, _Page.refetch)
            waves.append(took)
            _add(wave_statuses, st)
        wave, bare = statistics.median(waves), statistics.median(bares)
        figures.append((size, wave, bare))
        print(f"\n  {size} pages refetching after one step (median of {rounds} waves):",
              file=out)
        print(f"    wave {wave * 1000:8.1f} ms  {dict(sorted(wave_statuses.items()))}", file=out)
        print(f"    {size} bare requests at once {bare * 1000:8.1f} ms  "
              f"{dict(sorted(bare_statuses.items()))}", file=out)
        print(f"    wave / bare burst = {wave / bare:.2f} (target: 3 renders + {size} bare)",
              file=out, flush=True)
        ok = ok and set(wave_statuses) == {200} and set(bare_statuses) == {200}
    # The step's own answer against the bare view, one after the other.
    steps: list[float] = []
    bare_one: list[float] = []
    full: list[float] = []
    hit: list[float] = []
    alone: list[float] = []
    sizes: list[int] = []
    for _ in range(max(10, 4 * rounds)):
        started = time.perf_counter()
        ok = ok and gm.bare() == 200
        bare_one.append(time.perf_counter() - started)
        took, status, length = gm.next_turn()
        ok = ok and status == 200
        steps.append(took)
        sizes.append(length)
        for into in (full, hit):  # nobody fetched this version: rendered; then the cache
            gm.version -= 1
            started = time.perf_counter()
            ok = ok and gm.refetch() == 200
            into.append(time.perf_counter() - started)
        took, status, _length = gm.next_turn(htmx=False)
        ok = ok and status == 302
        alone.append(took)
    b50, f50 = statistics.median(bare_one), statistics.median(full)
    print(f"\n  The GM's next turn (htmx, out of band), {len(steps)} times, 20 combatants:",
          file=out)
    print(f"    step answer p50 {statistics.median(steps) * 1000:7.1f} ms "
          f"({statistics.median(sizes) / 1000:.1f} KB); bare view p50 {b50 * 1000:7.1f} ms; "
          f"ratio {statistics.median(steps) / b50:.2f} (target <= 3)", file=out)
    print(f"    the step alone (no htmx: its redirect) p50 "
          f"{statistics.median(alone) * 1000:7.1f} ms; ratio {statistics.median(alone) / b50:.2f}",
          file=out)
    print(f"    the whole fragment rendered (a first refetch) p50 {f50 * 1000:7.1f} ms; ratio "
          f"{f50 / b50:.2f}; from the cache p50 {statistics.median(hit) * 1000:7.1f} ms; ratio "
          f"{statistics.median(hit) / b50:.2f}", file=out)
    for size, wave, bare in figures:
        print(f"    {size} pages: wave {wave * 1000:.0f} ms against {size} bare at once + 3 "
              f"renders = {(bare + 3 * f50) * 1000:.0f} ms: ratio {wave / (bare + 3 * f50):.2f} "
              f"(target <= 1)", file=out)
    out.flush()
    errors = LOG.read_text().count("Traceback")
    if errors:
        print(f"\n  {errors} server errors: see {LOG.relative_to(ROOT)}", file=out)
        ok = False
    return ok
