from django.urls import path

from homebrew import views

app_name = "homebrew"
urlpatterns = [
    path("campaigns/<int:campaign_id>/new/", views.create, name="create"),
    path("campaigns/<int:campaign_id>/rest/", views.rest, name="rest"),
    path("characters/<int:character_id>/", views.sheet, name="sheet"),
    path("characters/<int:character_id>/test/", views.test, name="test"),
    path("encounters/<int:encounter_id>/attack/", views.encounter_attack,
         name="encounter_attack"),
    path("encounters/<int:encounter_id>/posture/", views.encounter_posture,
         name="encounter_posture"),
    path("encounters/<int:encounter_id>/other/", views.encounter_other, name="encounter_other"),
]
