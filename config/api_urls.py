"""The REST API, mounted at /api/. The OpenAPI schema is at /api/schema/, its Swagger UI page at
/api/docs/ (the JavaScript and CSS come from drf-spectacular-sidecar, served as our own static
files: no CDN)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from characters.api import (CampaignListView, CharacterDetailView, CharacterListView,
                            LeaderboardView)
from combat.api import (CharacterAttackView, CharacterBoardView, CharacterGameView,
                        CharacterMoveView, CharacterReincarnateView, CharacterSuicideView)
from config.api import ApiDocsView
from ew1.api import (CharacterItemEquipView, CharacterItemUnequipView, CharacterItemUseView,
                     CharacterLevelUpView, DraftConfirmView, DraftDetailView, DraftListView,
                     DraftRedistributeView, DraftRerollView)

ITEM = "characters/<int:character_id>/items/<int:item_id>"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("factions.api")),
    path("", include("magic.api")),
    path("", include("encounters.api")),

    path("", include("homebrew.api")),
    path("", include("eclipse.api")),
    path("", include("eclipse.play_api")),
    path("", include("eclipse.tacnet_api")),
    path("campaigns/", CampaignListView.as_view(), name="api-campaigns"),
    path("characters/", CharacterListView.as_view(), name="api-characters"),
    path("characters/<int:character_id>/", CharacterDetailView.as_view(),
         name="api-character"),
    path("characters/<int:character_id>/board/", CharacterBoardView.as_view(),
         name="api-character-board"),
    path("characters/<int:character_id>/move/", CharacterMoveView.as_view(),
         name="api-character-move"),
    path("campaigns/<int:campaign_id>/leaderboard/", LeaderboardView.as_view(),
         name="api-campaign-leaderboard"),
    path("characters/<int:character_id>/attack/", CharacterAttackView.as_view(),
         name="api-character-attack"),
    path("characters/<int:character_id>/game/", CharacterGameView.as_view(),
         name="api-character-game"),
    path("characters/<int:character_id>/suicide/", CharacterSuicideView.as_view(),
         name="api-character-suicide"),
    path("characters/<int:character_id>/reincarnate/", CharacterReincarnateView.as_view(),
         name="api-character-reincarnate"),
    path("characters/<int:character_id>/level-up/", CharacterLevelUpView.as_view(),
         name="api-character-level-up"),
    path(f"{ITEM}/equip/", CharacterItemEquipView.as_view(), name="api-item-equip"),
    path(f"{ITEM}/unequip/", CharacterItemUnequipView.as_view(), name="api-item-unequip"),
    path(f"{ITEM}/use/", CharacterItemUseView.as_view(), name="api-item-use"),
    path("drafts/", DraftListView.as_view(), name="api-drafts"),
    path("drafts/<int:draft_id>/", DraftDetailView.as_view(), name="api-draft"),
    path("drafts/<int:draft_id>/reroll/", DraftRerollView.as_view(), name="api-draft-reroll"),
    path("drafts/<int:draft_id>/redistribute/", DraftRedistributeView.as_view(),
         name="api-draft-redistribute"),
    path("drafts/<int:draft_id>/confirm/", DraftConfirmView.as_view(),
         name="api-draft-confirm"),
]
