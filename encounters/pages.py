"""How an encounter page answers: the page or its htmx fragment, and a step's answer. Shared by
the encounter's own views and by a rule system's action views (homebrew.views), which may not
import encounters.views (.importlinter: views are private to their app).

The fragment's body (``encounters/_body.html``) is cached per encounter version and viewer
kind (:func:`fragment_key`: the page, ``selectors.Viewer``'s ``gm`` and ``mine``, the language
and the time zone), so that the refetch wave after a step costs one render per kind of viewer
and a cache read for every other page (and the fragment an open stream pushes,
:func:`pushed_fragment`, shares it); pages of one kind asking at the same moment wait for the first
one's render (:func:`_rendered_meanwhile`) rather than render it each. What differs per
request stays out of the cached part: the CSRF token (a hole filled per request), the error,
and the wrapper with its polling triggers (a prompt's deadline counts down from now).

A step's htmx answer carries only what it changes (:func:`_changes`): out-of-band swaps of the
status, the prompts, the acting user's turn, the order, the effects, the ground, the panel, the
GM's controls and the log's new entries, with ``HX-Reswap: none`` for the fragment itself. The
fragment keeps the version it showed, so the push (or the poll) that follows fetches the whole
of the new version, from the cache: anything a step changed and these parts do not show (an
entry of the log rewritten by a reaction's outcome) is current a moment later. A refused step
answers the whole fragment with the error in it; without htmx, a redirect with a message.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import connection
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns import journal
from campaigns.messages import error_message
from characters.models import Character
from encounters import handoff, selectors
from encounters.errors import EncounterNotFound
from encounters.models import Combatant, Encounter
from encounters.templatetags.encounter_tags import row_urls
from gamerules.errors import RuleError

logger = logging.getLogger(__name__)

PAGES = {"play": "encounters:play", "control": "encounters:control"}
# The CSRF token's place in a cached body: a safe string, which no escaped text can spell.
CSRF_HOLE = mark_safe("<!--csrf-token-->")
RENDER_POLL_SECONDS = 0.02  # how often a page waiting for another's render reads the cache


def page_of(request) -> str:
    page = request.POST.get("page") or request.GET.get("page") or "play"
    return page if page in PAGES else "play"


# The longest list of the viewer's combatant ids a cache key spells out; a longer one is hashed.
KEY_IDS_MAX = 60


def fragment_key(viewer: selectors.Viewer, page: str, language: str | None = None,
         zone: str | None = None) -> str:
    """The cache key of the body ``viewer`` is shown on ``page``, in ``language`` and the time
    zone ``zone`` (the active ones by default)."""
    mine = ",".join(map(str, viewer.mine))
    if len(mine) > KEY_IDS_MAX:
        mine = hashlib.sha256(mine.encode()).hexdigest()[:32]
    return (f"encounter-body:{viewer.encounter_id}:{viewer.version}:{page}:"
            f"{'gm' if viewer.gm else 'player'}:{mine}:"
            f"{language or translation.get_language()}:"
            f"{zone or timezone.get_current_timezone_name()}")


def _cache_get(key: str) -> str | None:
    try:
        return cache.get(key)
    except Exception:  # the cache down: render, as without it
        logger.warning("encounter body cache unreachable", exc_info=True)
        return None


def _cache_set(key: str, html: str) -> None:
    try:
        cache.set(key, html, settings.ENCOUNTER_BODY_CACHE_SECONDS)
    except Exception:
        logger.warning("encounter body cache unreachable", exc_info=True)


def _view(request, encounter_id: int, page: str, **read) -> selectors.EncounterView:
    """``read``: selectors.encounter_view's ``log_since``, ``with_log``, ``encounter``,
    ``effects``."""
    try:
        view = selectors.encounter_view(user=request.user, encounter_id=encounter_id, **read)
    except EncounterNotFound:
        raise Http404(_("No such encounter.")) from None
    if page == "control" and not view.gm:
        raise Http404(_("No such encounter."))
    return view


def _context(view: selectors.EncounterView, page: str, setup: bool = True) -> dict:
    """``setup``: with the characters the GM may add (the control page's setup forms)."""
    characters, templates = [], []
    if page == "control" and setup:
        taken = {c.character_id for c in view.combatants if c.character_id and not c.removed}
        everyone = list(Character.objects.filter(campaign=view.encounter.campaign)
                        .only("id", "name", "kind", "campaign_id"))
        characters = [c for c in everyone if c.pk not in taken]
        # Any creature or non-player character may be copied, even one already fighting.
        templates = [c for c in everyone if c.kind != Character.Kind.PLAYER]
    me = view.current if view.my_turn else None
    return {"view": view, "page": page, "me": me, "characters": characters,
            "templates": templates,
            "editing": page == "control" and view.encounter.state != Encounter.State.ENDED,
            # each row's forms: reversed once, not per row (encounter_tags.order_row)
            "row_urls": row_urls(view.encounter.pk) if page == "control" else None}


def _body(request, view: selectors.EncounterView, page: str) -> str:
    """The body with the CSRF token's hole (what the cache keeps)."""
    return render_to_string("encounters/_body.html",
                            {**_context(view, page), "csrf_token": CSRF_HOLE}, request=request)


def _filled(request, body: str) -> SafeString:
    return mark_safe(body.replace(CSRF_HOLE, get_token(request)))  # our own HTML


def render_encounter(request, encounter_id: int, page: str,
                     viewer: selectors.Viewer | None = None, **extra):
    """The page, or for htmx the fragment (its body from the cache when another page of the
    same kind of viewer rendered this version). ``viewer``: already read by the caller."""
    if not request.htmx:
        view = _view(request, encounter_id, page)
        return render(request, "encounters/page.html", {
            "view": view, "e": view.encounter, "page": page,
            "body": _filled(request, _body(request, view, page)), **extra})
    if viewer is None:
        viewer = selectors.encounter_viewer(user=request.user, encounter_id=encounter_id)
    if viewer is None or (page == "control" and not viewer.gm):
        raise Http404(_("No such encounter."))
    key = fragment_key(viewer, page)
    head: selectors.Viewer | Encounter = viewer
    body = _cache_get(key) or _rendered_meanwhile(key)
    if body is None:
        view = _view(request, encounter_id, page)
        body, head = _body(request, view, page), view.encounter
        # Kept only when it is what the key says (no step came between the two reads).
        if selectors.viewer_of(view, request.user) == viewer:
            _cache_set(key, body)
        _cache_delete(key + ":rendering")
    return render(request, "encounters/_encounter.html",
                  {"e": head, "page": page, "body": _filled(request, body), **extra})


def pushed_fragment(request, viewer: selectors.Viewer, page: str, *, language: str,
                    zone: str) -> str | None:
    """The fragment (wrapper and body) an open stream pushes to pages of ``viewer``'s kind
    (encounters.streamed), in ``language`` and the time zone ``zone``, with the CSRF token's
    hole (:data:`CSRF_HOLE`) that each stream fills with its own. Rendered for
    ``request.user``, whose viewer ``viewer`` is; the body from the cache when a page or
    another web process rendered it, else rendered and kept there. None when the encounter
    moved on since ``viewer`` was read (the rendered version's viewer differs) or may no
    longer be seen: the stream then sends the bare change and the page refetches. Queries:
    none from the cache, else encounter_view's (4 to 6). Runs in a worker thread."""
    key = fragment_key(viewer, page, language, zone)
    head: selectors.Viewer | Encounter = viewer
    with translation.override(language), timezone.override(zone):
        body = _cache_get(key)
        if body is None:
            try:
                view = _view(request, viewer.encounter_id, page)
            except Http404:
                return None
            if selectors.viewer_of(view, request.user) != viewer:
                return None
            body, head = _body(request, view, page), view.encounter
            _cache_set(key, body)
        body = mark_safe(body)  # our own HTML
        return render_to_string("encounters/_encounter.html",
                                {"e": head, "page": page, "body": body}, request=request).strip()


def _rendered_meanwhile(key: str) -> str | None:
    """After a miss: None when this request is to render the body (it took the key's render
    lock, or the lock is unreachable); else, while another page of the same kind renders it,
    wait for it (up to ENCOUNTER_BODY_RENDER_WAIT seconds, then None: render it too). The
    wave after a step thus renders each kind of viewer's body once, however many pages of it
    ask at the same moment. The database connection goes back to the pool meanwhile."""
    wait = settings.ENCOUNTER_BODY_RENDER_WAIT
    try:
        if cache.add(key + ":rendering", 1, timeout=max(1, round(wait)) + 1):
            return None
    except Exception:
        logger.warning("encounter body cache unreachable", exc_info=True)
        return None
    if not connection.in_atomic_block:
        connection.close()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(RENDER_POLL_SECONDS)
        body = _cache_get(key)
        if body is not None:
            return body
    return None


def _cache_delete(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:
        logger.warning("encounter body cache unreachable", exc_info=True)


def _changes(request, encounter_id: int, page: str, *, since, kept: handoff.Kept,
             journaled: bool, whole_log: bool) -> HttpResponse:
    """The step's htmx answer: the parts it changes, swapped out of band. The order: the rows
    whose combatant changed (``kept.before``: the combatants' stored columns as the step read
    them under its lock, encounters.handoff), the turn's old and new holder and who the new
    entries of the log name (their gauges); all of it when combatants came, went or moved in
    the order (or the step read none). The log: its entries journaled since ``since`` (none
    read when the step journaled nothing; all of it when ``whole_log``: a step that rewrites
    an entry). The encounter is the object the step saved (``kept.encounter``: not read again
    when unchanged since), and so are its effects when the step wrote none (``kept.effects``).
    Its ``encounter-answered`` event (HX-Trigger) names the version
    read before the step and the one the answer shows: a page that showed the former shows
    the latter once the parts are swapped, and the push of it refetches nothing
    (static/js/encounter-push.js)."""
    view = _view(request, encounter_id, page, log_since=None if whole_log else since,
                 with_log=whole_log or journaled, encounter=kept.encounter,
                 effects=kept.effects)
    new = [a for a in view.log if a.created_at >= since]
    old_current, old_version, old_rows = kept.before or (None, None, None)
    current, rows = view.encounter.current_id, {c.pk: _row(c) for c in view.combatants}
    if old_rows is not None and kept.partial:  # the step read only those it changed
        old_rows = {**rows, **old_rows}
    hidden = _field("hidden")
    # What the user saw before (a player: no hidden combatant) and sees now (view.combatants).
    seen = {pk for pk, r in (old_rows or {}).items() if view.gm or not r[hidden]}
    reordered = (old_rows is None or seen != set(rows)
                 or [k for k in _order_of(old_rows) if k in seen] != list(rows))
    named = {a.actor_id for a in new} | {a.target_id for a in new}
    touched = {pk for pk in rows if rows[pk] != (old_rows or {}).get(pk)} | {old_current, current} | {
        c.pk for c in view.combatants if c.character_id is not None and c.character_id in named}
    if not reordered and not view.drawn:  # the state of the rows sent only (no map)
        view = dataclasses.replace(view, states_only=frozenset(pk for pk in touched if pk is not None))
    parts = ["status", "reactions", "turn"]
    if reordered:
        parts.append("order")
    parts += ["ground", "effects"]
    if view.panel_template:
        parts.append("panel")
    if page == "control":
        parts += ["controls", "setup"] if reordered else ["controls"]
    context = {**_context(view, page, setup=reordered), "oob": True,
               "parts": [f"encounters/parts/_{p}.html" for p in parts],
               "rows": [] if reordered else [
                   (n, c) for n, c in enumerate(view.combatants, 1) if c.pk in touched],
               # The view holds only the new entries: the whole log is sent only for a step
               # that rewrites an entry (the new ones replace "Nothing yet" if it showed).
               "whole_log": whole_log,
               "new": new}
    response = render(request, "encounters/_changes.html", context)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = json.dumps({"encounter-answered": {
        "from": old_version, "to": view.encounter.version}})
    return response


_row = handoff.row  # a combatant's stored columns, as encounters.handoff keeps them


def _field(name: str) -> int:
    """The place of a Combatant column in encounters.handoff's rows."""
    return [f.attname for f in Combatant._meta.concrete_fields].index(name)


def _order_of(rows: dict[int, tuple]) -> list[int]:
    """Combatant ids in the order the page lists them (selectors.encounter_view's sort)."""
    rank, removed, position = _field("rank"), _field("removed"), _field("position")
    return sorted(rows, key=lambda pk: (rows[pk][rank] is None or rows[pk][removed],
                                        rows[pk][rank] or 0, rows[pk][position], pk))


def step(request, encounter_id: int, run, done: str = "", whole_log: bool = False):
    page = page_of(request)
    started = timezone.now()
    try:
        with handoff.keeping(encounter_id) as kept, journal.recording() as written:
            run()
    except EncounterNotFound:
        raise Http404(_("No such encounter.")) from None
    except RuleError as exc:
        if request.htmx:
            return render_encounter(request, encounter_id, page, error=error_message(exc))
        messages.error(request, error_message(exc))
        return redirect(PAGES[page], encounter_id=encounter_id)
    if request.htmx:
        return _changes(request, encounter_id, page, since=started, kept=kept,
                        journaled=written.wrote, whole_log=whole_log)
    if done:
        messages.success(request, done)
    return redirect(PAGES[page], encounter_id=encounter_id)


def respond(request, encounter_id: int, run, done: str = ""):
    """Run ``run()`` (a step, a rule system's action) and answer as the encounter's own steps
    do: for htmx, what changed (an error: the whole fragment with it), else a redirect to the
    page."""
    return step(request, encounter_id, run, done)
