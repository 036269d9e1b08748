from django.urls import path

from magic import views

app_name = "magic"
urlpatterns = [
    path("<int:character_id>/spells/", views.spells_page, name="spells"),
    path("<int:character_id>/cast/", views.cast, name="cast"),
]
