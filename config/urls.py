from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.decorators.http import require_safe
from django.views.static import serve

from campaigns.rule_systems import url_patterns
from config.health import healthz


def favicon(request):
    """Browsers ask for /favicon.ico when a page (an admin page, an API answer) names none. A
    temporary redirect: the static URL carries the file's hash, which changes with it."""
    return HttpResponseRedirect(static("favicon.svg"))


@require_safe
def media(request, path: str):
    """The uploaded pictures (campaigns.images) when Django serves them (SERVE_MEDIA: with
    DEBUG, and in the tests); in production the web server does (docs/deploy.md)."""
    if not settings.SERVE_MEDIA:
        raise Http404()
    return serve(request, path, document_root=settings.MEDIA_ROOT)


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", RedirectView.as_view(pattern_name="characters:list", permanent=False), name="home"),
    path("favicon.ico", favicon),
    path("media/<path:path>", media),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("characters/", include("characters.urls")),
    path("campaigns/", include("characters.campaign_urls")),
    path("campaigns/", include("transfer.urls")),
    path("factions/", include("factions.urls")),
    path("encounters/", include("encounters.urls")),
    path("chat/", include("chat.urls")),
    path("notifications/", include("notifications.urls")),
    path("live/", include("campaigns.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    # Each rule system's own pages, from its registration (RuleSystemSpec.urls).
    *url_patterns(),
]

# Under /api/, a missing URL and a crash answer JSON {code, detail} like every API error; the
# database failing outside the views (a middleware, the session's save) answers 503 as in them.
handler400 = "config.api.bad_request"
handler404 = "config.api.not_found"
handler500 = "config.api.server_error"
