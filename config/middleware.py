"""HTTP plumbing shared by every page."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5
CHAIN_LINKS_MAX = 10  # how far _in_chain follows __cause__/__context__


class VaryOnHtmxMiddleware:
    """Add ``Vary: HX-Request`` to every response.

    Pages answer htmx with a fragment at their own URL (the board, the sheet, the leaderboard,
    drafts, factions): without this header a browser's Back button or a shared cache may show
    the bare fragment as the page (django-htmx's docs, "Vary on HX-Request"). Set on every
    response rather than view by view, so that a new page that checks ``request.htmx`` cannot
    forget it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


def _busy() -> HttpResponse:
    response = HttpResponse(_("The server is busy: try again in a moment."), status=503,
                            content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _in_chain(exc: BaseException | None, types: tuple[type[BaseException], ...]) -> bool:
    """Whether ``exc``, or an exception it was raised from or while handling, is one of
    ``types`` (ten links at most)."""
    seen = 0
    while exc is not None and seen < CHAIN_LINKS_MAX:
        if isinstance(exc, types):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def is_database_down(exc: BaseException | None) -> bool:
    """Whether ``exc`` is the database connection failing (dropped, refused, reset), or was
    raised from it (Django's session middleware turns a failed save into SessionInterrupted)."""
    from django.db import InterfaceError, OperationalError

    return _in_chain(exc, (OperationalError, InterfaceError))


def database_unavailable(request) -> HttpResponse:
    """503 with ``Retry-After`` for a request whose database connection failed: the coded JSON
    error under /api/, a short page elsewhere. Nothing here touches the database."""
    from django.http import JsonResponse
    from django.utils.html import escape

    from campaigns.errors import ServiceUnavailable
    from campaigns.messages import error_message

    detail = error_message(ServiceUnavailable())
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": ServiceUnavailable.code, "detail": detail,
                                 "params": {}}, status=503)
    else:
        title = escape(_("Service unavailable"))
        response = HttpResponse(
            f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>"
            f"<body><h1>{title}</h1><p>{escape(detail)}</p></body></html>", status=503,
            content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _is_pool_timeout(exc: BaseException | None) -> bool:
    """Whether ``exc`` is (or was raised from) psycopg's pool giving up waiting."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no pool installed: nothing to recognise
        return False
    return _in_chain(exc, (PoolTimeout,))


def outage_response(request, exc: BaseException | None) -> HttpResponse | None:
    """The 503 with ``Retry-After`` that ``exc`` calls for, or None when it is no outage: the
    wait for a pooled database connection timing out (the server is busy, ``_busy``), the
    database connection failing (``database_unavailable``). Nothing here touches the
    database."""
    if _is_pool_timeout(exc):
        return _busy()
    if is_database_down(exc):
        return database_unavailable(request)
    return None


def is_stream_opening(request) -> bool:
    """Whether ``request`` opens an event stream (an EventSource sends ``Accept:
    text/event-stream``): campaigns.live's stream view."""
    return "text/event-stream" in request.headers.get("Accept", "")


class BoundedViews:
    """At most ``SYNC_VIEWS_MAX`` requests in the views of one web process at once.

    Under ASGI each request's sync code (middleware and view) runs in its own thread with its
    own database connection, and nothing else bounds them: a rush (the refetch wave after a
    step with thousands of pages open) would open threads and ask PostgreSQL for connections
    until it refuses clients, and every request of the site then fails. Here the request waits,
    as a coroutine holding nothing, for one of the places; after ``SYNC_VIEWS_WAIT`` seconds it
    answers 503 with ``Retry-After`` (so does a request whose wait for the database pool's
    connection timed out: settings DB_POOL_TIMEOUT). A streaming answer (the encounters' event
    stream) gives its place back when the view returns it, not when the stream ends. Under WSGI
    the server's workers already bound the requests; the same bound applies, with a thread
    semaphore.

    Event streams opening (:func:`is_stream_opening`) take at most ``SYNC_STREAM_OPENS_MAX``
    of the places at once, and wait up to ``SYNC_STREAM_WAIT`` seconds for them: after a
    restart every open page reconnects at once, and without this share the openings would fill
    every place (pages and the API waiting behind them) and the ones past the wait would be
    refused, which a browser's EventSource takes as final.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)
        self._threads = threading.BoundedSemaphore(settings.SYNC_VIEWS_MAX)
        self._stream_threads = threading.BoundedSemaphore(self._stream_places())
        self._loops: dict[int, tuple[asyncio.Semaphore, asyncio.Semaphore]] = {}

    @staticmethod
    def _stream_places() -> int:
        return max(1, min(settings.SYNC_STREAM_OPENS_MAX, settings.SYNC_VIEWS_MAX))

    @staticmethod
    def _wait_of(request) -> tuple[bool, float]:
        stream = is_stream_opening(request)
        return stream, settings.SYNC_STREAM_WAIT if stream else settings.SYNC_VIEWS_WAIT

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        stream, wait = self._wait_of(request)
        semaphores = [self._stream_threads, self._threads] if stream else [self._threads]
        deadline = time.monotonic() + wait
        held: list[threading.BoundedSemaphore] = []
        for semaphore in semaphores:
            if not semaphore.acquire(timeout=max(0.0, deadline - time.monotonic())):
                for other in held:
                    other.release()
                return self._refused(request, wait)
            held.append(semaphore)
        try:
            return self.get_response(request)
        finally:
            for semaphore in held:
                semaphore.release()

    @staticmethod
    def _refused(request, wait: float) -> HttpResponse:
        logger.warning("busy: no place for %s within %s s", request.path, wait)
        return _busy()

    def _semaphores(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        """(the views' places, the stream openings' share) of the running event loop."""
        loop = id(asyncio.get_running_loop())
        pair = self._loops.get(loop)
        if pair is None:
            pair = self._loops[loop] = (asyncio.Semaphore(settings.SYNC_VIEWS_MAX),
                                        asyncio.Semaphore(self._stream_places()))
        return pair

    async def _acall(self, request):
        views, streams = self._semaphores()
        stream, wait = self._wait_of(request)
        deadline = time.monotonic() + wait
        held: list[asyncio.Semaphore] = []
        for semaphore in ([streams, views] if stream else [views]):
            try:
                await asyncio.wait_for(semaphore.acquire(),
                                       timeout=max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                for other in held:
                    other.release()
                return self._refused(request, wait)
            held.append(semaphore)
        try:
            return await self.get_response(request)
        finally:
            for semaphore in held:
                semaphore.release()

    def process_exception(self, request, exception):
        """A view's outage (``outage_response``), logged; anything else is left to Django
        (and config.api.server_error, which answers outages raised outside the views)."""
        if _is_pool_timeout(exception):
            logger.warning("busy: no database connection for %s", request.path)
        elif is_database_down(exception):
            logger.error("database unavailable during %s", request.path, exc_info=exception)
        return outage_response(request, exception)
