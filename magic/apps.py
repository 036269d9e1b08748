from django.apps import AppConfig


class MagicConfig(AppConfig):
    name = "magic"

    def ready(self) -> None:
        # Magic sits above the board (combat): it plugs its scroll pick-up and its spell panel in.
        from campaigns import journal
        from combat import hooks
        from ew1.system import SPEC
        from magic.board import pick_up_scroll, spell_panel_context

        # cast (magic.casting), learn and decline (magic.spellbook): templates/ew1/_log_entry.html
        journal.register_kinds("cast", "learn", "decline", system=SPEC.code)

        hooks.register_after_move(pick_up_scroll)
        hooks.register_board_panel(spell_panel_context)
        from magic import catalogue
        catalogue.register()  # the GM's back office: the spells (campaigns.catalogue)
