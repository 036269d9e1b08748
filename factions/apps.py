from django.apps import AppConfig


class FactionsConfig(AppConfig):
    name = "factions"

    def ready(self) -> None:
        from campaigns import journal
        from factions import live
        from factions.services import JOURNAL_KINDS

        journal.register_kinds(*JOURNAL_KINDS)  # every system: templates/campaigns/_log_entry.html
        live.register()  # faction-<id>, factions-<campaign id>, user-<id>
