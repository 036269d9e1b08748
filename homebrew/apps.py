from django.apps import AppConfig


class HomebrewConfig(AppConfig):
    name = "homebrew"
    label = "homebrew"
    verbose_name = "Homebrew d100"

    def ready(self) -> None:
        from campaigns import journal, rule_systems
        from homebrew import encounter, play
        from homebrew.system import JOURNAL_KINDS, SPEC

        rule_systems.register(SPEC)
        journal.register_kinds(*JOURNAL_KINDS, system=SPEC.code)
        encounter.register()  # the reaction resolver, once the encounters app is installed
        play.register()  # the rolled initiative and the actions on the encounter's page
        from encounters import hooks
        from homebrew import prompt
        hooks.register_prompt(encounter.RESOLVER, prompt.prompt_details)  # the prompt's card
        from homebrew import glance
        glance.register()  # the state at a glance: the roster, the map, the API
        from homebrew import catalogue
        catalogue.register()  # the GM's back office: weapons and spells (campaigns.catalogue)
