from django.apps import AppConfig
from django.contrib.admin.apps import AdminConfig


class PercentileAdminConfig(AdminConfig):
    """Django's admin on Percentile's site: staff, and game masters scoped to their campaigns
    (campaigns.admin_scope)."""

    default_site = "campaigns.admin_scope.PercentileAdminSite"


class PercentileConfig(AppConfig):
    """Start-up guards of the whole project (no models)."""

    name = "config"
    label = "percentile"
    verbose_name = "Percentile"

    def ready(self):
        from django.conf import settings

        from config.secrets import refuse_public_secret_key

        refuse_public_secret_key(debug=settings.DEBUG, secret_key=settings.SECRET_KEY)
