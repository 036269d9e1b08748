from django.apps import AppConfig


class EclipseConfig(AppConfig):
    name = "eclipse"
    label = "eclipse"
    verbose_name = "Eclipse Phase"

    def ready(self) -> None:
        from campaigns import journal, rule_systems
        from eclipse import encounter
        from eclipse.system import JOURNAL_KINDS, SPEC

        rule_systems.register(SPEC)
        journal.register_kinds(*JOURNAL_KINDS, system=SPEC.code)
        encounter.register()  # the initiative and SPD turns, once the encounters app is installed
        from eclipse import turn_hooks
        turn_hooks.register()  # the actions in turn, the defence resolver, the actions partial
        from eclipse import defence, prompt
        from encounters import hooks
        hooks.register_prompt(defence.RESOLVER, prompt.prompt_details)  # the prompt's card
        from eclipse import glance
        glance.register()  # the state at a glance: the roster, the map, the API
        from eclipse import catalogue
        catalogue.register()  # the GM's back office: the templates (campaigns.catalogue)
