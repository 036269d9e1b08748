from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    label = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from campaigns import journal
        from chat import live
        from chat.services import KIND_ROLL

        live.register()  # chat-<campaign>, encounterchat-<encounter>, whisper-<user>
        journal.register_kinds(KIND_ROLL)  # a free roll, whatever the system
