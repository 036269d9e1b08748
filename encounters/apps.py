from django.apps import AppConfig


class EncountersConfig(AppConfig):
    name = "encounters"
    verbose_name = "Encounters"

    def ready(self):
        from campaigns import gm, journal, live, rule_systems
        from encounters import push
        from encounters.gm import PANEL
        from encounters.selectors import can_read_topic
        from encounters.services import JOURNAL_KINDS

        live.register(push.KIND, can_read_topic)
        from characters.selectors import register_entry_redactor, register_hidden_entries
        from encounters.glance import sheet_log_for
        from encounters.visibility import hidden_sheet_entries

        register_hidden_entries(hidden_sheet_entries)  # a player's sheet: no hidden attacker
        register_entry_redactor(sheet_log_for)  # nor an enemy's exact state (enemy_state)
        gm.register_panel(PANEL)  # the game master's screen lists the encounters
        # every system playing encounters: templates/campaigns/_log_entry.html
        journal.register_kinds(*JOURNAL_KINDS, play_mode=rule_systems.ENCOUNTER)
