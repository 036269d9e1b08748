from django.urls import path

from homebrew import views

app_name = "homebrew"
urlpatterns = [
    path("campaigns/<int:campaign_id>/new/", views.create, name="create"),
    path("campaigns/<int:campaign_id>/rest/", views.rest, name="rest"),
    path("characters/<int:character_id>/", views.sheet, name="sheet"),
    path("characters/<int:character_id>/test/", views.test, name="test"),
]
