from django.urls import path

from chat import views

app_name = "chat"
urlpatterns = [
    path("", views.index, name="index"),
    path("campaigns/<int:campaign_id>/", views.campaign_chat, name="campaign"),
    path("encounters/<int:encounter_id>/", views.encounter_chat, name="encounter"),
    path("messages/<int:message_id>/delete/", views.message_delete, name="delete"),
    path("entries/<int:entry_id>/share/", views.entry_share, name="share"),
]
