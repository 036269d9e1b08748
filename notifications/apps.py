from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    label = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notifications import live

        live.register()  # notify-<user id>: that user's bell
