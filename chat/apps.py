from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    label = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from campaigns import journal
        from characters.selectors import register_private_entries
        from chat import live
        from chat.services import KIND_ROLL, without_private_rolls

        live.register()  # chat-<campaign>, encounterchat-<encounter>, whisper-<user>
        journal.register_kinds(KIND_ROLL)  # a free roll, whatever the system
        register_private_entries(without_private_rolls)  # the journal API: a whisper's rolls
