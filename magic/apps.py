from django.apps import AppConfig


class MagicConfig(AppConfig):
    name = "magic"

    def ready(self) -> None:
        # Magic sits above the board (combat): it plugs its scroll pick-up and its spell panel in.
        from combat import hooks
        from magic.board import pick_up_scroll, spell_panel_context

        hooks.register_after_move(pick_up_scroll)
        hooks.register_board_panel(spell_panel_context)
