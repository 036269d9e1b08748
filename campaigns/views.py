from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from campaigns.errors import NotFound
from campaigns.selectors import LEADERBOARD_ORDERS, campaign_get, leaderboard


@login_required
@require_GET
def leaderboard_page(request, campaign_id: int):
    try:
        campaign = campaign_get(campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    order = request.GET.get("order", "kills")
    if order not in LEADERBOARD_ORDERS:
        order = "kills"
    template = "campaigns/_leaderboard.html" if request.htmx else "campaigns/leaderboard.html"
    columns = [("level", _("Level")), ("kills", _("Kills")), ("deaths", _("Deaths")),
               ("attacks", _("Attacks")), ("dodges", _("Dodges"))]
    return render(request, template, {"campaign": campaign, "order": order,
                                      "orders": list(LEADERBOARD_ORDERS), "columns": columns,
                                      "rows": leaderboard(campaign=campaign, order=order)})
