"""The game master's screen's panels (``/campaigns/<id>/gm/``, characters.gm): what an app
above the characters adds to the screen of a campaign, registered from its
``AppConfig.ready()`` as ``live`` readers are (the encounters register theirs: the campaign's
encounters and their state). The screen shows the characters itself, then each panel in the
order registered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping


@dataclass(frozen=True)
class GmPanel:
    """``key`` names it (registering a key again replaces it); ``template`` the partial the
    screen includes with ``campaign`` and what ``context(user=, campaign=)`` returns (a
    mapping, read in a fixed number of queries)."""

    key: str
    template: str
    context: Callable[..., Mapping[str, Any]]


_PANELS: dict[str, GmPanel] = {}


def register_panel(panel: GmPanel) -> None:
    _PANELS[panel.key] = panel


def panels() -> tuple[GmPanel, ...]:
    return tuple(_PANELS.values())
