"""What an app above the board plugs into it, so that the board names none of them (magic sits
above combat: its scrolls lie on the board and its spells are cast from it).

An app registers from its ``AppConfig.ready()`` (magic.apps does)::

    from combat import hooks
    hooks.register_after_move(pick_up_scroll)
    hooks.register_board_panel(spell_panel_context)

- An **after-move** hook is ``fn(character, now, path) -> dict``: called inside the move's
  transaction once the player's piece stands on its new cell (a creature's move calls none),
  before the move is journaled; ``path`` is the cells walked over, in order, the new cell last
  (one cell for a step of the pad); what it returns is added to the move's journal summary
  (magic: ``{"scroll": name}`` when a scroll was picked up, ``{}`` otherwise).
- A **board panel** is ``fn(user, character, pieces) -> dict``: the extra context of the board page
  (``pieces``: the character and the pieces in view, as ``board_view`` loaded them; magic:
  ``{"spells": [...]}``, the panel ``templates/combat/_board.html`` shows).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from collections.abc import Callable, Sequence

AfterMove = Callable[[Any, datetime, Sequence[tuple[int, int]]], dict[str, Any]]
BoardPanel = Callable[[Any, Any, list[Any]], dict[str, Any]]

_after_move: list[AfterMove] = []
_board_panels: list[BoardPanel] = []


def register_after_move(hook: AfterMove) -> None:
    if hook not in _after_move:  # ready() may run twice (tests, autoreload)
        _after_move.append(hook)


def register_board_panel(panel: BoardPanel) -> None:
    if panel not in _board_panels:
        _board_panels.append(panel)


def after_move(character: Any, now: datetime, path: Sequence[tuple[int, int]] | None = None
               ) -> dict[str, Any]:
    """What the registered after-move hooks add to the move's summary, merged in order.
    ``path``: the cells walked over (None: the character's cell alone)."""
    cells = tuple(path) if path is not None else (character.cell,)
    extra: dict[str, Any] = {}
    for hook in _after_move:
        extra.update(hook(character, now, cells))
    return extra


def board_panels(user: Any, character: Any, pieces: list[Any]) -> dict[str, Any]:
    """The board page's extra context from the registered panels, merged in order."""
    extra: dict[str, Any] = {}
    for panel in _board_panels:
        extra.update(panel(user, character, pieces))
    return extra
