"""Running calls at the same moment, each in its own thread and database connection."""

from __future__ import annotations

import threading

from django.db import connection


def run_together(*calls, timeout=30):
    """Run each call in its own thread and connection, released together by a barrier; return
    the results (a value or the exception raised), in order. Fails if a call is still waiting
    after ``timeout`` seconds (a deadlock)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # any failure is reported to the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a call is still waiting: deadlock?"
    return results


class Racers:
    """``run_together`` for many rounds: ``n`` threads that keep their database connections
    between rounds (a new connection per call costs more than the race itself). Use as a
    context manager; ``run(*calls)`` runs one round and returns its results in order."""

    def __init__(self, n: int, timeout: float = 30):
        self.n, self.timeout = n, timeout
        self.start, self.done = threading.Barrier(n + 1), threading.Barrier(n + 1)
        self.calls: list = [None] * n
        self.results: list = [None] * n
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True)
                        for i in range(n)]

    def _work(self, i):
        try:
            while True:
                self.start.wait()
                call = self.calls[i]
                if call is None:
                    return
                try:
                    self.results[i] = call()
                except Exception as exc:  # any failure is reported to the test
                    self.results[i] = exc
                self.done.wait()
        finally:
            connection.close()

    def run(self, *calls):
        assert len(calls) == self.n
        self.calls[:] = calls
        self.results[:] = [None] * self.n
        self.start.wait(self.timeout)
        try:
            self.done.wait(self.timeout)
        except threading.BrokenBarrierError:
            raise AssertionError("a call is still waiting: deadlock?") from None
        return list(self.results)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.calls[:] = [None] * self.n
        try:
            self.start.wait(self.timeout)
        except threading.BrokenBarrierError:
            return
        for t in self.threads:
            t.join(self.timeout)


def slow_sheet_refresh(monkeypatch, seconds: float) -> None:
    """Slow combat.services.sheet_refresh by ``seconds``: in a race, the second call surely
    arrives while the first holds the sheet's lock."""
    import time

    from combat import services

    real = services.sheet_refresh

    def slow(*args, **kwargs):
        time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "sheet_refresh", slow)


def refused_or_done(results) -> list:
    """Of ``run_together``'s results, the calls that went through; fails on any exception but a
    rule's refusal (a RuleError: the loser of the race), which a 500 would be."""
    from gamerules.errors import RuleError

    for r in results:
        assert not isinstance(r, Exception) or isinstance(r, RuleError), repr(r)
    return [r for r in results if not isinstance(r, Exception)]
