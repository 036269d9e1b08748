"""The fragment pushed in the stream (issue 17, item 2): after a step, an open encounter page
receives its new fragment in its own stream (a ``body`` event) instead of a bare ``change`` that
makes it refetch, so that thousands of open pages are current without a request each.

For each change, each web process reads the encounter's roster once (selectors.roster: one
query, whoever is watching) with which of its streams' sessions still sign their users in
(campaigns.signed_in: two queries; a stream outlives the request that checked its user), and
derives each stream's viewer from it in memory, exactly as a refetch would
(selectors.encounter_viewer reads the same roster). It renders the fragment once per kind of
viewer (encounters.pages.pushed_fragment: the page, ``gm`` and ``mine``, the language and the
time zone), or takes the body another process rendered from the shared cache; every stream of
that kind fills in its own CSRF token. A stream sends the bare change instead (the page
refetches, as before) when its session no longer signs its user in (signed out, deactivated, a
password changed elsewhere), when its user may no longer see the encounter, when the encounter
moved on while the fragment was being rendered (a kind that may have changed), or when anything
fails: a pushed fragment is an optimisation, never the only road.

What a stream sends is what its own refetch would answer: rendered for a user of the same kind
of viewer, so nothing hidden from this viewer is in it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.middleware.csrf import get_token
from django.utils import timezone, translation

from campaigns import live
from campaigns.signed_in import signed_in
from encounters import pages, selectors

logger = logging.getLogger(__name__)

BODY_EVENT = "body"
# How many rosters and fragments each web process keeps (the newest), so that the streams of
# one change share them: a few per open encounter is enough, a change being heard at once.
KEPT = 64
RENDER_WAIT_S = 10.0  # past this, a stream sends the bare change rather than wait on


class _Shared:
    """Awaitables shared by key within one event loop: the first caller of a key starts it, the
    others await the same result; the newest KEPT are kept, a failed one is forgotten."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._items: OrderedDict[Any, asyncio.Future] = OrderedDict()

    async def get(self, key: Any, make: Callable[[], Awaitable[Any]]) -> Any:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a process's loop is one; the tests' servers are several
            self._loop, self._items = loop, OrderedDict()
        future = self._items.get(key)
        if future is None:
            future = self._items[key] = asyncio.ensure_future(make())
            future.add_done_callback(lambda done: self._forget_failed(key, done))
            while len(self._items) > KEPT:
                self._items.popitem(last=False)
        return await asyncio.wait_for(asyncio.shield(future), RENDER_WAIT_S)

    def _forget_failed(self, key: Any, done: asyncio.Future) -> None:
        if (done.cancelled() or done.exception() is not None) and self._items.get(key) is done:
            del self._items[key]


_reads = _Shared()
_fragments = _Shared()
# The open streams of each encounter in this process: whose sessions a change's read checks.
_watching: dict[int, weakref.WeakSet[PushedFragments]] = {}


@dataclass(frozen=True)
class _Read:
    """What one change's read gives every stream of an encounter in this process: the roster,
    and which of the streams' sessions still sign their users in."""

    roster: selectors.Roster | None
    signed_in: frozenset[str]


def _session_keys(encounter_id: int) -> list[str]:
    """The sessions of the encounter's open streams in this process: gathered by the change's
    first stream only (the read is shared), not by each of a thousand."""
    return sorted({w.session_key for w in _watching.get(encounter_id, ()) if w.session_key})


def _read(encounter_id: int, session_keys: list[str]) -> _Read:
    """The roster (one query) and the sessions still signed in (two: campaigns.signed_in)."""
    return _Read(roster=selectors.roster(encounter_id),
                 signed_in=frozenset(signed_in(session_keys)))


class PushedFragments:
    """One stream's answer to the encounter's changes (campaigns.live.OnChange): the ``body``
    event with the fragment ``request``'s user is shown on ``page``, or None (the bare change).
    Made in the stream request's thread, where the language, the time zone and the CSRF token
    are the request's."""

    def __init__(self, request, encounter_id: int, page: str) -> None:
        self.request = request
        self.user = request.user
        self.user.pk  # noqa: B018 read here, in the request's thread: the stream reads it later
        self.encounter_id = encounter_id
        self.page = page
        self.language = translation.get_language()
        self.zone = timezone.get_current_timezone_name()
        self.token = get_token(request)
        self.session_key = request.session.session_key
        _watching.setdefault(encounter_id, weakref.WeakSet()).add(self)

    async def __call__(self, changes: list[str]) -> str | None:
        versions = [v for v in map(_version_of, changes) if v is not None]
        if not versions:
            return None
        version = max(versions)
        read = await _reads.get((self.encounter_id, version), lambda: live.run_sync(
            _read, self.encounter_id, _session_keys(self.encounter_id)))
        # Signed out, deactivated, a password changed elsewhere (or a stream opened after the
        # read): the bare change, which the page's refetch answers as it must.
        if self.session_key not in read.signed_in or read.roster is None:
            return None
        viewer = read.roster.viewer_for(self.user)
        if viewer is None:
            return None
        key = pages.fragment_key(viewer, self.page, self.language, self.zone)
        event = await _fragments.get(key, lambda: self._event(viewer))
        # The event's text is made once per kind of viewer; each stream only fills its token
        # in (the hole is the same in JSON: it holds no character JSON escapes).
        return event.replace(pages.CSRF_HOLE, self.token) if event is not None else None

    async def _event(self, viewer: selectors.Viewer) -> str | None:
        fragment = await live.run_sync(pages.pushed_fragment, self.request, viewer, self.page,
                                       language=self.language, zone=self.zone)
        if fragment is None:
            return None
        return live.sse(BODY_EVENT, {"version": viewer.version, "html": fragment})


def _version_of(data: str) -> int | None:
    try:
        version = json.loads(data).get("version")
    except (ValueError, AttributeError):
        return None
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def answering(request, encounter_id: int) -> Callable[[], PushedFragments]:
    """What the encounter's stream view gives campaigns.live.stream: the page (``?page=``,
    the players' page by default) is the one the stream's page shows."""
    page = pages.page_of(request)
    return lambda: PushedFragments(request, encounter_id, page)
