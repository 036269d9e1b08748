"""The live pages' event stream (campaigns.live): ``GET /live/?t=<topic>&t=<topic>``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from campaigns import live


@login_required
@require_GET
async def events(request):
    """The ``change`` events of the topics ``?t=`` names (static/js/live.js), a ``keep-alive``
    every 20 s; 404 unless the user may read every one (at most live.MAX_TOPICS); 204 under
    WSGI (the page keeps polling). Async end to end: no database connection, no thread."""
    names = live.topics_of(request)
    if names is None:
        raise Http404(_("No such topic."))
    return await live.stream(request, names)
