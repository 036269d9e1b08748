"""Board pages: the board around a character, and the move and attack forms it posts; leaving
the board (suicide) and coming back (reincarnation), posted from the sheet.

With htmx the POSTs answer with the board fragment (result or error included); without it they
redirect to the board page and the result comes as a message.
"""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import NotFound
from campaigns.messages import error_message
from characters.pages import sheet_action
from combat.forms import AttackForm, MoveForm, MoveToForm, PieceForm
from combat.pages import render_board, render_piece_menu, respond_with_board
from combat.polls import poll_unchanged, read_versions_first
from combat.services import (action_attack, action_game, action_move, action_move_to,
                             character_reincarnate, character_suicide)
from gamerules.errors import RuleError


@login_required
@require_GET
def board(request, character_id: int):
    """The board page, or its fragment for htmx. An htmx poll carrying the token of what it
    shows (``?v=``) gets an empty 204 when nothing in view changed: one cache read, no SQL
    beyond the session and the user (combat.polls)."""
    token = request.GET.get("v") if request.htmx else None
    read_first = read_versions_first(token, character_id=character_id)
    if poll_unchanged(token=token, read_first=read_first, user_id=request.user.pk,
                      character_id=character_id, language=request.LANGUAGE_CODE):
        return HttpResponse(status=204)
    return render_board(request, character_id, read_first=read_first)


def _act(request, character_id: int, form, run):
    if not form.is_valid():
        error = "; ".join(f"{form.fields[k].label if k in form.fields else k}: {' '.join(v)}"
                          for k, v in form.errors.items())
        return respond_with_board(request, character_id, error=error)
    try:
        result = run(form.cleaned_data)
    except NotFound:
        raise Http404(_("No such character.")) from None
    except RuleError as exc:
        return respond_with_board(request, character_id, error=error_message(exc))
    return respond_with_board(request, character_id, result=result.action)


@login_required
@require_POST
def move(request, character_id: int):
    return _act(request, character_id, MoveForm(request.POST), lambda d: action_move(
        user=request.user, character_id=character_id, dx=d["dx"], dy=d["dy"]))


@login_required
@require_POST
def move_to(request, character_id: int):
    """Walk to a cell of the board (``to``: "x,y"): the path and its cost are the server's
    (combat.services.action_move_to), as the board's preview showed them."""
    return _act(request, character_id, MoveToForm(request.POST), lambda d: action_move_to(
        user=request.user, character_id=character_id, x=d["to"][0], y=d["to"][1]))


@login_required
@require_GET
def piece(request, character_id: int):
    """The action menu of a piece in view (``?target=``): its attacks, the spells that reach
    it, each with its PA cost and chance. A piece the character does not see (out of view,
    another board, unknown) is a 404, as is a character the user may not see; without htmx,
    the board page with the menu open."""
    form = PieceForm(request.GET)
    if not form.is_valid():
        raise Http404(_("No such piece in view."))
    return render_piece_menu(request, character_id, form.cleaned_data["target"])


@login_required
@require_POST
def attack(request, character_id: int):
    return _act(request, character_id, AttackForm(request.POST), lambda d: action_attack(
        user=request.user, character_id=character_id, target_id=d["target"], kind=d["kind"]))


@login_required
@require_POST
def game(request, character_id: int):
    return _act(request, character_id, forms.Form(request.POST), lambda d: action_game(
        user=request.user, character_id=character_id))


# --- leaving and coming back (posted from the sheet) -------------------------------------------

@login_required
@require_POST
def suicide(request, character_id: int):
    asap = request.POST.get("reincarnate_asap") in ("1", "on", "true")
    return sheet_action(request, character_id, lambda: character_suicide(
        user=request.user, character_id=character_id, reincarnate_asap=asap),
        _("Your character left the board."))


@login_required
@require_POST
def reincarnate(request, character_id: int):
    return sheet_action(request, character_id, lambda: character_reincarnate(
        user=request.user, character_id=character_id), _("Your character is back on the board."))
