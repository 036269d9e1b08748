"""How an encounter page answers: the page or its htmx fragment, and a step's answer (the
fragment with the error inside it for htmx, else a redirect with a message). Shared by the
encounter's own views and by a rule system's action views (homebrew.views), which may not
import encounters.views (.importlinter: views are private to their app)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.messages import error_message
from characters.models import Character
from encounters import selectors
from encounters.errors import EncounterNotFound
from gamerules.errors import RuleError

PAGES = {"play": "encounters:play", "control": "encounters:control"}


def page_of(request) -> str:
    page = request.POST.get("page") or request.GET.get("page") or "play"
    return page if page in PAGES else "play"


def render_encounter(request, encounter_id: int, page: str, **extra):
    try:
        view = selectors.encounter_view(user=request.user, encounter_id=encounter_id)
    except EncounterNotFound:
        raise Http404(_("No such encounter.")) from None
    if page == "control" and not view.gm:
        raise Http404(_("No such encounter."))
    characters, templates = [], []
    if page == "control":
        taken = {c.character_id for c in view.combatants if c.character_id and not c.removed}
        everyone = list(Character.objects.filter(campaign=view.encounter.campaign)
                        .only("id", "name", "kind", "campaign_id"))
        characters = [c for c in everyone if c.pk not in taken]
        # Any creature or non-player character may be copied, even one already fighting.
        templates = [c for c in everyone if c.kind != Character.Kind.PLAYER]
    me = view.current if view.my_turn else None
    template = "encounters/_encounter.html" if request.htmx else "encounters/page.html"
    return render(request, template, {"view": view, "page": page, "me": me,
                                      "characters": characters,
                                      "templates": templates, **extra})


def step(request, encounter_id: int, run, done: str = ""):
    page = page_of(request)
    try:
        run()
    except EncounterNotFound:
        raise Http404(_("No such encounter.")) from None
    except RuleError as exc:
        if request.htmx:
            return render_encounter(request, encounter_id, page, error=error_message(exc))
        messages.error(request, error_message(exc))
        return redirect(PAGES[page], encounter_id=encounter_id)
    if request.htmx:
        return render_encounter(request, encounter_id, page, done=done)
    if done:
        messages.success(request, done)
    return redirect(PAGES[page], encounter_id=encounter_id)


def respond(request, encounter_id: int, run, done: str = ""):
    """Run ``run()`` (a step, a rule system's action) and answer as the encounter's own steps
    do: the fragment for htmx (an error inside it), else a redirect to the page."""
    return step(request, encounter_id, run, done)
