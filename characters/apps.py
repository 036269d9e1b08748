from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self):
        from campaigns import live
        from characters import live as character_topic

        live.register(character_topic.KIND, character_topic.can_read)
