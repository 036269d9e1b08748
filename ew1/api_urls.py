"""Eternal War One II's own API routes, under /api/ (registered: ew1.system.SPEC.api_urls,
with the board's, combat.api_urls, and the magic's, magic.api): levels, items and creation
drafts."""

from django.urls import path

from ew1.api import (CharacterItemEquipView, CharacterItemUnequipView, CharacterItemUseView,
                     CharacterLevelUpView, DraftConfirmView, DraftDetailView, DraftListView,
                     DraftRedistributeView, DraftRerollView)

ITEM = "characters/<int:character_id>/items/<int:item_id>"

urlpatterns = [
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
