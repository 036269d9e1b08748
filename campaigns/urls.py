from django.urls import path

from campaigns import views

app_name = "live"
urlpatterns = [
    path("", views.events, name="events"),
]
