"""The notifications' pages: the bell (a fragment htmx loads into the navigation after the
page, and again when its topic is pushed), the list (``/notifications/``, paged), marking one or
all seen, and the settings (mutes, digest). Thin: each reads the request, calls a selector or a
service, and answers; htmx swaps the fragment, and without JavaScript the forms post and
redirect."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.messages import error_message
from notifications import kinds, selectors, services
from notifications.errors import NotificationError

CHANGED = "notifications-changed"  # what an htmx post triggers: the bell refetches


@login_required
@require_GET
def bell(request):
    """The navigation's bell: the unseen count and the latest unseen (two queries)."""
    count, latest = selectors.bell(request.user)
    return render(request, "notifications/_bell.html", {"count": count, "latest": latest})


def _list(request, *, status: int = 200, error: str = "") -> HttpResponse:
    page = selectors.page_of(request.user, request.GET.get("page"))
    template = "notifications/_list.html" if request.htmx else "notifications/index.html"
    response = render(request, template, {"page": page, "error": error}, status=status)
    if request.htmx and request.method == "POST":
        response["HX-Trigger"] = CHANGED
    return response


@login_required
@require_GET
def index(request):
    """The list, newest first, PAGE_SIZE a page (``?page=``)."""
    return _list(request)


@login_required
@require_POST
def seen(request, notification_id: int):
    """Mark one seen; another user's, or none, answers 404 (code no_such_notification)."""
    try:
        services.mark_seen(user=request.user, notification_id=notification_id)
    except NotificationError as exc:
        return _list(request, status=exc.status, error=error_message(exc))
    return _list(request) if request.htmx else redirect(reverse("notifications:index"))


@login_required
@require_POST
def seen_all(request):
    services.mark_all_seen(user=request.user)
    return _list(request) if request.htmx else redirect(reverse("notifications:index"))


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request):
    """Which kinds are muted, and the e-mail digest."""
    error, saved = "", False
    if request.method == "POST":
        try:
            services.preferences_set(user=request.user, muted=request.POST.getlist("mute"),
                                     digest=request.POST.get("digest") == "on")
            saved = True
        except NotificationError as exc:
            error = error_message(exc)
    muted, digest = selectors.preferences(request.user)
    context = {"kinds": [(kind, label, kind in muted) for kind, label in kinds.KINDS.items()],
               "digest": digest, "has_email": bool(request.user.email), "error": error,
               "saved": saved}
    return render(request, "notifications/preferences.html", context,
                  status=400 if error else 200)
