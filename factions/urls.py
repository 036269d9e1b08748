from django.urls import path

from factions import views

app_name = "factions"
urlpatterns = [
    path("", views.index, name="index"),
    path("pending/count/", views.pending_count_badge, name="pending-count"),
    path("campaign/<int:campaign_id>/", views.faction_list, name="list"),
    path("<int:faction_id>/", views.faction_detail, name="detail"),
    path("<int:faction_id>/manage/", views.faction_manage_page, name="manage"),
    path("<int:faction_id>/join/", views.join, name="join"),
    path("<int:faction_id>/leave/", views.leave, name="leave"),
    path("<int:faction_id>/invite/", views.invite, name="invite"),
    path("<int:faction_id>/remove/", views.remove, name="remove"),
    path("<int:faction_id>/transfer/", views.transfer, name="transfer"),
    path("<int:faction_id>/dissolve/", views.dissolve, name="dissolve"),
    path("<int:faction_id>/requests/<int:request_id>/answer/", views.request_answer,
         name="answer"),
    path("<int:faction_id>/requests/<int:request_id>/withdraw/", views.request_withdraw,
         name="withdraw"),
]
