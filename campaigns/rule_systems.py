"""Which rule systems exist and what each provides; the core asks here instead of assuming EW1."""

from __future__ import annotations

from typing import Any, Mapping

from gamerules.errors import ParameterError
from gamerules.ew1.params import EW1Parameters

PARAMETERS = {"ew1": EW1Parameters}


def is_playable(rule_system: str) -> bool:
    return rule_system in PARAMETERS


def parameters_for(rule_system: str, overrides: Mapping[str, Any] | None):
    """Frozen parameters of ``rule_system`` with ``overrides``; ParameterError when invalid.
    Systems not built yet take no parameters."""
    cls = PARAMETERS.get(rule_system)
    if cls is None:
        if overrides:
            raise ParameterError({"*": "this rule system takes no parameters yet"})
        return None
    return cls.from_overrides(overrides)
