"""A stream costs no database connection and no thread (issue 17, item 1; campaigns.live): 200
streams open at once through uvicorn (tests.asgi_server) on PostgreSQL hold the same number of
PostgreSQL connections and OS threads as one (opened ten at a time: the shared test server's
connection limit is not this test's subject), a bare request still answers, and one event
reaches all of them (each its page's new fragment). The streams are raw sockets read from the
test's own thread, so that the process's thread count is the server's."""

from __future__ import annotations

import os
import selectors
import socket
import time

import pytest
import requests
from django.db import connection

from campaigns import live
from encounters import push
from encounters.models import Encounter
from tests.encounters.conftest import Table
from tests.factories import PASSWORD

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

STREAMS = 200
OPEN_WITHIN_S = 60
BARE_WITHIN_S = 5
SETTLE_S = 0.5
BATCH = 10
SLACK = 4  # connections or threads that may come and go (a request finishing, a join thread)


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _connections() -> int:
    """Connections held: with the psycopg pool (config.settings.base, DB_POOL) those lent out of
    it (a burst of checks may grow the pool to its bound, where the idle ones wait), else the
    server's count of this database's sessions."""
    connection.ensure_connection()
    pool = getattr(connection, "pool", None)
    if pool is not None:
        stats = pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


def _login(url: str, username: str) -> requests.Session:
    s = requests.Session()
    s.get(f"{url}/accounts/login/", timeout=10)
    r = s.post(f"{url}/accounts/login/", timeout=10,
               data={"username": username, "password": PASSWORD,
                     "csrfmiddlewaretoken": s.cookies["csrftoken"]},
               headers={"Referer": f"{url}/accounts/login/"})
    assert r.status_code == 200 and "sessionid" in s.cookies
    return s


class Streams:
    """Raw HTTP/1.1 stream requests, read without threads (a selector)."""

    def __init__(self, url: str, path: str, cookie: str):
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)
        self.request = (f"GET {path} HTTP/1.1\r\nHost: {self.host}:{port}\r\n"
                        f"Cookie: sessionid={cookie}\r\nAccept: text/event-stream\r\n\r\n").encode()
        self.selector = selectors.DefaultSelector()
        self.received: dict[socket.socket, bytes] = {}

    def open(self, n: int) -> None:
        for _ in range(n):
            sock = socket.create_connection((self.host, self.port), timeout=10)
            sock.sendall(self.request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.received[sock] = b""

    def wait_for(self, marker: bytes, timeout: float) -> int:
        """Read until every stream has received ``marker`` (or the timeout): how many have."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(marker in data for data in self.received.values()):
                break
            for key, _ in self.selector.select(timeout=0.2):
                chunk = key.fileobj.recv(65536)
                if not chunk:
                    self.selector.unregister(key.fileobj)
                self.received[key.fileobj] += chunk
        return sum(marker in data for data in self.received.values())

    def close(self) -> None:
        for sock in self.received:
            sock.close()
        self.selector.close()


def test_200_streams_hold_no_connection_and_no_thread_and_all_get_the_event(live_server):
    t = Table()
    e = t.start()
    bob = _login(live_server.url, "bob")
    streams = Streams(live_server.url, f"/encounters/{e.pk}/events/", bob.cookies["sessionid"])
    try:
        streams.open(1)
        assert streams.wait_for(b"event: stream-open", OPEN_WITHIN_S) == 1
        assert b"200 OK" in next(iter(streams.received.values()))
        time.sleep(SETTLE_S)
        connections_with_one, threads_with_one = _connections(), _threads()

        # In batches: opening, each request's check uses a connection for a moment (a burst of
        # 200 checks at once is item 2's bound on concurrent views, not this test's subject).
        while len(streams.received) < STREAMS:
            streams.open(min(BATCH, STREAMS - len(streams.received)))
            opened = streams.wait_for(b"event: stream-open", OPEN_WITHIN_S)
            assert opened == len(streams.received)
        time.sleep(SETTLE_S)
        assert _connections() <= connections_with_one + SLACK
        assert _threads() <= threads_with_one + SLACK

        started = time.monotonic()
        assert bob.get(f"{live_server.url}/encounters/{e.pk}/version/", timeout=10).status_code == 200
        assert time.monotonic() - started < BARE_WITHIN_S

        # The version a step would have written: each stream pushes its page's new fragment
        # (encounters.streamed), read and rendered once for the 200.
        Encounter.objects.filter(pk=e.pk).update(version=99)
        live.announce(push.channel(e.pk), {"version": 99})
        assert streams.wait_for(b'event: body\ndata: {"version": 99', OPEN_WITHIN_S) == STREAMS
        assert _connections() <= connections_with_one + SLACK
    finally:
        streams.close()
