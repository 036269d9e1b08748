"""Live pages (issue 17, items 1 and 7): one server-sent event stream per open page, on which a
change announces the *topics* it touched, and the page refetches the parts bound to them.

A topic is ``<kind>-<id>``: ``encounter-12``, ``board-3``, ``character-7``, ``faction-2``. The
app that owns a kind registers who may read it (:func:`register`, from its AppConfig.ready):
exactly who may see the page that shows it. A service that changes what such a page shows calls
:func:`announce` (once its transaction commits; a step that rolls back announces nothing; a push
that fails, Redis down, is logged and never fails the step). An event carries the topic and at
most a version number: nothing a reader could not fetch, nothing hidden. A stream may answer a
change with something of its own instead (``on_change``, :data:`OnChange`): the encounter's
sends the page's new fragment, rendered for that page's viewer (encounters.streamed).

The transport is django-eventstream's (its listener manager, fanned out through Redis pub/sub to
every web process when ``REDIS_URL`` is set), but the stream view is this module's own and async
end to end, so that an open stream costs a coroutine and a socket:

* the permission check runs in the request's sync thread (``sync_to_async``, thread-sensitive,
  as Django's ORM asks) and the database connection is given back right after (closed, or
  returned to the pool): a stream holds **no database connection**;
* once the response has gone through the middleware, the request's thread-sensitive executor
  (asgiref gives each ASGI request one, for the sync middleware and the ORM) is shut down: a
  stream holds **no OS thread**. Its end (``response.close``) makes a short-lived one again;
* the stream loop itself never leaves the event loop: it waits on the listener's event and sends
  a keep-alive every 20 s.

Under WSGI, which cannot hold a stream without holding a worker, a stream answers 204: the
browser does not reconnect and the page keeps polling (static/js/live.js).

A change made by a page's own request is announced with that request's ``X-Live-Origin`` id
(:class:`OriginMiddleware`): the page skips the echo for the element that request swapped,
whose answer was rendered after the change committed (a refetch would only replace it, and
the notice it shows, with the same state).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import TypeVar

from asgiref.sync import SyncToAsync, iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connections, transaction
from django.http import (Http404, HttpRequest, HttpResponse, HttpResponseBadRequest,
                         StreamingHttpResponse)
from django.http.response import HttpResponseBase
from django_eventstream import send_event
from django_eventstream.channelmanager import ChannelManagerBase
from django_eventstream.views import Listener, get_listener_manager

logger = logging.getLogger(__name__)

EVENT = "change"
KEEP_ALIVE_S = 20
MAX_TOPICS = 8
_TOPIC = re.compile(r"^([a-z][a-z0-9]*)-([1-9][0-9]{0,17})$")

T = TypeVar("T")
Reader = Callable[..., bool]  # reader(user, ident) -> bool, may query the database
_readers: dict[str, Reader] = {}


def register(kind: str, reader: Reader) -> None:
    """Let ``reader(user, ident)`` decide who reads the topics ``<kind>-<ident>`` (from the
    owning app's AppConfig.ready). Registering a kind twice with another reader is a mistake."""
    if _readers.get(kind, reader) is not reader:
        raise ValueError(f"live topic kind {kind!r} is already registered")
    _readers[kind] = reader


def topic(kind: str, ident: int) -> str:
    """``topic("board", 3) == "board-3"``."""
    return f"{kind}-{int(ident)}"


def parse(name: str) -> tuple[str, int] | None:
    """(kind, id) of a well-formed topic name, None for anything else."""
    match = _TOPIC.match(name)
    return (match.group(1), int(match.group(2))) if match else None


def can_read(user, name: str) -> bool:
    """Whether ``user`` may read topic ``name``: its kind is registered and its reader says so.
    Sync (its reader queries the database)."""
    parsed = parse(name)
    if user is None or not getattr(user, "is_authenticated", False) or parsed is None:
        return False
    reader = _readers.get(parsed[0])
    return bool(reader and reader(user, parsed[1]))


def _send(name: str, data: dict) -> None:
    try:
        send_event(name, EVENT, data)
    except Exception:  # a lost push must not fail a committed step; the pages' poll catches up
        logger.warning("live: push to %s failed", name, exc_info=True)


def announce(name: str, payload: dict | None = None) -> None:
    """Send a ``change`` event ``{"topic": name, **payload}`` on topic ``name`` once the current
    transaction commits (at once outside one), with ``"origin"``: the id of the page request
    that made the change, when it sent one (:class:`OriginMiddleware`). ``payload`` carries at
    most a version number: the page fetches what it may see itself. A transaction sends each
    topic once, however often it announces it, with the latest payload (:class:`_Send`).
    Never raises."""
    data = {"topic": name, **(payload or {})}
    origin = _origin.get()
    if origin is not None:
        data["origin"] = origin
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _send(name, data)
        return
    batch = _batch_of(connection)
    transaction.on_commit(_Kept(batch, name, data))  # dropped with its savepoint, as usual
    earlier = batch.senders.get(name)
    send = _Send(batch, name)
    transaction.on_commit(send)
    if earlier is not None:
        # One sender per topic, at its latest announcement (after the board counters' bumps
        # registered before it, campaigns.versions, which a refetch reads), dropped only by a
        # rollback that drops every announcement of the topic: Django drops a callback whose
        # savepoints include the one rolled back, so it keeps the savepoints common to both.
        # The earlier sender stays in the list (a test's capture counts the callbacks) and
        # does nothing.
        earlier.superseded = True
        sids, func, robust = connection.run_on_commit[-1]
        connection.run_on_commit[-1] = (sids & earlier.sids, func, robust)
    send.sids = connection.run_on_commit[-1][0]
    batch.senders[name] = send


class _Batch:
    """The announcements of one transaction: each topic's sender (its latest announcement's)
    and, as the commit runs the callbacks, the payload of its latest announcement that was
    not rolled back."""

    def __init__(self) -> None:
        self.senders: dict[str, _Send] = {}
        self.kept: dict[str, dict] = {}


class _Kept:
    """An announcement's payload, kept for its topic's sender when the commit reaches it: a
    rollback of its savepoint drops it with the rest, so the event never carries a version
    that a rollback undid (the payload of an earlier announcement that survived goes)."""

    def __init__(self, batch: _Batch, name: str, data: dict) -> None:
        self.batch, self.name, self.data = batch, name, data

    def __call__(self) -> None:
        self.batch.kept[self.name] = self.data


class _Send:
    """A topic's on-commit sender in a transaction: sends the topic's event once, with the
    latest payload kept, unless a later announcement of the topic superseded it."""

    def __init__(self, batch: _Batch, name: str) -> None:
        self.batch, self.name = batch, name
        self.sids: set[str] = set()
        self.superseded = False

    def __call__(self) -> None:
        if self.superseded:
            return
        if self.batch.senders.get(self.name) is self:
            del self.batch.senders[self.name]
        data = self.batch.kept.pop(self.name, None)
        if data is not None:  # None: every announcement of the topic was rolled back
            _send(self.name, data)


def _batch_of(connection) -> _Batch:
    """The batch of the transaction under way: the one of its last announcement still waiting
    for the commit, else a new one (Django empties ``run_on_commit`` at each commit and
    rollback)."""
    for _sids, func, _robust in reversed(connection.run_on_commit):
        if isinstance(func, (_Send, _Kept)):
            return func.batch
    return _Batch()


# The X-Live-Origin id of the request being served: random, chosen by the page per request
# (static/js/live.js), so it says nothing of who sent it.
_origin: ContextVar[str | None] = ContextVar("live_origin", default=None)
_ORIGIN = re.compile(r"^[A-Za-z0-9]{8,32}$")


def _origin_of(request) -> str | None:
    value = request.META.get("HTTP_X_LIVE_ORIGIN", "")
    return value if _ORIGIN.match(value) else None


class OriginMiddleware:
    """Notes the request's ``X-Live-Origin`` id (a malformed one is ignored) for the changes
    it announces (:func:`announce`). Sync and async: it adds no thread hop to the stream."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        token = _origin.set(_origin_of(request))
        try:
            return self.get_response(request)
        finally:
            _origin.reset(token)

    async def _acall(self, request):
        token = _origin.set(_origin_of(request))
        try:
            return await self.get_response(request)
        finally:
            _origin.reset(token)


def announce_all(names: Iterable[str]) -> None:
    """:func:`announce` each distinct topic of ``names`` (no payload)."""
    for name in dict.fromkeys(names):
        announce(name)


# --- the stream ---------------------------------------------------------------------------------

def _give_back_connections() -> None:
    """Close (or, with a pool, return) this thread's database connections. Not inside an atomic
    block (a test's transaction lent to the live server): that one is its owner's to close."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _readable_then_give_back(user, names: list[str]) -> bool:
    try:
        return all(can_read(user, name) for name in names)
    finally:
        _give_back_connections()


async def _drop_request_thread() -> None:
    """Give back this request's database connections, then shut down its thread-sensitive
    executor (asgiref's per-request sync thread, in which the sync middleware ran): its thread
    ends, and a later sync call of the request (its close) starts a new, short-lived one."""
    await sync_to_async(_give_back_connections, thread_sensitive=True)()
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context else None
    if executor is not None:
        executor.shutdown(wait=False)


def sse(event: str, data: dict | None = None) -> str:
    return f"event: {event}\ndata: {json.dumps(data) if data is not None else ''}\n\n"


SUBSCRIBE_WAIT_S = 2.0
RECONNECT_MS = (1000, 6000)  # the browser's reconnect delay, drawn per stream (SSE "retry")


def reconnect_delay_ms() -> int:
    """How long (ms) the browser waits before reconnecting this stream once it drops: drawn in
    RECONNECT_MS, so that the pages a restart drops at once do not come back at once. Not a
    game roll: the module's random source, unrecorded."""
    # Not a secret: it spreads load and secures nothing (bandit's B311 asks for a CSPRNG).
    return random.randint(*RECONNECT_MS)  # nosec B311


async def _subscribed(manager) -> None:
    """Wait (at most SUBSCRIBE_WAIT_S) until the process's Redis subscription is made: the
    listener manager starts it lazily, as a task, at its first listener, and an event published
    before it is made never reaches this process. The page refetches once at "stream-open"
    (static/js/live.js, encounter-push.js), so what changed before that is not lost either."""
    redis = getattr(manager, "redis_listener", None)
    waited = 0.0
    while redis is not None and not redis.pubsub.channels and waited < SUBSCRIBE_WAIT_S:
        await asyncio.sleep(0.01)
        waited += 0.01


# What a stream may send instead of a batch of change events: given their data (JSON texts),
# the SSE text to send, or None to send them as they are (encounters.streamed).
OnChange = Callable[[list[str]], Awaitable[str | None]]


def prepare_thread() -> None:
    """Run first in each worker thread of :func:`run_sync`: nothing in production; the tests'
    live server lends its in-memory SQLite connections there (tests.asgi_server)."""


async def run_sync(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` in a thread of the shared pool (not the request's thread, which
    a stream has given back), its database connections given back once it returns: what a
    stream needs of the ORM and the templates costs no connection between events."""
    def call() -> T:
        prepare_thread()
        try:
            return fn(*args, **kwargs)
        finally:
            _give_back_connections()
    return await sync_to_async(call, thread_sensitive=False)()


async def _changes(events: list[str], on_change: OnChange | None) -> str:
    """The SSE text for a batch of change events' data: ``on_change``'s when it gives one (a
    failure of it is logged and falls back), else each change as it came."""
    if on_change is not None and events:
        try:
            text = await on_change(events)
        except Exception:
            logger.exception("a stream's own answer to a change failed: the change is sent")
            text = None
        if text is not None:
            return text
    return "".join(f"event: {EVENT}\ndata: {data}\n\n" for data in events)


async def _stream(names: list[str], on_change: OnChange | None = None) -> AsyncIterator[str]:
    await _drop_request_thread()
    listener = Listener()
    listener.channels = set(names)
    listener.assign_loop()
    manager = get_listener_manager()
    manager.add_listener(listener)
    try:
        await _subscribed(manager)
        # The padding makes proxies and old browsers pass the stream on at once. The retry
        # delay is each page's own, so that after a restart the pages' reconnects are spread.
        yield (":" + " " * 2048 + "\n\n" + f"retry: {reconnect_delay_ms()}\n\n"
               + sse("stream-open"))
        while True:
            try:
                await asyncio.wait_for(listener.aevent.wait(), timeout=KEEP_ALIVE_S)
            except TimeoutError:
                yield sse("keep-alive")
                continue
            with manager.lock:
                items = listener.channel_items
                listener.channel_items = {}
                listener.overflow = False
                listener.aevent.clear()
            body = await _changes([event.data for events in items.values()
                                   for event in events if event.type == EVENT], on_change)
            if body:
                yield body
    finally:
        manager.remove_listener(listener)


async def stream(request: HttpRequest, names: list[str],
                 on_change: Callable[[], OnChange] | None = None) -> HttpResponseBase:
    """The stream of ``names`` for ``request`` (an async view's answer): 404 unless the user may
    read every one, 204 under WSGI, else ``text/event-stream`` holding no database connection
    and no thread. ``on_change``: made once the user may read them, in the request's thread
    (which may read the request: its session, its CSRF token), it answers each batch of
    changes (:data:`OnChange`)."""
    user = await request.auser()
    if not names or not await sync_to_async(_readable_then_give_back)(user, names):
        raise Http404("No such topic.")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    if {"recover", "es-meta", "link", "lastEventId"} & set(request.GET):
        return HttpResponseBadRequest()  # django-eventstream's GRIP and replay: not served here
    answer = await sync_to_async(on_change)() if on_change is not None else None
    response = StreamingHttpResponse(_stream(names, answer), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def topics_of(request: HttpRequest) -> list[str] | None:
    """The distinct topics ``?t=`` names (at most MAX_TOPICS, each well formed), else None."""
    names = list(dict.fromkeys(request.GET.getlist("t")))
    if not names or len(names) > MAX_TOPICS or any(parse(name) is None for name in names):
        return None
    return names


class Topics(ChannelManagerBase):
    """django-eventstream's channel manager (settings.EVENTSTREAM_CHANNELMANAGER_CLASS), used
    by its ``send_event``: no topic is stored for replay (a page that reconnects refetches).
    Its own stream view is not served; should something call its check, the connection it
    used is given back at once."""

    def get_channels_for_request(self, request, view_kwargs):
        return set()

    def can_read_channel(self, user, channel):
        return _readable_then_give_back(user, [channel])

    def is_channel_reliable(self, channel):
        return False
