from django.apps import AppConfig


class EternalWarConfig(AppConfig):
    name = "ew1"
    label = "ew1"
    verbose_name = "Eternal War One II"

    def ready(self) -> None:
        from campaigns import journal, rule_systems
        from ew1.system import JOURNAL_KINDS, SPEC

        rule_systems.register(SPEC)
        journal.register_kinds(*JOURNAL_KINDS, system=SPEC.code)
        from ew1 import catalogue
        catalogue.register()  # the GM's back office: the items (campaigns.catalogue)
