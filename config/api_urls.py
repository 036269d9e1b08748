"""The REST API, mounted at /api/. The OpenAPI schema is at /api/schema/; there is no docs page
because drf-spectacular's Redoc and Swagger views load their JavaScript from a CDN."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from campaigns.api import CampaignListView
from characters.api import CharacterDetailView, CharacterListView
from combat.api import CharacterAttackView, CharacterBoardView, CharacterMoveView

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("campaigns/", CampaignListView.as_view(), name="api-campaigns"),
    path("characters/", CharacterListView.as_view(), name="api-characters"),
    path("characters/<int:character_id>/", CharacterDetailView.as_view(),
         name="api-character"),
    path("characters/<int:character_id>/board/", CharacterBoardView.as_view(),
         name="api-character-board"),
    path("characters/<int:character_id>/move/", CharacterMoveView.as_view(),
         name="api-character-move"),
    path("characters/<int:character_id>/attack/", CharacterAttackView.as_view(),
         name="api-character-attack"),
]
