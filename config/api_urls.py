"""The REST API, mounted at /api/. The OpenAPI schema is at /api/schema/, its Swagger UI page at
/api/docs/ (the JavaScript and CSS come from drf-spectacular-sidecar, served as our own static
files: no CDN). Each rule system's routes come from its registration (RuleSystemSpec.api_urls)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from campaigns.rule_systems import api_url_patterns
from characters.api import CampaignListView, CharacterDetailView, CharacterListView, LeaderboardView
from config.api import ApiDocsView

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("factions.api")),
    path("", include("encounters.api")),
    path("", include("chat.api")),
    path("campaigns/", CampaignListView.as_view(), name="api-campaigns"),
    path("characters/", CharacterListView.as_view(), name="api-characters"),
    path("characters/<int:character_id>/", CharacterDetailView.as_view(),
         name="api-character"),
    path("campaigns/<int:campaign_id>/leaderboard/", LeaderboardView.as_view(),
         name="api-campaign-leaderboard"),
    *api_url_patterns(),
]
