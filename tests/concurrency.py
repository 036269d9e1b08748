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
        except Exception as exc:  # noqa: BLE001 - reported to the test
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
