"""Catalogue rows from spreadsheets (CSV, XLSX) through django-import-export: the base every
system's resource (items, spells, templates: ``<app>/resources.py``) extends, used by their
admins and by the game master's import page (transfer.views, docs/export.md).

A row is matched by its campaign (by name) and its name: an existing row is updated, a new one
made. Every instance goes through the model's ``full_clean`` (``clean_model_instances``) before
anything is saved, and the import is one transaction that rolls back on any row's error: what
the rules refuse is never saved. For the game master's page, ``campaign=`` fixes the campaign
of every row (its column ignored) so that no row reaches another campaign."""

from __future__ import annotations

from django.db import models
from import_export import fields, resources, widgets
from import_export.admin import ImportExportMixin

from campaigns.models import Campaign

from campaigns.permissions import is_active_superuser


class CatalogueResource(resources.ModelResource):
    campaign = fields.Field(attribute="campaign", column_name="campaign",
                            widget=widgets.ForeignKeyWidget(Campaign, field="name"))

    def __init__(self, *, campaign: Campaign | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fixed_campaign = campaign

    def before_import_row(self, row, **kwargs) -> None:
        """The page's campaign on every row; an empty cell of a text column (a spreadsheet's
        None) is the empty text the model stores."""
        if self.fixed_campaign is not None:
            row["campaign"] = self.fixed_campaign.name
        for f in self._meta.model._meta.concrete_fields:
            if isinstance(f, models.CharField | models.TextField) and not f.null \
                    and f.name in row and row[f.name] is None:
                row[f.name] = ""

    def get_export_queryset(self, request=None, **kwargs):
        queryset = super().get_export_queryset(request, **kwargs) if request is not None else \
            self._meta.model.objects.all()
        if self.fixed_campaign is not None:
            queryset = queryset.filter(campaign=self.fixed_campaign)
        return queryset

    class Meta:
        import_id_fields = ("campaign", "name")
        exclude = ("id",)
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = False
        use_transactions = True


class CatalogueAdminMixin(ImportExportMixin):
    """Import and export buttons in a catalogue model's admin, for superusers only: a spreadsheet
    names its rows' campaigns, which a game master scoped to their own campaigns must not reach;
    they import from their campaign's page instead (transfer.views.catalogue_import_page)."""

    def has_import_permission(self, request) -> bool:
        return is_active_superuser(request.user)

    def has_export_permission(self, request) -> bool:
        return is_active_superuser(request.user)
