"""The campaign pages, mounted under /campaigns/ by config.urls and named in the ``campaigns``
namespace (as when they were the campaigns app's): the leaderboard, the game master's screen
and its quick actions, the landing after login; making a campaign (campaigns.pages)."""

from django.urls import path

from campaigns import manage_pages, membership_pages, pages
from characters import views

app_name = "campaigns"
urlpatterns = [
    path("", views.campaigns_home, name="home"),
    path("new/", pages.campaign_new, name="new"),
    path("<int:campaign_id>/masters/", pages.masters_page, name="masters"),
    path("<int:campaign_id>/masters/add/", pages.master_add, name="master_add"),
    path("<int:campaign_id>/masters/<int:user_id>/remove/", pages.master_remove,
         name="master_remove"),
    # Players: invitations and requests to join (campaigns.membership_pages)
    path("join/", membership_pages.join_page, name="join"),
    path("join/<slug:code>/", membership_pages.invitation_page, name="invitation"),
    path("join/requests/<int:join_request_id>/withdraw/",
         membership_pages.join_request_withdraw_page, name="join_request_withdraw"),
    path("<int:campaign_id>/join/", membership_pages.join_request_new, name="join_request"),
    path("<int:campaign_id>/members/", membership_pages.members_page, name="members"),
    path("<int:campaign_id>/invitations/new/", membership_pages.invitation_new,
         name="invitation_new"),
    path("<int:campaign_id>/invitations/<int:invitation_id>/revoke/",
         membership_pages.invitation_revoke_page, name="invitation_revoke"),
    path("<int:campaign_id>/join-requests/<int:join_request_id>/accept/",
         membership_pages.join_request_accept, name="join_request_accept"),
    path("<int:campaign_id>/join-requests/<int:join_request_id>/refuse/",
         membership_pages.join_request_refuse, name="join_request_refuse"),
    path("<int:campaign_id>/leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("<int:campaign_id>/gm/", views.gm_screen_page, name="gm"),
    path("<int:campaign_id>/gm/characters/<int:character_id>/<slug:key>/", views.gm_action,
         name="gm_action"),
    # The game master's back office (campaigns.manage_pages): parameters, then the catalogue.
    path("<int:campaign_id>/manage/", manage_pages.manage_home, name="manage"),
    path("<int:campaign_id>/manage/parameters/", manage_pages.parameters_page,
         name="manage_parameters"),
    path("<int:campaign_id>/manage/<slug:kind>/", manage_pages.entry_list, name="manage_list"),
    path("<int:campaign_id>/manage/<slug:kind>/new/", manage_pages.entry_new,
         name="manage_new"),
    path("<int:campaign_id>/manage/<slug:kind>/<int:row_id>/", manage_pages.entry_edit,
         name="manage_edit"),
    path("<int:campaign_id>/manage/<slug:kind>/<int:row_id>/delete/",
         manage_pages.entry_delete, name="manage_delete"),
]
