from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self):
        from django.contrib.admin.models import LogEntry
        from django.db.models.signals import post_save

        from campaigns.versions import bump_on_admin_edit

        post_save.connect(bump_on_admin_edit, sender=LogEntry, dispatch_uid="versions-admin")
