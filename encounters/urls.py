from django.urls import path

from encounters import views

app_name = "encounters"
E = "<int:encounter_id>"
urlpatterns = [
    path("", views.index, name="index"),
    path("campaign/<int:campaign_id>/", views.campaign_encounters, name="list"),
    path("campaign/<int:campaign_id>/enemy-state/", views.enemy_state, name="enemy_state"),
    path(f"{E}/", views.play, name="play"),
    path(f"{E}/control/", views.control, name="control"),
    path(f"{E}/version/", views.version, name="version"),
    path(f"{E}/events/", views.events, name="events"),
    path(f"{E}/start/", views.start, name="start"),
    path(f"{E}/next/", views.next_turn, name="next"),
    path(f"{E}/delay/", views.delay, name="delay"),
    path(f"{E}/spend-action/", views.spend_action, name="spend_action"),
    path(f"{E}/end/", views.end, name="end"),
    path(f"{E}/add/", views.add, name="add"),
    path(f"{E}/join/", views.join, name="join"),
    path(f"{E}/joining/", views.joining, name="joining"),
    path(f"{E}/order/", views.order, name="order"),
    path(f"{E}/effects/", views.effect, name="effect"),
    path(f"{E}/combatants/<int:combatant_id>/<str:what>/", views.combatant, name="combatant"),
    path(f"{E}/positions/clear/", views.positions_clear, name="positions_clear"),
    path(f"{E}/portrait/", views.portrait, name="portrait"),
    path(f"{E}/background/", views.background, name="background"),
    path(f"{E}/positions/<int:combatant_id>/", views.place, name="place"),
    path(f"{E}/reactions/<int:reaction_id>/answer/", views.answer, name="answer"),
]
