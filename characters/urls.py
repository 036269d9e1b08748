from django.urls import path

from characters import creation_views, play_views, views

app_name = "characters"
urlpatterns = [
    path("", views.character_list, name="list"),
    path("<int:character_id>/", views.character_detail, name="detail"),
    path("<int:character_id>/level-up/", play_views.level_up, name="level-up"),
    path("<int:character_id>/items/<int:item_id>/equip/", play_views.equip, name="equip"),
    path("<int:character_id>/items/<int:item_id>/unequip/", play_views.unequip, name="unequip"),
    path("<int:character_id>/items/<int:item_id>/use/", play_views.use, name="use"),
    path("<int:character_id>/suicide/", play_views.suicide, name="suicide"),
    path("<int:character_id>/reincarnate/", play_views.reincarnate, name="reincarnate"),
    path("<int:character_id>/notice/dismiss/", play_views.dismiss_notice, name="dismiss-notice"),
    path("drafts/<int:draft_id>/", creation_views.draft_detail, name="draft"),
    path("drafts/<int:draft_id>/reroll/", creation_views.draft_reroll_view, name="draft-reroll"),
    path("drafts/<int:draft_id>/redistribute/", creation_views.draft_redistribute_view,
         name="draft-redistribute"),
    path("drafts/<int:draft_id>/confirm/", creation_views.draft_confirm_view,
         name="draft-confirm"),
]
