"""The pages of a campaign itself (docs/campaigns.md): making one. Mounted under /campaigns/
in the ``campaigns`` namespace by characters.campaign_urls."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.errors import CampaignNameTaken
from campaigns.forms import CampaignCreateForm
from campaigns.messages import error_message
from campaigns.services import campaign_create

_MAIN = ("name", "description", "rule_system", "is_open", "enemy_state")


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
                is_open=data["is_open"], enemy_state=data["enemy_state"])
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
        initial["is_open"] = data.get("is_open") in ("on", "true", "1", True)
    return initial

