"""The rule-system registry: the one place that knows which rule systems exist and what each
provides. Everything shared (pages, API, admin, tasks, forms) asks here instead of naming a
system; a system registers itself from its app's ``AppConfig.ready()``.

A system is described by a ``RuleSystemSpec``. The core only reads the spec; what the strings
in it name (templates, dotted paths) belongs to the system. See docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from gamerules.errors import ParameterError

BOARD = "board"  # the real-time grid board (Eternal War One II)
ENCOUNTER = "encounter"  # the shared turn-based encounter (homebrew d100, Eclipse Phase)


@dataclass(frozen=True)
class LeaderboardColumn:
    """One sortable column of the leaderboard: ``key`` is the ``?order=`` value, ``order_by``
    the ORM ordering on Character (e.g. ``"-ew1__level"``), ``value`` reads the shown value off a
    character loaded with ``RuleSystemSpec.sheet_related_name`` selected."""

    key: str
    label: Any  # a lazy translation
    order_by: str
    value: Callable[[Any], Any]


@dataclass(frozen=True)
class Templates:
    """Template paths a system provides; the shared pages include them with ``c`` (the
    character) and ``s`` (its sheet) in the context. Empty means "nothing to show"."""

    sheet: str = ""  # the sheet's body on the character page
    gauges: str = ""  # the gauges strip (PV/HP, PA, MP, XP, wounds, stress...)
    list_columns: str = ""  # the <th> cells of the character and faction lists
    list_cells: str = ""  # the matching <td> cells for one character
    log_entry: str = ""  # one journal entry (ActionRecord ``a``) in the logs


@dataclass(frozen=True)
class RuleSystemSpec:
    """What a rule system provides to the core.

    ``code`` is the ``Campaign.rule_system`` value; ``parameters`` a frozen dataclass class with
    ``from_overrides(mapping)`` (gamerules.parameters); ``rules_package`` the pure package under
    ``gamerules/``; ``play_mode`` BOARD or ENCOUNTER; ``sheet_related_name`` the reverse name from
    Character to the system's sheet model; ``new_sheet(character)`` makes a default sheet for a
    character made in the admin; ``creation_url_name`` the URL name of the creation flow (takes
    ``campaign_id``); ``serializer`` the dotted path of the sheet's API serializer.
    """

    code: str
    name: Any
    parameters: type
    rules_package: str
    play_mode: str
    sheet_related_name: str
    new_sheet: Callable[[Any], Any] | None = None
    creation_url_name: str = ""
    serializer: str = ""
    templates: Templates = field(default_factory=Templates)
    leaderboard: tuple[LeaderboardColumn, ...] = ()
    action_labels: Mapping[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, RuleSystemSpec] = {}


def register(spec: RuleSystemSpec) -> None:
    """Add ``spec``; registering the same code twice keeps the last (app reloads in tests)."""
    _REGISTRY[spec.code] = spec


def unregister(code: str) -> None:
    """Remove a system (tests that register a fake one)."""
    _REGISTRY.pop(code, None)


def get(code: str) -> RuleSystemSpec | None:
    return _REGISTRY.get(code)


def registered() -> tuple[RuleSystemSpec, ...]:
    return tuple(_REGISTRY.values())


def is_playable(rule_system: str) -> bool:
    return rule_system in _REGISTRY


def parameters_for(rule_system: str, overrides: Mapping[str, Any] | None):
    """Frozen parameters of ``rule_system`` with ``overrides``; ParameterError when invalid.
    Systems not built yet take no parameters."""
    spec = _REGISTRY.get(rule_system)
    if spec is None:
        if overrides:
            raise ParameterError({"*": "this rule system takes no parameters yet"})
        return None
    return spec.parameters.from_overrides(overrides)
