"""Board pages: the board around a character, and the move and attack forms it posts.

With htmx the POSTs answer with the board fragment (result or error included); without it they
redirect to the board page and the result comes as a message.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import NotFound
from campaigns.messages import error_message
from campaigns.permissions import allowed
from combat.forms import AttackForm, MoveForm
from combat.polls import poll_token, poll_unchanged, read_versions_first
from combat.services import action_attack, action_game, action_move
from ew1.selectors import board_view
from gamerules.errors import RuleError
from magic.selectors import spell_panel


def _render_board(request, character_id: int, read_first=None, **extra):
    """``read_first``: the versions read before the data (combat.polls), for the poll token."""
    try:
        view = board_view(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    template = "combat/_board.html" if request.htmx else "combat/board.html"
    character = view.sheet.character
    pieces = [character, *view.in_view] if character.on_board else []
    spells = (spell_panel(character, pieces) if allowed(request.user, "characters.act", character)
              else [])
    token = poll_token(board=view, user_id=request.user.pk, language=request.LANGUAGE_CODE,
                       read_first=read_first)
    return render(request, template, {"board": view, "view": view.sheet, "spells": spells,
                                      "poll_token": token, **extra})


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
    return _render_board(request, character_id, read_first=read_first)


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


def respond_with_board(request, character_id, *, error=None, result=None):
    """The board fragment with the result or error (htmx), or a redirect to the board page with
    the error as a message."""
    if request.htmx:
        # htmx swaps 2xx only: an error is shown inside the fragment, with a 200.
        return _render_board(request, character_id, error=error, result=result)
    if error:
        messages.error(request, error)
    return redirect("combat:board", character_id=character_id)


@login_required
@require_POST
def move(request, character_id: int):
    return _act(request, character_id, MoveForm(request.POST), lambda d: action_move(
        user=request.user, character_id=character_id, dx=d["dx"], dy=d["dy"]))


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
