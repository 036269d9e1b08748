"""The chat's pages: a campaign's chat page, an encounter's chat (its page, and the panel on
the encounter's pages), the GM's deletion. Thin: each reads the request, calls a selector or a
service, and answers; htmx asks for a part (``?part=log`` the messages, ``?part=form`` the
form) and posts without a full reload; without JavaScript the forms post and redirect."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaigns.messages import error_message
from campaigns.numbers import INT_MAX
from chat import live, selectors, services
from chat.errors import ChatError, ChatNotFound
from chat.models import To
from gamerules.errors import RuleError

POSTED = "chat-posted"  # the event an htmx post triggers: the room's log refetches at once


def _room(request, campaign_id, encounter_id) -> selectors.Room:
    try:
        return selectors.room_for(user=request.user, campaign_id=campaign_id,
                                  encounter_id=encounter_id)
    except ChatNotFound as exc:
        raise Http404(error_message(exc)) from None


def _url(room: selectors.Room) -> str:
    if room.encounter is not None:
        return reverse("chat:encounter", args=[room.encounter.pk])
    return reverse("chat:campaign", args=[room.campaign.pk])


def _id(value: str) -> int | None:
    """A row id written in a form or query string, else None (never a 500)."""
    if not (value.isascii() and value.isdigit()) or len(value) > len(str(INT_MAX)):
        return None
    number = int(value)
    return number if 0 < number <= INT_MAX else None


def _before(request) -> int | None:
    return _id(request.GET.get("before", ""))


def _context(request, room, **extra) -> dict:
    return {"room": room, "url": _url(room), "user": request.user, "To": To,
            "topic": live.room_topic(room.campaign.pk, room.encounter_id),
            "max_length": settings.CHAT_MESSAGE_MAX, **extra}


def _form(request, room, *, error: str = "", posted=None, status: int = 200) -> HttpResponse:
    context = _context(request, room, recipients=selectors.recipients(room), error=error,
                       posted=posted or {})
    if request.htmx:
        response = render(request, "chat/_form.html", context)
        if not error:
            response["HX-Trigger"] = POSTED
        return response
    context["page"] = selectors.messages_page(room, before=_before(request))
    return render(request, "chat/page.html", context, status=status)


def _post(request, room) -> HttpResponse:
    data = request.POST
    recipient = data.get("recipient", "")
    try:
        services.message_post(
            user=request.user, text=data.get("text", ""), campaign_id=room.campaign.pk,
            encounter_id=room.encounter_id, to=data.get("to", To.ALL),
            recipient_id=_id(recipient))
    except RuleError as exc:
        posted = {"text": data.get("text", "").replace("\x00", "")[:settings.CHAT_MESSAGE_MAX],
                  "to": data.get("to", ""), "recipient": recipient}
        return _form(request, room, error=error_message(exc), posted=posted,
                     status=getattr(exc, "status", 400))
    if not request.htmx:
        return redirect(_url(room))
    return _form(request, room)


def _room_view(request, campaign_id=None, encounter_id=None) -> HttpResponse:
    room = _room(request, campaign_id, encounter_id)
    if request.method == "POST":
        return _post(request, room)
    part = request.GET.get("part", "")
    if part == "form":
        return render(request, "chat/_form.html",
                      _context(request, room, recipients=selectors.recipients(room), posted={}))
    page = selectors.messages_page(room, before=_before(request))
    if part == "log":
        return render(request, "chat/_log.html", _context(request, room, page=page))
    return render(request, "chat/page.html",
                  _context(request, room, page=page, recipients=selectors.recipients(room),
                           posted={}))


@login_required
@require_http_methods(["GET", "POST"])
def campaign_chat(request, campaign_id: int):
    return _room_view(request, campaign_id=campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def encounter_chat(request, encounter_id: int):
    return _room_view(request, encounter_id=encounter_id)


@login_required
@require_POST
def message_delete(request, message_id: int):
    """The GM deletes a message; htmx gets the room's log back, a plain form the room's page."""
    try:
        message = services.message_delete(user=request.user, message_id=message_id)
    except ChatNotFound as exc:
        raise Http404(error_message(exc)) from None
    except ChatError as exc:
        return HttpResponse(error_message(exc), status=exc.status, content_type="text/plain")
    room = _room(request, None if message.encounter_id else message.campaign_id,
                 message.encounter_id)
    if not request.htmx:
        return redirect(_url(room))
    page = selectors.messages_page(room)
    return render(request, "chat/_log.html", _context(request, room, page=page))


@login_required
@require_POST
def entry_share(request, entry_id: int):
    """The GM shows a journal entry in the chat (the "Show in chat" of an encounter's log):
    htmx gets a short notice, a plain form the room's page."""
    try:
        message = services.entry_share(user=request.user, entry_id=entry_id)
    except ChatNotFound as exc:
        raise Http404(error_message(exc)) from None
    except ChatError as exc:
        return HttpResponse(error_message(exc), status=exc.status, content_type="text/plain")
    if message.encounter_id is not None:
        url = reverse("chat:encounter", args=[message.encounter_id])
    else:
        url = reverse("chat:campaign", args=[message.campaign_id])
    if not request.htmx:
        return redirect(url)
    response = HttpResponse(_("Shown in the chat."), content_type="text/plain")
    response["HX-Trigger"] = POSTED
    return response


@login_required
@require_safe
def index(request):
    """The campaigns whose chat the user may enter (the navigation's "Chat")."""
    return render(request, "chat/index.html",
                  {"campaigns": selectors.campaigns_of(user=request.user)})
