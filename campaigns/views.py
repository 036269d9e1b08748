from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from campaigns.errors import NotFound
from campaigns.selectors import campaign_get, leaderboard, leaderboard_columns, leaderboard_tabs


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
