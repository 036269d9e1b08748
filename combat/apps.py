from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"

    def ready(self):
        from campaigns import journal, live
        from combat import live as board_topic
        from combat.services import JOURNAL_KINDS
        from ew1.system import SPEC

        live.register(board_topic.KIND, board_topic.can_read)
        journal.register_kinds(*JOURNAL_KINDS, system=SPEC.code)
