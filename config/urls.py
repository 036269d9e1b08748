from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", RedirectView.as_view(pattern_name="characters:list", permanent=False), name="home"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("characters/", include("characters.urls")),
    path("characters/", include("combat.urls")),
    path("characters/", include("magic.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("factions/", include("factions.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
]
