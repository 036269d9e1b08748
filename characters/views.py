from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import rule_systems
from campaigns.errors import NotFound
from campaigns.messages import error_message
from campaigns.selectors import campaign_get, campaigns_overseen
from characters.forms import CharacterCreateForm
from characters.gm import gm_action_run, gm_row, gm_screen
from characters.leaderboard import leaderboard, leaderboard_columns, leaderboard_tabs
from characters.pages import render_sheet
from characters.selectors import character_sheet, characters_now
from characters.services import cooldown_notice_dismiss
from gamerules.errors import RuleError


@login_required
@require_http_methods(["GET", "POST"])
def character_list(request):
    form = CharacterCreateForm(request.POST or None, user=request.user)
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
    steps = [(spec.name, spec.creation_steps) for spec in rule_systems.registered()
             if spec.begin_creation is not None and spec.creation_steps]
    return render(request, "characters/list.html",
                  {"characters": characters_now(user=request.user), "form": form,
                   "creation_steps": steps})


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


# --- the game master's screen (characters.gm) -----------------------------------------------

@login_required
@require_GET
def campaigns_home(request):
    """Where a login lands (LOGIN_REDIRECT_URL): the game master of one campaign goes to its
    screen, of several to the list of their screens; anyone else to their characters. The
    session remembers whether to show the navigation's "Game master" link (no query per page)."""
    campaigns = list(campaigns_overseen(user=request.user))
    request.session["gm_screens"] = len(campaigns)
    if not campaigns:
        return redirect("characters:list")
    if len(campaigns) == 1:
        return redirect("campaigns:gm", campaign_id=campaigns[0].pk)
    return render(request, "campaigns/gm_list.html", {"campaigns": campaigns})


@login_required
@require_GET
def gm_screen_page(request, campaign_id: int):
    """The game master's screen: every player character's gauges, conditions and quick
    actions, the encounters with their state, the system's steps, links to the admin. 404 for
    whoever does not oversee the campaign."""
    try:
        screen = gm_screen(user=request.user, campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    return render(request, "campaigns/gm.html", {"screen": screen})


@login_required
@require_POST
def gm_action(request, campaign_id: int, character_id: int, key: str):
    """One quick action on one character (htmx: the row again, with the refusal in words or
    what was done, 200 either way so that htmx swaps it; without htmx: back to the screen with
    a message). 404 for whoever does not
    oversee the campaign, a character not of it, an unknown action."""
    error: str | None = None
    done = ""
    try:
        done = gm_action_run(user=request.user, campaign_id=campaign_id,
                             character_id=character_id, key=key, data=request.POST)
    except NotFound:
        raise Http404(_("No such character.")) from None
    except RuleError as exc:
        error = error_message(exc)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, done)
        return redirect("campaigns:gm", campaign_id=campaign_id)
    try:
        screen = gm_row(user=request.user, campaign_id=campaign_id, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    return render(request, "campaigns/_gm_row.html",
                  {"screen": screen, "row": screen.rows[0], "error": error, "done": done})
