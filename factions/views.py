"""Faction pages: a campaign's factions (and the creation form), a faction's public page (join,
request, leave, answer invitations) and its leader's page (requests, invitations, members,
hand-over, dissolution).

Views are thin: a form checks the shape of the POST, one service does the change, a selector
reads the page back. With htmx a POST answers the page's fragment (the error or the notice
inside it, status 200 since htmx swaps 2xx only); without it the POST redirects to the page and
the outcome comes as a message. A faction, request or character the user may not touch answers
404, like a missing one. When the page itself is gone after the action (the faction dissolved,
the leadership handed over), the browser is sent on to the next page (``HX-Redirect`` with htmx).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.errors import Forbidden, InvalidInput, NotFound
from campaigns.messages import error_message
from factions import services
from factions.forms import AnswerForm, CharacterForm, FactionCreateForm
from factions.models import JoinRequest
from factions.selectors import (campaign_factions, faction_get, faction_index, faction_manage,
                                faction_view, pending_count)
from gamerules.errors import RuleError

# page -> (full template, fragment, selector, url name)
PAGES: dict[str, tuple[str, str, Callable, str]] = {
    "list": ("factions/list.html", "factions/_list.html",
             lambda user, key: campaign_factions(user=user, campaign_id=key), "factions:list"),
    "detail": ("factions/detail.html", "factions/_faction.html",
               lambda user, key: faction_view(user=user, faction_id=key), "factions:detail"),
    "manage": ("factions/manage.html", "factions/_manage.html",
               lambda user, key: faction_manage(user=user, faction_id=key), "factions:manage"),
    # The nav's "Factions" page: what waits for the user's answer, their characters (no key).
    "index": ("factions/index.html", "factions/_pending.html",
              lambda user, key: faction_index(user=user), "factions:index"),
}

# Sent with every htmx answer that changed something, so the navigation's count reloads.
CHANGED_EVENT = "factions-changed"


def _page(request, page: str, key: int | None, *, view=None, status: int = 200, form=None, **extra):
    full, fragment, select, _name = PAGES[page]
    if view is None:
        try:
            view = select(request.user, key)
        except NotFound:
            raise Http404(_("No such faction.")) from None
    return render(request, fragment if request.htmx else full,
                  {"view": view, "form": form, **extra}, status=status)


def _form_error(form) -> str:
    return "; ".join(f"{form.fields[k].label if k in form.fields else k}: {' '.join(v)}"
                     for k, v in form.errors.items())


def _act(request, *, page: str, key: int | None, form, run: Callable,
         done: str | Callable[[object], str], gone_to: str | None = None):
    """Validate ``form``, call ``run(cleaned_data)`` (a service), answer the page.

    ``done``: the notice, or a function of the service's result that says what happened.
    ``gone_to``: where to go when the page no longer exists for the user after the action."""
    url = reverse(PAGES[page][3], args=[] if key is None else [key])
    if not form.is_valid():
        return _refused(request, page, key, url, _form_error(form), code=InvalidInput.code, form=form)
    try:
        result = run(form.cleaned_data)
    except (NotFound, Forbidden):
        raise Http404(_("Not found.")) from None
    except RuleError as exc:
        return _refused(request, page, key, url, error_message(exc), code=exc.code, form=form)
    if callable(done):
        done = done(result)
    try:
        view = PAGES[page][2](request.user, key)
    except NotFound:
        if gone_to is None:
            raise Http404(_("Not found.")) from None
        messages.success(request, done)
        return HttpResponseClientRedirect(gone_to) if request.htmx else redirect(gone_to)
    if not request.htmx:
        messages.success(request, done)
        return redirect(url)
    response = _page(request, page, key, view=view, notice=done)
    response["HX-Trigger"] = CHANGED_EVENT
    return response


def _refused(request, page: str, key: int | None, url: str, error: str, *, code: str, form):
    if not request.htmx:
        messages.error(request, error)
        return redirect(url)
    return _page(request, page, key, error=error, code=code,
                 form=form if page == "list" else None)


def _faction_or_404(faction_id: int):
    try:
        return faction_get(faction_id=faction_id)
    except NotFound:
        raise Http404(_("No such faction.")) from None


@login_required
@require_GET
def index(request):
    """What waits for the user's answer, their characters with their faction, and the
    campaigns to look at."""
    return _page(request, "index", None)


@login_required
@require_GET
def pending_count_badge(request):
    """The navigation bar's count of requests and invitations waiting for the user (loaded by
    htmx after the page, so a page costs no query for it; one query here)."""
    return render(request, "factions/_pending_count.html",
                  {"count": pending_count(user=request.user)})


def _joined_or_requested(result) -> str:
    if isinstance(result, JoinRequest):
        return _("Request sent: the leader of %(faction)s will answer it.") % {
            "faction": result.faction.name}
    return _("%(character)s joined %(faction)s.") % {"character": result.character.name,
                                                      "faction": result.faction.name}


@login_required
@require_http_methods(["GET", "POST"])
def faction_list(request, campaign_id: int):
    """The campaign's factions and the creation form (POST: create one)."""
    if request.method == "GET":
        return _page(request, "list", campaign_id, form=FactionCreateForm())
    return _act(request, page="list", key=campaign_id, form=FactionCreateForm(request.POST),
                done=_("Faction created."),
                run=lambda d: services.faction_create(
                    user=request.user, character_id=d["character"], campaign_id=campaign_id,
                    name=d["name"],
                    description=d["description"], is_public=d["is_public"]))


def _refetched(request, page: str, key: int, gone_to: str):
    """The page, or for the page's own refetch (htmx: a change pushed, factions.live) of a page
    gone meanwhile (the faction dissolved, the leadership handed over) the browser sent on to
    ``gone_to``. A missing faction and a forbidden one answer alike."""
    try:
        return _page(request, page, key)
    except Http404:
        if request.htmx:
            return HttpResponseClientRedirect(gone_to)
        raise


@login_required
@require_GET
def faction_detail(request, faction_id: int):
    return _refetched(request, "detail", faction_id, reverse("factions:index"))


@login_required
@require_GET
def faction_manage_page(request, faction_id: int):
    return _refetched(request, "manage", faction_id,
                      reverse("factions:detail", args=[faction_id]))


@login_required
@require_POST
def join(request, faction_id: int):
    """Join a public faction, or ask to join a private one."""
    return _act(request, page="detail", key=faction_id, form=CharacterForm(request.POST),
                done=_joined_or_requested,
                run=lambda d: services.faction_join(user=request.user, faction_id=faction_id,
                                                    character_id=d["character"]))


@login_required
@require_POST
def leave(request, faction_id: int):
    """A member leaves (a leader alone dissolves the faction)."""
    faction = _faction_or_404(faction_id)
    return _act(request, page="detail", key=faction_id, form=CharacterForm(request.POST),
                done=_("You left the faction."),
                gone_to=reverse("factions:list", args=[faction.campaign_id]),
                run=lambda d: services.faction_leave(user=request.user, faction_id=faction_id,
                                                     character_id=d["character"]))


def _request_page(request) -> str:
    """Which page sent the answer (and gets it back): the leader's page, the nav's Factions
    page, or the faction's page."""
    page = request.POST.get("page")
    return page if page in ("manage", "index") else "detail"


def _page_key(page: str, faction_id: int) -> int | None:
    return None if page == "index" else faction_id


@login_required
@require_POST
def request_answer(request, faction_id: int, request_id: int):
    """Accept or refuse: a request (the leader, from the leader's page) or an invitation (the
    invited player, from the faction's page)."""
    page = _request_page(request)
    return _act(request, page=page, key=_page_key(page, faction_id),
                form=AnswerForm(request.POST), done=_("Answer recorded."),
                gone_to=reverse("factions:detail", args=[faction_id]),
                run=lambda d: services.request_answer(user=request.user, request_id=request_id,
                                                      accept=d["accept"]))


@login_required
@require_POST
def request_withdraw(request, faction_id: int, request_id: int):
    """Withdraw one's request (faction page) or an invitation (leader's page)."""
    page = _request_page(request)
    return _act(request, page=page, key=_page_key(page, faction_id),
                form=forms.Form(request.POST), done=_("Withdrawn."),
                gone_to=reverse("factions:detail", args=[faction_id]),
                run=lambda d: services.request_withdraw(user=request.user,
                                                        request_id=request_id))


@login_required
@require_POST
def invite(request, faction_id: int):
    return _act(request, page="manage", key=faction_id, form=CharacterForm(request.POST),
                done=_("Invitation sent."),
                run=lambda d: services.faction_invite(user=request.user, faction_id=faction_id,
                                                      character_id=d["character"]))


@login_required
@require_POST
def remove(request, faction_id: int):
    return _act(request, page="manage", key=faction_id, form=CharacterForm(request.POST),
                done=_("Member removed."),
                run=lambda d: services.member_remove(user=request.user, faction_id=faction_id,
                                                     character_id=d["character"]))


@login_required
@require_POST
def transfer(request, faction_id: int):
    return _act(request, page="manage", key=faction_id, form=CharacterForm(request.POST),
                done=_("Leadership handed over."),
                gone_to=reverse("factions:detail", args=[faction_id]),
                run=lambda d: services.leadership_transfer(
                    user=request.user, faction_id=faction_id, character_id=d["character"]))


@login_required
@require_POST
def dissolve(request, faction_id: int):
    faction = _faction_or_404(faction_id)
    return _act(request, page="manage", key=faction_id, form=forms.Form(request.POST),
                done=_("Faction dissolved."),
                gone_to=reverse("factions:list", args=[faction.campaign_id]),
                run=lambda d: services.faction_dissolve(user=request.user,
                                                        faction_id=faction_id))
