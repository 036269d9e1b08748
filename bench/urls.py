"""The app's URLs and ``/bench/bare``: the yardstick of the load run, a view that runs one ORM
query (a campaign's id and name) and renders no template, through the same middleware as every
page."""

from django.http import JsonResponse
from django.urls import path

from campaigns.models import Campaign
from config.urls import urlpatterns as app_urlpatterns


def bare(request):
    return JsonResponse({"first": Campaign.objects.order_by("pk").values("pk", "name").first()})


urlpatterns = [path("bench/bare", bare), *app_urlpatterns]
