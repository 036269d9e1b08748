"""The character page's fragment, shared by every app whose sheet actions answer with it (a
system's inventory, the board's suicide and reincarnation, the cooldown notice): the sheet with
the result or error for htmx, a redirect to the character page with a message otherwise."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.errors import Forbidden, NotFound
from campaigns.messages import error_message
from characters.selectors import character_sheet
from gamerules.errors import RuleError


def render_sheet(request, character_id: int, *, error=None, notice=None):
    """The sheet fragment (characters/_sheet.html) with ``error`` or ``notice``; 404 for a
    character the user may not see."""
    try:
        view = character_sheet(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    return render(request, "characters/_sheet.html",
                  {"view": view, "error": error, "notice": notice})


def sheet_action(request, character_id: int, run, success: str):
    """Run ``run()`` (a service call): its RuleError shown in the sheet (htmx) or as a message,
    else ``success``; NotFound and Forbidden answer 404."""
    try:
        run()
    except (NotFound, Forbidden):
        raise Http404(_("No such character.")) from None
    except RuleError as exc:
        if request.htmx:
            return render_sheet(request, character_id, error=error_message(exc))
        messages.error(request, error_message(exc))
    else:
        if request.htmx:
            return render_sheet(request, character_id, notice=success)
        messages.success(request, success)
    return redirect("characters:detail", character_id=character_id)
