from django.urls import path

from notifications import views

app_name = "notifications"
urlpatterns = [
    path("", views.index, name="index"),
    path("bell/", views.bell, name="bell"),
    path("seen/", views.seen_all, name="seen-all"),
    path("<int:notification_id>/seen/", views.seen, name="seen"),
    path("settings/", views.preferences, name="settings"),
]
