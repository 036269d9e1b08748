"""The export and import pages, mounted under /campaigns/ by config.urls (``transfer``)."""

from django.urls import path

from transfer import views

app_name = "transfer"
urlpatterns = [
    path("<int:campaign_id>/export/", views.export_download, name="export"),
    path("<int:campaign_id>/import/", views.import_page, name="import"),
    path("<int:campaign_id>/manage/import/<slug:kind>/", views.catalogue_import_page,
         name="catalogue_import"),
]
