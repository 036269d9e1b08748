from django.apps import AppConfig


class EternalWarConfig(AppConfig):
    name = "ew1"
    label = "ew1"
    verbose_name = "Eternal War One II"

    def ready(self) -> None:
        from campaigns import rule_systems
        from ew1.system import SPEC

        rule_systems.register(SPEC)
