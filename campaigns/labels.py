"""Translated names for the codes the game stores (skills, roll labels, move directions).

The codes stay English and stable (the database, the API and the test ids use them); templates
show ``label(kind, code)`` through the ``game_labels`` filters. The move directions are the
core's; skills, rolls and the like are each rule system's (``RuleSystemSpec.labels``). An unknown
code shows as it is.

A code made of parts ("kinetic_weapons (Moxie flip 45 -> 54)", "faction (3 allies)") is named
by the system's patterns: the kind ``"<kind>_patterns"`` maps a regular expression (matched
whole) to a lazy template of its named groups; a group named ``code`` is itself named as a
``kind``. A journal's modifier ({"label", "value", "source"}) is named by ``modifier_name``.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Mapping

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
    name = _named(kind, code)
    return name if name is not None else str(code)


def _named(kind: str, code) -> str | None:
    name = KINDS.get(kind, {}).get(code)
    if name is None:
        name = rule_systems.label(kind, code)
    if name is None and isinstance(code, str):
        return _patterned(kind, code)
    return str(name) if name is not None else None


def _patterned(kind: str, code: str) -> str | None:
    """``code`` named by the first of the systems' ``<kind>_patterns`` it matches, or None."""
    for spec in rule_systems.registered():
        for pattern, template in spec.labels.get(f"{kind}_patterns", {}).items():
            found = re.fullmatch(pattern, code)
            if found is not None:
                parts = {k: (label(kind, v) if k == "code" else v)
                         for k, v in found.groupdict().items()}
                return str(template) % parts
    return None


def modifier_name(modifier: Mapping[str, Any]) -> str:
    """A stored modifier's name in the reader's language: its label by the systems' patterns
    ("assist: Mira", "faction (3 allies)"), else its source's name ("situation:cover",
    "gm"), else its label's, else the label as stored."""
    text = str(modifier.get("label") or "")
    source = str(modifier.get("source") or "")
    for name in (_patterned("modifier", text) if text else None,
                 _named("modifier", source) if source else None,
                 _named("modifier", text) if text else None):
        if name is not None:
            return name
    return text or source
