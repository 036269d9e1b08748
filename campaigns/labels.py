"""Translated names for the codes the game stores (skills, roll labels, move directions).

The codes stay English and stable (the database, the API and the test ids use them); templates
show ``label(kind, code)`` through the ``game_labels`` filters. The move directions are the
core's; skills, rolls and the like are each rule system's (``RuleSystemSpec.labels``). An unknown
code shows as it is.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from campaigns import rule_systems

DIRECTIONS = {
    "n": pgettext_lazy("direction", "north"),
    "ne": pgettext_lazy("direction", "north-east"),
    "e": pgettext_lazy("direction", "east"),
    "se": pgettext_lazy("direction", "south-east"),
    "s": pgettext_lazy("direction", "south"),
    "sw": pgettext_lazy("direction", "south-west"),
    "w": pgettext_lazy("direction", "west"),
    "nw": pgettext_lazy("direction", "north-west"),
}

KINDS = {"direction": DIRECTIONS}


def label(kind: str, code) -> str:
    """The translated name of ``code`` among ``kind`` ("skill", "roll", "direction",
    "reduction"...: the core's kinds, then the registered systems'), or ``code`` itself."""
    name = KINDS.get(kind, {}).get(code)
    if name is None:
        name = rule_systems.label(kind, code)
    return str(name) if name is not None else str(code)
