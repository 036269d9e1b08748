"""The pages of a campaign itself (docs/campaigns.md): making one, its game masters. Mounted
under /campaigns/ in the ``campaigns`` namespace by characters.campaign_urls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.errors import CampaignNameTaken, CoreError, NotFound
from campaigns.forms import CampaignCreateForm
from campaigns.messages import error_message
from campaigns.selectors import campaign_masters
from campaigns.services import campaign_create, campaign_master_add, campaign_master_remove

_MAIN = ("name", "description", "rule_system", "is_open", "accepts_requests", "enemy_state")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request):
    """The form (GET: ``?rule_system=`` shows that system's parameters; htmx asks for the
    parameters part alone when the system changes); POST makes the campaign and goes to its
    game master's screen. A posted system whose parameters were not shown shows them, at
    their defaults, and saves nothing."""
    if request.method == "GET":
        form = CampaignCreateForm(initial=_initial(request.GET))
        if request.htmx:
            return render(request, "campaigns/_parameters.html", {"form": form})
        return render(request, "campaigns/new.html", {"form": form})
    form = CampaignCreateForm(request.POST)
    if form.parameters_unseen():
        form = CampaignCreateForm(initial=_initial(request.POST))
        form.unseen = True
        return render(request, "campaigns/new.html", {"form": form})
    if form.is_valid():
        data = form.cleaned_data
        try:
            campaign = campaign_create(
                user=request.user, name=data["name"], rule_system=data["rule_system"],
                rule_parameters=form.instance.rule_parameters, description=data["description"],
                is_open=data["is_open"], accepts_requests=data["accepts_requests"],
                enemy_state=data["enemy_state"])
        except CampaignNameTaken as exc:
            form.add_error("name", error_message(exc))
        else:
            request.session["gm_screens"] = request.session.get("gm_screens", 0) + 1
            return redirect("campaigns:gm", campaign_id=campaign.pk)
    return render(request, "campaigns/new.html", {"form": form}, status=400)


def _initial(data) -> dict:
    """The main fields of ``data`` as a new form's initial values (the parameters left at
    their defaults)."""
    initial = {name: data.get(name) for name in _MAIN if data.get(name) is not None}
    if "is_open" in initial or "name" in data:
        for box in ("is_open", "accepts_requests"):
            initial[box] = data.get(box) in ("on", "true", "1", True)
    return initial



def _masters(request, campaign_id: int, *, error: str = "", done: str = "", status: int = 200):
    try:
        view = campaign_masters(user=request.user, campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    template = "campaigns/_masters.html" if request.htmx else "campaigns/masters.html"
    return render(request, template, {"view": view, "error": error, "done": done},
                  status=status)


@login_required
@require_GET
def masters_page(request, campaign_id: int):
    """The campaign's game master and co-game masters, with the forms to add and remove them
    for its game master (htmx: the part alone). 404 for whoever does not oversee it."""
    return _masters(request, campaign_id)


@login_required
@require_POST
def master_add(request, campaign_id: int):
    """Add the co-game master named ``username`` (the game master only). htmx: the part again,
    with the refusal in words (200, so that htmx swaps it); without htmx: back to the page
    with a message. 404 for whoever does not oversee the campaign."""
    name = request.POST.get("username", "")
    try:
        campaign_master_add(user=request.user, campaign_id=campaign_id, username=name)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    except CoreError as exc:
        return _answer(request, campaign_id, error=error_message(exc))
    return _answer(request, campaign_id, done=_("%(name)s is a co-game master now.")
                   % {"name": name.strip()})


@login_required
@require_POST
def master_remove(request, campaign_id: int, user_id: int):
    """Remove a co-game master (the game master), or step down (the co-GM themself: then
    to their characters, the campaign's pages are no longer theirs). As :func:`master_add`."""
    try:
        campaign_master_remove(user=request.user, campaign_id=campaign_id, master_id=user_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    except CoreError as exc:
        return _answer(request, campaign_id, error=error_message(exc))
    if not _still_oversees(request, campaign_id):  # a co-GM who stepped down
        if request.htmx:
            return HttpResponse(headers={"HX-Redirect": reverse("characters:list")})
        return redirect("characters:list")
    return _answer(request, campaign_id, done=_("Co-game master removed."))


def _still_oversees(request, campaign_id: int) -> bool:
    try:
        campaign_masters(user=request.user, campaign_id=campaign_id)
    except NotFound:
        return False
    return True


def _answer(request, campaign_id: int, *, error: str = "", done: str = ""):
    if request.htmx:
        return _masters(request, campaign_id, error=error, done=done)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, done)
    return redirect("campaigns:masters", campaign_id=campaign_id)
