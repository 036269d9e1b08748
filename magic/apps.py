from django.apps import AppConfig


class MagicConfig(AppConfig):
    name = "magic"
