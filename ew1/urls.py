"""Eternal War One II's pages, mounted under /characters/ by config.urls (the paths they had
in characters.urls), named in the ``ew1`` namespace."""

from django.urls import path

from ew1 import views

app_name = "ew1"
urlpatterns = [
    path("<int:character_id>/level-up/", views.level_up, name="level-up"),
    path("<int:character_id>/items/<int:item_id>/equip/", views.equip, name="equip"),
    path("<int:character_id>/items/<int:item_id>/unequip/", views.unequip, name="unequip"),
    path("<int:character_id>/items/<int:item_id>/use/", views.use, name="use"),
    path("drafts/<int:draft_id>/", views.draft_detail, name="draft"),
    path("drafts/<int:draft_id>/reroll/", views.draft_reroll_view, name="draft-reroll"),
    path("drafts/<int:draft_id>/redistribute/", views.draft_redistribute_view,
         name="draft-redistribute"),
    path("drafts/<int:draft_id>/confirm/", views.draft_confirm_view, name="draft-confirm"),
]
