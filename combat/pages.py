"""The board page's rendering, shared by the board's own actions (combat.views) and the actions
of the apps above the board that answer with it (magic's cast): the board fragment with the
result or error for htmx, a redirect to the board page otherwise."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.errors import NotFound, RuleSystemNotPlayable
from combat import hooks
from combat.polls import poll_token
from ew1.selectors import board_view


def _board_context(request, character_id: int, read_first=None) -> dict:
    """The board's view, the panels of the apps above it and the poll token. 404 for a
    character the user may not see and for one of another rule system (no board)."""
    try:
        view = board_view(user=request.user, character_id=character_id)
    except (NotFound, RuleSystemNotPlayable):
        raise Http404(_("No such character.")) from None
    character = view.sheet.character
    pieces = [character, *view.in_view] if character.on_board else []
    panels = hooks.board_panels(request.user, character, pieces)  # magic: the spells
    token = poll_token(board=view, user_id=request.user.pk, language=request.LANGUAGE_CODE,
                       read_first=read_first)
    return {"board": view, "view": view.sheet, **panels, "poll_token": token}


def render_board(request, character_id: int, read_first=None, **extra):
    """``read_first``: the versions read before the data (combat.polls), for the poll token.
    404 for a character the user may not see and for one of another rule system (no board)."""
    template = "combat/_board.html" if request.htmx else "combat/board.html"
    return render(request, template, {**_board_context(request, character_id, read_first),
                                      **extra})


def render_piece_menu(request, character_id: int, target_id: int):
    """The action menu of the piece ``target_id`` as the board shows it (``board_view``: only
    what the character sees; the same queries as the board). 404 when the piece is not in
    view (``board_view.in_view``): nothing about it is told. With htmx the menu fragment,
    otherwise the board page with the menu open."""
    context = _board_context(request, character_id)
    target = next((p for p in context["board"].in_view if p.pk == target_id), None)
    if target is None:
        raise Http404(_("No such piece in view."))
    spells = [(choice, next(t for t in choice.targets if t.pk == target_id))
              for choice in context.get("spells") or () if any(
                  t.pk == target_id for t in choice.targets)]
    menu = {"piece": target, "spells": spells}
    template = "combat/_piece_menu.html" if request.htmx else "combat/board.html"
    return render(request, template, {**context, "menu": menu})


def respond_with_board(request, character_id, *, error=None, result=None):
    """The board fragment with the result or error (htmx), or a redirect to the board page with
    the error as a message."""
    if request.htmx:
        # htmx swaps 2xx only: an error is shown inside the fragment, with a 200.
        return render_board(request, character_id, error=error, result=result)
    if error:
        messages.error(request, error)
    return redirect("combat:board", character_id=character_id)
