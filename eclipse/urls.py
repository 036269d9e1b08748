from django.urls import path

from eclipse import views

app_name = "eclipse"
urlpatterns = [
    path("campaigns/<int:campaign_id>/new/", views.create, name="create"),
    path("characters/<int:character_id>/", views.sheet, name="sheet"),
    path("characters/<int:character_id>/resleeve/", views.resleeve, name="resleeve"),
    path("characters/<int:character_id>/weapons/", views.weapon_equip, name="weapon_equip"),
    path("characters/<int:character_id>/weapons/drop/", views.weapon_unequip,
         name="weapon_unequip"),
    path("characters/<int:character_id>/armour/", views.armour_wear, name="armour_wear"),
    path("characters/<int:character_id>/armour/remove/", views.armour_remove,
         name="armour_remove"),
    path("characters/<int:character_id>/heal/", views.heal, name="heal"),
    path("characters/<int:character_id>/recover/", views.recover, name="recover"),
    path("characters/<int:character_id>/stress/", views.stress, name="stress"),
    path("characters/<int:character_id>/derangement/", views.derangement, name="derangement"),
    path("characters/<int:character_id>/moxie/", views.moxie, name="moxie"),
]
