"""config.middleware.BoundedViews: a rush waits for a place, then answers 503 with Retry-After
(never a 500); a wait for the database pool that times out answers the same."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from config.middleware import BoundedViews


@pytest.fixture
def one_place(settings):
    settings.SYNC_VIEWS_MAX = 1
    settings.SYNC_VIEWS_WAIT = 0.2


def test_sync_a_request_past_the_bound_waits_then_gets_503(one_place):
    entered, leave = threading.Event(), threading.Event()

    def slow(request):
        entered.set()
        leave.wait(10)
        return HttpResponse("ok")

    middleware = BoundedViews(slow)
    first = {}
    thread = threading.Thread(target=lambda: first.update(r=middleware(RequestFactory().get("/"))))
    thread.start()
    assert entered.wait(10)
    busy = middleware(RequestFactory().get("/"))
    assert busy.status_code == 503 and busy["Retry-After"] == "5"
    leave.set()
    thread.join(10)
    assert first["r"].status_code == 200
    entered.clear()
    leave.set()
    assert middleware(RequestFactory().get("/")).status_code == 200  # the place came back


def test_async_a_request_past_the_bound_waits_then_gets_503(one_place):
    async def run():
        leave = asyncio.Event()

        async def slow(request):
            await leave.wait()
            return HttpResponse("ok")

        middleware = BoundedViews(slow)
        first = asyncio.ensure_future(middleware(RequestFactory().get("/")))
        await asyncio.sleep(0.05)
        busy = await middleware(RequestFactory().get("/"))
        queued = asyncio.ensure_future(middleware(RequestFactory().get("/")))
        await asyncio.sleep(0.05)
        leave.set()  # the first ends: the queued one gets its place in time
        return busy, await first, await queued

    busy, first, queued = asyncio.run(run())
    assert busy.status_code == 503 and busy["Retry-After"] == "5"
    assert first.status_code == 200 and queued.status_code == 200


def test_a_timed_out_wait_for_the_pool_answers_503():
    from psycopg_pool import PoolTimeout

    middleware = BoundedViews(lambda request: HttpResponse("ok"))
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")
        except PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as wrapped:
        response = middleware.process_exception(RequestFactory().get("/"), wrapped)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("x")) is None
