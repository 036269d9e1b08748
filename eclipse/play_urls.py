"""The Eclipse Phase actions on the shared encounter (eclipse.play_views), under
"eclipse/encounters/"."""

from django.urls import path

from eclipse import play_views as views
from eclipse import tacnet_views

app_name = "eclipse_play"
urlpatterns = [
    path("<int:encounter_id>/attack/", views.attack, name="attack"),
    path("<int:encounter_id>/odds/", views.odds, name="odds"),
    path("<int:encounter_id>/full-defence/", views.full_defence, name="full_defence"),
    path("<int:encounter_id>/reload/", views.reload, name="reload"),
    path("<int:encounter_id>/stand-up/", views.stand_up, name="stand_up"),
    path("<int:encounter_id>/move/", views.move, name="move"),
    path("<int:encounter_id>/aim/", views.aim, name="aim"),
    path("<int:encounter_id>/other/", views.other, name="other"),
    path("<int:encounter_id>/turn-end/", views.turn_end, name="turn_end"),
    path("<int:encounter_id>/range/", views.range_correct, name="range_correct"),
    path("<int:encounter_id>/suppressive/", views.suppressive, name="suppressive"),
    path("<int:encounter_id>/explode/", views.explode, name="explode"),
    path("<int:encounter_id>/brace/", views.brace, name="brace"),
    path("<int:encounter_id>/escape/", views.escape, name="escape"),
    path("<int:encounter_id>/zone-attack/", views.zone_attack, name="zone_attack"),
    path("<int:encounter_id>/mishap/", views.mishap, name="mishap"),
    path("<int:encounter_id>/gravity/", views.gravity, name="gravity"),
    path("<int:encounter_id>/ambush/", views.ambush, name="ambush"),
    path("<int:encounter_id>/tacnet/create/", tacnet_views.create, name="tacnet_create"),
    path("<int:encounter_id>/tacnet/join/", tacnet_views.join, name="tacnet_join"),
    path("<int:encounter_id>/tacnet/leave/", tacnet_views.leave, name="tacnet_leave"),
    path("<int:encounter_id>/tacnet/perceive/", tacnet_views.perceive, name="tacnet_perceive"),
    path("<int:encounter_id>/tacnet/clear/", tacnet_views.clear, name="tacnet_clear"),
]
