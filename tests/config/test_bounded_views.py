"""config.middleware.BoundedViews: a rush waits for a place, then answers 503 with Retry-After
(never a 500); a wait for the database pool that times out answers the same."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from config.middleware import BoundedViews, is_stream_opening


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


def _stream_request():
    return RequestFactory().get("/encounters/1/events/", HTTP_ACCEPT="text/event-stream")


def test_stream_openings_take_their_share_and_pages_pass_meanwhile(settings):
    """A reconnect storm: streams opening hold at most SYNC_STREAM_OPENS_MAX places, so a page
    is served at once; a stream past its share waits (longer than a page would) for it."""
    settings.SYNC_VIEWS_MAX, settings.SYNC_STREAM_OPENS_MAX = 2, 1
    settings.SYNC_VIEWS_WAIT, settings.SYNC_STREAM_WAIT = 0.05, 2.0

    async def run():
        leave = asyncio.Event()

        async def view(request):
            if is_stream_opening(request):
                await leave.wait()
            return HttpResponse("ok")

        middleware = BoundedViews(view)
        first = asyncio.ensure_future(middleware(_stream_request()))
        await asyncio.sleep(0.02)
        second = asyncio.ensure_future(middleware(_stream_request()))
        await asyncio.sleep(0.2)  # past a page's wait: the second stream still waits
        page = await middleware(RequestFactory().get("/"))
        assert not second.done()
        leave.set()
        return page, await first, await second

    page, first, second = asyncio.run(run())
    assert page.status_code == 200
    assert first.status_code == 200 and second.status_code == 200


def test_a_stream_opening_past_its_wait_gets_503(settings):
    settings.SYNC_VIEWS_MAX, settings.SYNC_STREAM_OPENS_MAX = 2, 1
    settings.SYNC_STREAM_WAIT = 0.1

    async def run():
        leave = asyncio.Event()

        async def view(request):
            await leave.wait()
            return HttpResponse("ok")

        middleware = BoundedViews(view)
        first = asyncio.ensure_future(middleware(_stream_request()))
        await asyncio.sleep(0.02)
        refused = await middleware(_stream_request())
        leave.set()
        return refused, await first

    refused, first = asyncio.run(run())
    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    assert first.status_code == 200


def test_sync_stream_openings_take_their_share(settings):
    settings.SYNC_VIEWS_MAX, settings.SYNC_STREAM_OPENS_MAX = 2, 1
    settings.SYNC_VIEWS_WAIT, settings.SYNC_STREAM_WAIT = 0.05, 0.1
    entered, leave = threading.Event(), threading.Event()

    def view(request):
        if is_stream_opening(request):
            entered.set()
            leave.wait(10)
        return HttpResponse("ok")

    middleware = BoundedViews(view)
    first = {}
    thread = threading.Thread(target=lambda: first.update(r=middleware(_stream_request())))
    thread.start()
    assert entered.wait(10)
    assert middleware(_stream_request()).status_code == 503  # past its share and its wait
    assert middleware(RequestFactory().get("/")).status_code == 200  # a page still passes
    leave.set()
    thread.join(10)
    assert first["r"].status_code == 200
    assert middleware(_stream_request()).status_code == 200  # the share came back
