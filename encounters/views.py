"""Encounter pages: the player's page (order, whose turn, my actions, my reactions, gauges, the
log) and the GM's control page (the same, with every control), and the forms they post.

One template per page with named partials (``encounters/_encounter.html`` is the fragment).
The page listens to the encounter's server-sent events (``events``, encounters.push) and fetches
its fragment, carrying the version it shows (``?v=``), when a pushed version differs; while the
stream is not open it polls every second instead (once a minute while it is). An unchanged
encounter answers 204 after one query (selectors.encounter_viewer); a pending reaction past
its deadline is defaulted first.
With htmx a POST answers what it changed, out of band (encounters.pages; a refusal: the whole
fragment with the error inside it, status 200); without it, a redirect to the page with the
error as a message.
"""

from __future__ import annotations


from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import live
from campaigns.errors import InvalidInput, NotFound
from campaigns.messages import error_message
from campaigns.numbers import posted_text, whole_number
from encounters import push, selectors, services, streamed
from encounters.errors import EncounterInvalid, EncounterNotFound
from encounters.pages import render_encounter as _render
from encounters.pages import step as _step
from gamerules.errors import RuleError


def _poll(request, encounter_id: int, page: str) -> HttpResponse:
    """The page or fragment; for an htmx poll whose ``?v=`` is the current version, 204 (one
    query). A pending prompt past its deadline is defaulted first."""
    seen = request.GET.get("v") if request.htmx else None
    if not seen:
        return _render(request, encounter_id, page)
    viewer = selectors.encounter_viewer(user=request.user, encounter_id=encounter_id)
    if viewer is None or (page == "control" and not viewer.gm):
        raise Http404(_("No such encounter."))
    deadline = viewer.reaction_deadline
    if deadline is not None and timezone.now() >= deadline:
        services.reactions_default_due(encounter_id=encounter_id)
        return _render(request, encounter_id, page)
    if seen == str(viewer.version):
        return HttpResponse(status=204)
    return _render(request, encounter_id, page, viewer=viewer)


@login_required
@require_GET
def play(request, encounter_id: int):
    """The player's page; for a player of the campaign not in an encounter open to joining,
    the page that offers to join it with one of their characters (selectors.join_offer),
    which shows nothing else of it."""
    try:
        return _poll(request, encounter_id, "play")
    except Http404:
        offer = selectors.join_offer(user=request.user, encounter_id=encounter_id)
        if offer is None or request.htmx:
            raise
        return render(request, "encounters/join.html", {"offer": offer})


@login_required
@require_GET
def control(request, encounter_id: int):
    return _poll(request, encounter_id, "control")


@login_required
@require_GET
def version(request, encounter_id: int):
    """``{"version": n}``: what a poll (or a push, later) compares."""
    row = selectors.encounter_version(user=request.user, encounter_id=encounter_id)
    if row is None:
        raise Http404(_("No such encounter."))
    return JsonResponse({"version": row[0]})


@login_required
@require_GET
async def events(request, encounter_id: int):
    """The encounter's server-sent events (campaigns.live, topic ``encounter-<id>``): after
    each step, a ``body`` event with the new fragment of the page ``?page=`` names (``play``
    or ``control``; encounters.streamed), or a ``change`` event with the version when the
    fragment cannot be pushed (the page refetches it); a ``keep-alive`` every 20 s. 404 for
    an encounter the user may not see. Under WSGI, which cannot hold a stream open without
    holding a worker, 204: the browser does not reconnect and the page keeps polling. 400 for
    django-eventstream's GRIP-proxy parameters (no proxy here). Async end to end: the stream
    holds no database connection and no thread."""
    try:
        return await live.stream(request, [push.channel(encounter_id)],
                                 streamed.answering(request, encounter_id))
    except Http404:
        raise Http404(_("No such encounter.")) from None


@login_required
@require_GET
def index(request):
    """The turn-based campaigns the user runs or plays in, each linking to its encounters."""
    campaigns = selectors.campaigns_with_encounters(user=request.user)
    return render(request, "encounters/index.html", {"campaigns": campaigns})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_encounters(request, campaign_id: int):
    """The campaign's encounters; POST (its GM): open a new one."""
    if request.method == "POST":
        try:
            encounter = services.encounter_create(user=request.user, campaign_id=campaign_id,
                                                  name=posted_text(request.POST, "name"))
        except RuleError as exc:
            messages.error(request, error_message(exc))
            return redirect("encounters:list", campaign_id=campaign_id)
        return redirect("encounters:control", encounter_id=encounter.pk)
    try:
        gm, encounters = selectors.encounters_of(user=request.user, campaign_id=campaign_id)
    except EncounterNotFound:
        raise Http404(_("No such encounter.")) from None
    return render(request, "encounters/list.html", {"encounters": encounters, "gm": gm,
                                                    "campaign_id": campaign_id})


@login_required
@require_POST
def enemy_state(request, campaign_id: int):
    """The GM's choice of what the players read of their enemies' state (``value``: exact,
    described, hidden; services.enemy_state_set), from the game master's screen, back to it."""
    try:
        services.enemy_state_set(user=request.user, campaign_id=campaign_id,
                                 value=request.POST.get("value", ""))
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    except RuleError as exc:
        messages.error(request, error_message(exc))
    else:
        messages.success(request, _("The players' view of their enemies is saved."))
    return redirect("campaigns:gm", campaign_id=campaign_id)


# --- steps ----------------------------------------------------------------------------------

def _int(request, name: str) -> int:
    """A whole number the form must carry. Raises InvalidInput."""
    value = whole_number(request.POST.get(name, ""))
    if value is None:
        raise InvalidInput()
    return value


def _maybe_int(request, name: str, default: int | None = None) -> int | None:
    return _int(request, name) if request.POST.get(name, "") != "" else default


def _count(request, name: str) -> int:
    """How many (copies, turns a round): 1 when left empty; the service refuses less."""
    value = _maybe_int(request, name, 1)
    return 1 if value is None else value


def _turn(request) -> int | None:
    return _int(request, "turn")


@login_required
@require_POST
def start(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.encounter_start(
        user=request.user, encounter_id=encounter_id, mode=request.POST.get("mode", "gm")))


@login_required
@require_POST
def next_turn(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.encounter_next_turn(
        user=request.user, encounter_id=encounter_id, turn=_turn(request)))


@login_required
@require_POST
def spend_action(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.encounter_spend_action(
        user=request.user, encounter_id=encounter_id, turn=_turn(request),
        reason=posted_text(request.POST, "reason", "move")))


@login_required
@require_POST
def delay(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.encounter_delay(
        user=request.user, encounter_id=encounter_id, combatant_id=_int(request, "combatant"),
        after_id=_int(request, "after"), turn=_turn(request)))


@login_required
@require_POST
def end(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.encounter_end(
        user=request.user, encounter_id=encounter_id))


@login_required
@require_POST
def add(request, encounter_id: int):
    def run():
        # "turns a round" counts for every line, the characters chosen too
        entries = [services.CombatantEntry(character_id=int(cid),
                                           surprised=bool(request.POST.get("surprised")),
                                           hidden=bool(request.POST.get("hidden")),
                                           turns_per_round=_count(request, "turns"))
                   for cid in request.POST.getlist("character") if whole_number(cid)]
        name = posted_text(request.POST, "name").strip()
        template_id = whole_number(request.POST.get("template", ""))
        if template_id is not None:  # copies of a creature, each with its own sheet
            entries.append(services.CombatantEntry(
                template_id=template_id, name=name,
                count=_count(request, "count"),
                surprised=bool(request.POST.get("surprised")),
                hidden=bool(request.POST.get("hidden")),
                turns_per_round=_count(request, "turns")))
        elif name:
            entries.append(services.CombatantEntry(
                name=name, count=_count(request, "count"),
                surprised=bool(request.POST.get("surprised")),
                hidden=bool(request.POST.get("hidden")),
                turns_per_round=_count(request, "turns")))
        if not entries:  # nothing chosen (say what to choose), or not an id
            if request.POST.getlist("character"):
                raise InvalidInput()
            raise EncounterInvalid(code="combatant_needs_name")
        services.combatants_add(user=request.user, encounter_id=encounter_id, entries=entries)
    return _step(request, encounter_id, run)


@login_required
@require_POST
def order(request, encounter_id: int):
    """The GM's numbers: ``pos-<combatant id>`` fields; sorted by number, ties kept in the
    shown order (the order of the fields)."""
    def run():
        numbered = []
        for i, (key, value) in enumerate((k, v) for k, v in request.POST.items()
                                         if k.startswith("pos-")):
            cid = key.removeprefix("pos-")
            if whole_number(cid) is None or whole_number(value) is None:
                raise InvalidInput()
            numbered.append((int(value), i, int(cid)))
        services.encounter_set_order(user=request.user, encounter_id=encounter_id,
                                     combatant_ids=[cid for _n, _i, cid in sorted(numbered)])
    return _step(request, encounter_id, run)


SWITCHES = {"reveal": {"hidden": False}, "hide": {"hidden": True},
            "defeated": {"defeated": True}, "up": {"defeated": False}}


@login_required
@require_POST
def combatant(request, encounter_id: int, combatant_id: int, what: str):
    def run():
        if what == "remove":
            services.combatant_remove(user=request.user, encounter_id=encounter_id,
                                      combatant_id=combatant_id)
        elif what == "readd":
            services.combatant_readd(user=request.user, encounter_id=encounter_id,
                                     combatant_id=combatant_id)
        elif what in SWITCHES:
            services.combatant_update(user=request.user, encounter_id=encounter_id,
                                      combatant_id=combatant_id, **SWITCHES[what])
        else:
            raise InvalidInput()
    return _step(request, encounter_id, run)


@login_required
@require_POST
def effect(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.effect_add(
        user=request.user, encounter_id=encounter_id, name=posted_text(request.POST, "name"),
        anchor_id=_int(request, "anchor"), edge=_edge(request), rounds=_int(request, "rounds"),
        bearer_id=_maybe_int(request, "bearer")))


def _edge(request) -> str:
    edge = request.POST.get("edge", "")
    if edge not in ("start", "end"):
        raise InvalidInput()
    return edge


@login_required
@require_POST
def answer(request, encounter_id: int, reaction_id: int):
    # The answer rewrites the prompt's entry of the log: the step's answer carries the whole log.
    return _step(request, encounter_id, lambda: services.answer_reaction(
        user=request.user, reaction_id=reaction_id, choice=request.POST.get("choice", "")),
        whole_log=True)


@login_required
@require_POST
def place(request, encounter_id: int, combatant_id: int):
    """The GM's position of one combatant: ``x`` and ``y`` in metres (both empty: clear it)."""
    return _step(request, encounter_id, lambda: services.combatant_place(
        user=request.user, encounter_id=encounter_id, combatant_id=combatant_id,
        x=request.POST.get("x", ""), y=request.POST.get("y", "")))


@login_required
@require_POST
def portrait(request, encounter_id: int):
    """A combatant's portrait (its character's): the GM's or its player's; ``clear`` removes
    it. A plain form posting a file (multipart), answered by a redirect to the page."""
    return _step(request, encounter_id, lambda: services.combatant_portrait_set(
        user=request.user, encounter_id=encounter_id, combatant_id=_combatant_id(request),
        upload=request.FILES.get("picture"), clear=request.POST.get("clear") == "1"),
        done=_("Portrait saved."))


@login_required
@require_POST
def background(request, encounter_id: int):
    """The map's background, the GM's; ``clear`` removes it."""
    return _step(request, encounter_id, lambda: services.encounter_background_set(
        user=request.user, encounter_id=encounter_id, upload=request.FILES.get("picture"),
        clear=request.POST.get("clear") == "1"), done=_("Background saved."))


def _combatant_id(request) -> int:
    value = whole_number(request.POST.get("combatant", ""), negative=False, digits=9)
    if value is None:
        raise InvalidInput()
    return value


@login_required
@require_POST
def positions_clear(request, encounter_id: int):
    return _step(request, encounter_id, lambda: services.positions_clear(
        user=request.user, encounter_id=encounter_id))


@login_required
@require_POST
def join(request, encounter_id: int):
    """A player adds their own character (``character``) to an encounter open to joining;
    back to the encounter's page (a refusal: the page with it as a message)."""
    return _step(request, encounter_id, lambda: services.encounter_join(
        user=request.user, encounter_id=encounter_id, character_id=_int(request, "character")),
        done=_("You joined the encounter."))


@login_required
@require_POST
def joining(request, encounter_id: int):
    """The GM lets players join (``allowed=1``) or stops it (``allowed=0``)."""
    def run():
        value = request.POST.get("allowed", "")
        if value not in ("0", "1"):
            raise InvalidInput()
        services.encounter_joining_set(user=request.user, encounter_id=encounter_id,
                                       allowed=value == "1")
    return _step(request, encounter_id, run)
