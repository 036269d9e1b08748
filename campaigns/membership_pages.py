"""The pages of a campaign's players (docs/campaigns.md, "Players"): the members' page of those
who oversee it (invitations made and revoked, requests to join answered), an invitation's link
``/campaigns/join/<code>/``, and the list of campaigns taking requests to join. Mounted under
/campaigns/ in the ``campaigns`` namespace by characters.campaign_urls.

Refusals: a campaign the reader does not oversee is a 404 (as the masters' pages); any other
refusal is shown in words in the reader's language with its code (``data-code``), at its
status (400, 404, 409), or 422 for htmx (which swaps a 422: templates/base.html)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.errors import CoreError, NotFound
from campaigns.membership import (CODE_MAX, invitation_accept, invitation_create, invitation_revoke,
                                  join_request_answer, join_request_create,
                                  join_request_withdraw)
from campaigns.membership_selectors import campaign_members, invitation_view, join_choices
from campaigns.messages import error_message


_CODE = re.compile(r"[-a-zA-Z0-9_]+")  # a slug: what the route and token_urlsafe take


def _no_campaign():
    return Http404(_("No such campaign."))


# --- the members' page (those who oversee the campaign) ---------------------------------------

def _members(request, campaign_id: int, *, error: CoreError | None = None, done: str = "",
             status: int = 200):
    try:
        view = campaign_members(user=request.user, campaign_id=campaign_id)
    except NotFound:
        raise _no_campaign() from None
    template = "campaigns/_members.html" if request.htmx else "campaigns/members.html"
    context = {"view": view, "done": done, "error": error_message(error) if error else "",
               "error_code": error.code if error else ""}
    return render(request, template, context, status=status)


def _members_answer(request, campaign_id: int, call, done: str):
    """Run ``call()``: then the part again (htmx) or back to the page with ``done``; a
    refusal in words (htmx: 422, else its status); 404 for a campaign not overseen."""
    try:
        call()
    except NotFound as exc:
        if exc.key == "no_such_campaign":
            raise _no_campaign() from None
        return _members(request, campaign_id, error=exc, status=422 if request.htmx else 404)
    except CoreError as exc:
        return _members(request, campaign_id, error=exc,
                        status=422 if request.htmx else exc.status)
    if request.htmx:
        return _members(request, campaign_id, done=done)
    messages.success(request, done)
    return redirect("campaigns:members", campaign_id=campaign_id)


@login_required
@require_GET
def members_page(request, campaign_id: int):
    """The campaign's members, invitations and pending requests to join, with the forms to
    make and revoke invitations and to answer requests (htmx: the part alone). 404 for whoever
    does not oversee it."""
    return _members(request, campaign_id)


@login_required
@require_POST
def invitation_new(request, campaign_id: int):
    """A new invitation (``days``, ``max_uses``: each empty for no end, no limit)."""
    return _members_answer(
        request, campaign_id,
        lambda: invitation_create(user=request.user, campaign_id=campaign_id,
                                  days=request.POST.get("days", ""),
                                  max_uses=request.POST.get("max_uses", "")),
        _("Invitation made: send its link or its code."))


@login_required
@require_POST
def invitation_revoke_page(request, campaign_id: int, invitation_id: int):
    return _members_answer(
        request, campaign_id,
        lambda: invitation_revoke(user=request.user, campaign_id=campaign_id,
                                  invitation_id=invitation_id),
        _("Invitation revoked: it admits no one more."))


@login_required
@require_POST
def join_request_accept(request, campaign_id: int, join_request_id: int):
    return _members_answer(
        request, campaign_id,
        lambda: join_request_answer(user=request.user, campaign_id=campaign_id,
                                    request_id=join_request_id, accept=True),
        _("Request accepted: a member now."))


@login_required
@require_POST
def join_request_refuse(request, campaign_id: int, join_request_id: int):
    return _members_answer(
        request, campaign_id,
        lambda: join_request_answer(user=request.user, campaign_id=campaign_id,
                                    request_id=join_request_id, accept=False),
        _("Request refused."))


# --- an invitation's link -----------------------------------------------------------------------

def _invitation(request, code: str, *, error: CoreError | None = None, status: int = 200):
    try:
        view = invitation_view(user=request.user, code=code)
    except NotFound as exc:
        view, error, status = None, exc, 404
    return render(request, "campaigns/invitation.html",
                  {"view": view, "error": error_message(error) if error else "",
                   "error_code": error.code if error else ""}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_page(request, code: str):
    """GET: the invitation (its campaign, whether it still admits, a button to join); a
    signed-out visitor is sent to log in (or sign up) and back here (``next``). POST: join,
    then to the characters' page, whose form offers the campaign."""
    if request.method == "GET":
        return _invitation(request, code)
    try:
        member = invitation_accept(user=request.user, code=code)
    except CoreError as exc:
        return _invitation(request, code, error=exc, status=exc.status)
    messages.success(request, _("You are a member of %(name)s: make your character below.")
                     % {"name": member.campaign.name})
    return redirect("characters:list")


# --- requests to join ----------------------------------------------------------------------------

def _join_index(request, *, error: CoreError | None = None, done: str = "", status: int = 200):
    template = "campaigns/_join.html" if request.htmx else "campaigns/join.html"
    return render(request, template,
                  {"choices": join_choices(user=request.user), "done": done,
                   "error": error_message(error) if error else "",
                   "error_code": error.code if error else ""},
                  status=status)


def _join_answer(request, call, done: str):
    try:
        call()
    except CoreError as exc:
        if isinstance(exc, NotFound) and not request.htmx:
            raise Http404(error_message(exc)) from None
        return _join_index(request, error=exc, status=422 if request.htmx else exc.status)
    if request.htmx:
        return _join_index(request, done=done)
    messages.success(request, done)
    return redirect("campaigns:join")


@login_required
@require_GET
def join_page(request):
    """The closed campaigns taking requests to join, each with where the reader stands and a
    form to ask (with a short message) or to withdraw a pending request. ``?code=``: to that
    invitation's page (a code that cannot be one: 404 with the refusal)."""
    code = request.GET.get("code")
    if code is not None:
        code = code.strip()
        if code and len(code) <= CODE_MAX and _CODE.fullmatch(code):
            return redirect("campaigns:invitation", code=code)
        return _join_index(request, error=NotFound("no_such_invitation"), status=404)
    return _join_index(request)


@login_required
@require_POST
def join_request_new(request, campaign_id: int):
    """Ask to join the campaign (``message``). 404 for a campaign that takes no requests."""
    return _join_answer(
        request,
        lambda: join_request_create(user=request.user, campaign_id=campaign_id,
                                    message=request.POST.get("message", "")),
        _("Request sent: its game master will answer."))


@login_required
@require_POST
def join_request_withdraw_page(request, join_request_id: int):
    return _join_answer(
        request, lambda: join_request_withdraw(user=request.user, request_id=join_request_id),
        _("Request withdrawn."))
