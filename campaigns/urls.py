from django.urls import path

from campaigns import views

app_name = "campaigns"
urlpatterns = [
    path("<int:campaign_id>/leaderboard/", views.leaderboard_page, name="leaderboard"),
]
