from django.apps import AppConfig


class TransferConfig(AppConfig):
    """Campaigns out and in (a versioned JSON document), spreadsheets of catalogue rows in, the
    whole install's backup and restore (docs/export.md)."""

    name = "transfer"
    verbose_name = "Export and import"
