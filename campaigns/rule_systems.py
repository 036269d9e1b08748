"""The rule-system registry: the one place that knows which rule systems exist and what each
provides. Everything shared (pages, API, admin, tasks, forms) asks here instead of naming a
system; a system registers itself from its app's ``AppConfig.ready()``.

A system is described by a ``RuleSystemSpec``. The core only reads the spec; what the strings
in it name (templates, dotted paths) belongs to the system. See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from campaigns.errors import RuleSystemNotPlayable
from gamerules.errors import ParameterError

BOARD = "board"  # the real-time grid board
ENCOUNTER = "encounter"  # the shared turn-based encounter (homebrew d100, Eclipse Phase)


@dataclass(frozen=True)
class LeaderboardColumn:
    """One sortable column of the leaderboard: ``key`` is the ``?order=`` value, ``order_by``
    the ORM ordering on Character (e.g. ``("-kills", "deaths", "name")``), ``value`` reads the
    shown value off a character loaded with ``RuleSystemSpec.sheet_related_name`` selected."""

    key: str
    label: Any  # a lazy translation
    order_by: tuple[str, ...]
    value: Callable[[Any], Any]


@dataclass(frozen=True)
class Templates:
    """Template paths a system provides; the shared pages include them with ``c`` (the
    character), ``view`` (the page's view) and ``system`` (the spec) in the context. Empty means
    "nothing to show" (the shared template checks before including)."""

    sheet: str = ""  # the sheet's body on the character page (``view`` from ``sheet_view``)
    gauges: str = ""  # the gauges strip (PV/HP, PA, MP, XP, wounds, stress...)
    list_columns: str = ""  # the <th> cells of the player's character list
    list_cells: str = ""  # the matching <td> cells for one character ``c``
    member_columns: str = ""  # the <th> cells of a faction's members (manage page)
    member_cells: str = ""  # the matching <td> cells for one member ``c``
    log_entry: str = ""  # one journal entry (ActionRecord ``a``) the core does not know


@dataclass(frozen=True)
class GmRow:
    """One character's row on the game master's screen (``RuleSystemSpec.gm_summary``):
    ``character`` (its sheet loaded), ``view`` what the system's ``templates.gauges`` partial
    reads as ``view`` (the character page's view without its log), ``conditions`` what the GM
    should know at a glance, in words (lazy or plain strings: "unconscious", "stunned")."""

    character: Any
    view: Any
    conditions: tuple[Any, ...] = ()


@dataclass(frozen=True)
class GmAction:
    """A quick action of the game master's screen, on one character of the system.

    ``key`` names it in the URL (``/campaigns/<id>/gm/characters/<id>/<key>/``), ``label`` what
    the GM reads (lazy), ``template`` the partial of its small form (with ``c`` the character,
    ``action`` this, ``choices`` the list ``choices`` gave, ``url`` where to post);
    ``run`` the dotted path of ``(*, user, character, data) -> str`` (``data`` the posted
    QueryDict; the words said when done), which calls the system's service and raises its
    RuleError on a refusal; ``choices`` the dotted path of ``(campaign) -> list`` (the items or
    spells to pick from), read once per page, or "". Dotted paths, imported when called, so
    that a system may name an app above its own (one that sits over the system's app)."""

    key: str
    label: Any
    template: str
    run: str
    choices: str = ""

    def runner(self) -> Callable[..., Any]:
        return _import(self.run)

    def choices_of(self, campaign) -> list[Any]:
        return list(_import(self.choices)(campaign)) if self.choices else []


@dataclass(frozen=True)
class RuleSystemSpec:
    """What a rule system provides to the core.

    Identity: ``code`` is the ``Campaign.rule_system`` value, ``name`` what people read;
    ``parameters`` a frozen dataclass class with ``from_overrides(mapping)``
    (gamerules.parameters); ``rules_package`` the pure package under ``gamerules/``;
    ``play_mode`` BOARD or ENCOUNTER.

    The sheet: ``sheet_related_name`` the reverse name from Character to the system's sheet model
    ("" for a system that keeps its sheet elsewhere), selected with the character wherever a page
    lists characters; ``sheet(character)`` reads it (default: that relation; absent -> None);
    ``refresh(character, params=, now=)`` brings a loaded sheet up to ``now`` in memory
    (regeneration; ``params`` the campaign's parameters), nothing written;
    ``new_sheet(character)`` makes a default sheet for a character saved in the admin.

    Creation and the character page: ``create_character(user=, campaign=, name=, rng=, now=)``
    makes a character in one step (the API, the demo) and returns it; ``begin_creation(user=,
    campaign=, name=)`` starts the page's creation flow and returns the URL to go to next;
    ``sheet_view(character=, log=, now=)`` is the character page's view (it has at least
    ``character``, ``log`` and ``now``); ``creation_steps`` says in a few words (lazy) what
    beginning a character does (the list page's hint beside its "begin" button: dice rolled
    or points shared).

    Surfaces: ``templates`` (Templates); ``leaderboard`` the columns of the system's own numbers
    (the shared counters kills, deaths, attacks and dodges are the core's); ``serializers`` the
    dotted paths of DRF serializers by part ("sheet": the full sheet from a ``sheet_view``,
    "summary": a character in a list, "row": a Character in the leaderboard and faction lists),
    their fields merged into the shared serializer's; ``character_admin`` the dotted path of
    the system's character admin (a characters.admin.SystemCharacterAdmin: its fields, its
    sheet inline), which the Character admin shows for the system's characters; ``labels``
    the translated names of the codes the system stores (kind -> code -> lazy label: "skill",
    "roll", "reduction"...), read by campaigns.labels;
    ``api_enums`` drf-spectacular enum names (name -> choices or their dotted path);
    ``action_labels`` the system's action kinds -> lazy label.

    Wiring: ``urls`` the system's page URL modules, ``(prefix, dotted module)`` pairs mounted
    under the site's root in order (config.urls, after the core's); ``api_urls`` its API URL
    modules, included under ``/api/`` (config.api_urls); ``demo(gm=, players=, now=)`` makes
    the system's demo campaign (``players``: username -> user, the demo's logins) and returns
    it, unless a campaign named ``demo_campaign`` exists already (config.demo).

    The game master's screen (``/campaigns/<id>/gm/``): ``gm_summary(characters, *, campaign,
    now)`` the GmRow of each character (same order; their sheets selected with
    ``sheet_related_name``), in a fixed number of queries whatever their number (None: rows
    with the name only); ``gm_actions`` the quick actions (GmAction) of each row; ``gm_links(
    campaign)`` the GM's campaign-wide steps as ``(label, url)`` pairs (a rest for everyone),
    shown on the screen and on the encounter's control page.

    The chat (chat.services): ``free_test_rule(params)`` the ``gamerules.d100`` critical rule
    that grades a free test typed as ``/roll d100 <= N`` (None: ``RollUnder()``, d100 <= N
    succeeds, no criticals).
    """

    code: str
    name: Any
    parameters: Any  # a frozen dataclass class with from_overrides() and describe()
    rules_package: str
    play_mode: str
    sheet_related_name: str = ""
    sheet: Callable[[Any], Any] | None = None
    refresh: Callable[..., Any] | None = None
    new_sheet: Callable[[Any], Any] | None = None
    copy_sheets: Callable[[Any, Any], Any] | None = None  # (template, new characters) -> sheets
    create_character: Callable[..., Any] | None = None
    begin_creation: Callable[..., str] | None = None
    creation_steps: Any = ""
    sheet_view: Callable[..., Any] | None = None
    templates: Templates = field(default_factory=Templates)
    leaderboard: tuple[LeaderboardColumn, ...] = ()
    serializers: Mapping[str, str] = field(default_factory=dict)
    character_admin: str = ""
    labels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    api_enums: Mapping[str, Any] = field(default_factory=dict)
    action_labels: Mapping[str, Any] = field(default_factory=dict)
    in_use: Callable[[Any], bool] | None = None  # campaign -> has this system's data (drafts)
    urls: tuple[tuple[str, str], ...] = ()
    api_urls: tuple[str, ...] = ()
    demo: Callable[..., Any] | None = None
    demo_campaign: str = ""
    gm_summary: Callable[..., list[GmRow]] | None = None
    gm_actions: tuple[GmAction, ...] = ()
    gm_links: Callable[[Any], list[tuple[Any, str]]] | None = None
    free_test_rule: Callable[[Any], Any] | None = None  # params -> gamerules.d100 CriticalRule

    def gm_action(self, key: str) -> GmAction | None:
        """The quick action named ``key``, or None."""
        return next((a for a in self.gm_actions if a.key == key), None)

    def sheet_of(self, character) -> Any:
        """The character's sheet, or None when it has none (saved around the admin)."""
        if self.sheet is not None:
            return self.sheet(character)
        if not self.sheet_related_name:
            return None
        return getattr(character, self.sheet_related_name, None)

    def character_admin_class(self) -> type | None:
        """The character admin class (``character_admin`` imported), or None."""
        return _import(self.character_admin) if self.character_admin else None

    def serializer(self, part: str) -> type | None:
        """The serializer class of ``part`` ("sheet", "summary", "row"), or None."""
        path = self.serializers.get(part)
        return _import(path) if path else None


_REGISTRY: dict[str, RuleSystemSpec] = {}
_NAMES: dict[str, Any] = {}  # every system's name once registered, kept after unregister()


def register(spec: RuleSystemSpec) -> None:
    """Add ``spec``; registering the same code twice keeps the last (app reloads in tests)."""
    _REGISTRY[spec.code] = spec
    _NAMES[spec.code] = spec.name


def unregister(code: str) -> None:
    """Remove a system (tests that register a fake one)."""
    _REGISTRY.pop(code, None)


def get(code: str) -> RuleSystemSpec | None:
    return _REGISTRY.get(code)


def registered() -> tuple[RuleSystemSpec, ...]:
    return tuple(_REGISTRY.values())


def is_playable(rule_system: str) -> bool:
    return rule_system in _REGISTRY


def choices() -> list[tuple[str, Any]]:
    """``Campaign.rule_system``'s choices: every registered system, (code, name), in
    registration order (a callable, so that a new system needs no migration)."""
    return [(spec.code, spec.name) for spec in _REGISTRY.values()]


def url_patterns() -> list[Any]:
    """Every registered system's page URLs (``urls``), for config.urls."""
    from django.urls import include, path
    return [path(prefix, include(module)) for spec in _REGISTRY.values()
            for prefix, module in spec.urls]


def api_url_patterns() -> list[Any]:
    """Every registered system's API URLs (``api_urls``), for config.api_urls."""
    from django.urls import include, path
    return [path("", include(module)) for spec in _REGISTRY.values() for module in spec.api_urls]


def require(rule_system: str) -> RuleSystemSpec:
    """The spec of ``rule_system``; the one refusal of a system not built yet: raises
    RuleSystemNotPlayable (code ``rule_system_not_playable``, key ``rule_system_not_built``)."""
    spec = _REGISTRY.get(rule_system)
    if spec is None:
        raise not_built(rule_system)
    return spec


def not_built(rule_system: str) -> RuleSystemNotPlayable:
    """The error ``require`` raises (also for a registered system that lacks the hook asked)."""
    return RuleSystemNotPlayable("rule_system_not_built", system=_display_name(rule_system))


def default_code() -> str:
    """The system a new campaign gets unless told otherwise: the first registered."""
    return next(iter(_REGISTRY), "")


def sheet_relations() -> tuple[str, ...]:
    """The reverse names from Character to every registered sheet model, for select_related."""
    return tuple(s.sheet_related_name for s in _REGISTRY.values() if s.sheet_related_name)


def sheet_missing_errors() -> tuple[type[Exception], ...]:
    """The DoesNotExist of every registered sheet model: what reading a character's missing
    sheet raises (the API answers it as ``sheet_missing``)."""
    from django.apps import apps
    character = apps.get_model("characters", "Character")
    return tuple(character._meta.get_field(name).related_model.DoesNotExist
                 for name in sheet_relations())


def has_sheet_q(prefix: str = ""):
    """A Q that keeps the characters (``prefix``: the path to them, e.g. "character__") of a
    registered system that have its sheet: a system whose sheet is no model keeps them all."""
    from django.db.models import Q
    q = Q(**{f"{prefix}pk__in": []})
    for i, spec in enumerate(_REGISTRY.values()):
        here = Q(**{f"{prefix}campaign__rule_system": spec.code})
        if spec.sheet_related_name:
            here &= Q(**{f"{prefix}{spec.sheet_related_name}__isnull": False})
        q = here if i == 0 else q | here
    return q


def label(kind: str, code: Any) -> Any:
    """The lazy translated name of ``code`` among ``kind`` in any registered system, or None."""
    for spec in _REGISTRY.values():
        name = spec.labels.get(kind, {}).get(code)
        if name is not None:
            return name
    return None


class ApiEnumNames(Mapping):
    """drf-spectacular's ENUM_NAME_OVERRIDES: ``shared`` plus every registered system's
    ``api_enums``, read when the schema is made (after the apps registered their systems)."""

    def __init__(self, shared: Mapping[str, Any]) -> None:
        self.shared = dict(shared)

    def _all(self) -> dict[str, Any]:
        merged = dict(self.shared)
        for spec in _REGISTRY.values():
            merged.update(spec.api_enums)
        return merged

    def __getitem__(self, key: str) -> Any:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def _display_name(rule_system: str) -> str:
    return str(_NAMES.get(rule_system, rule_system))


def _import(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def parameters_for(rule_system: str, overrides: Mapping[str, Any] | None):
    """Frozen parameters of ``rule_system`` with ``overrides``; ParameterError when invalid.
    Systems not built yet take no parameters."""
    spec = _REGISTRY.get(rule_system)
    if spec is None:
        if overrides:
            raise ParameterError({"*": "this rule system takes no parameters yet"})
        return None
    return spec.parameters.from_overrides(overrides)
