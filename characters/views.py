from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.errors import NotFound
from campaigns.messages import error_message
from characters.forms import CharacterCreateForm
from ew1.creation import draft_roll
from ew1.selectors import character_sheet, characters_now
from gamerules.errors import RuleError


@login_required
@require_http_methods(["GET", "POST"])
def character_list(request):
    form = CharacterCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            draft = draft_roll(user=request.user, campaign=form.cleaned_data["campaign"],
                               name=form.cleaned_data["name"])
        except RuleError as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("characters:draft", draft_id=draft.pk)
    return render(request, "characters/list.html",
                  {"characters": characters_now(user=request.user), "form": form})


@login_required
@require_GET
def character_detail(request, character_id: int):
    try:
        view = character_sheet(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    template = "characters/_sheet.html" if request.htmx else "characters/detail.html"
    return render(request, template, {"view": view})
