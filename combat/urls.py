from django.urls import path

from combat import views

app_name = "combat"
urlpatterns = [
    path("<int:character_id>/board/", views.board, name="board"),
    path("<int:character_id>/move/", views.move, name="move"),
    path("<int:character_id>/move-to/", views.move_to, name="move_to"),
    path("<int:character_id>/board/piece/", views.piece, name="piece"),
    path("<int:character_id>/attack/", views.attack, name="attack"),
    path("<int:character_id>/game/", views.game, name="game"),
    path("<int:character_id>/suicide/", views.suicide, name="suicide"),
    path("<int:character_id>/reincarnate/", views.reincarnate, name="reincarnate"),
]
