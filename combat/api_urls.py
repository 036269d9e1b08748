"""The board's API routes (Eternal War One II), under /api/ (registered with ew1.system.SPEC's
api_urls): the board, moves, attacks, the game's end and reincarnation."""

from django.urls import path

from combat.api import (CharacterAttackView, CharacterBoardView, CharacterGameView,
                        CharacterMoveToView, CharacterMoveView, CharacterReincarnateView,
                        CharacterSuicideView)

urlpatterns = [
    path("characters/<int:character_id>/board/", CharacterBoardView.as_view(),
         name="api-character-board"),
    path("characters/<int:character_id>/move/", CharacterMoveView.as_view(),
         name="api-character-move"),
    path("characters/<int:character_id>/move-to/", CharacterMoveToView.as_view(),
         name="api-character-move-to"),
    path("characters/<int:character_id>/attack/", CharacterAttackView.as_view(),
         name="api-character-attack"),
    path("characters/<int:character_id>/game/", CharacterGameView.as_view(),
         name="api-character-game"),
    path("characters/<int:character_id>/suicide/", CharacterSuicideView.as_view(),
         name="api-character-suicide"),
    path("characters/<int:character_id>/reincarnate/", CharacterReincarnateView.as_view(),
         name="api-character-reincarnate"),
]
