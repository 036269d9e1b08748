from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import rule_systems
from campaigns.errors import NotFound
from campaigns.messages import error_message
from campaigns.selectors import campaign_get
from characters.forms import CharacterCreateForm
from characters.leaderboard import leaderboard, leaderboard_columns, leaderboard_tabs
from characters.pages import render_sheet
from characters.selectors import character_sheet, characters_now
from characters.services import cooldown_notice_dismiss
from gamerules.errors import RuleError


@login_required
@require_http_methods(["GET", "POST"])
def character_list(request):
    form = CharacterCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = form.cleaned_data["campaign"]
        try:
            spec = rule_systems.require(campaign.rule_system)
            if spec.begin_creation is None:
                raise rule_systems.not_built(campaign.rule_system)
            next_url = spec.begin_creation(user=request.user, campaign=campaign,
                                           name=form.cleaned_data["name"])
        except RuleError as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect(next_url)
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


@login_required
@require_POST
def dismiss_notice(request, character_id: int):
    try:
        cooldown_notice_dismiss(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    if request.htmx:
        return render_sheet(request, character_id)
    return redirect("characters:detail", character_id=character_id)


@login_required
@require_GET
def leaderboard_page(request, campaign_id: int):
    try:
        campaign = campaign_get(campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    columns = leaderboard_columns(campaign=campaign)
    order = request.GET.get("order", "kills")
    if order not in {c.key for c in columns}:
        order = "kills"
    template = "campaigns/_leaderboard.html" if request.htmx else "campaigns/leaderboard.html"
    rows = [(c, [(col.key, col.value(c)) for col in columns])
            for c in leaderboard(campaign=campaign, order=order)]
    return render(request, template, {"campaign": campaign, "order": order,
                                      "tabs": leaderboard_tabs(campaign=campaign),
                                      "columns": columns, "rows": rows})
