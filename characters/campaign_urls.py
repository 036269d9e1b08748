"""The campaign pages that rank characters, mounted under /campaigns/ by config.urls and named in
the ``campaigns`` namespace (as when they were the campaigns app's)."""

from django.urls import path

from characters import views

app_name = "campaigns"
urlpatterns = [
    path("<int:campaign_id>/leaderboard/", views.leaderboard_page, name="leaderboard"),
]
