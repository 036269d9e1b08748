"""What a rule system plugs into the encounter: its initiative roll and its reaction resolvers.

A system registers from its app's ``AppConfig.ready()``::

    from encounters import hooks
    hooks.register_initiative("eclipse_phase", roll_initiative)
    hooks.register_resolver("homebrew.attack", resolve_attack)
    hooks.register_templates("homebrew", hooks.EncounterTemplates(actions="homebrew/_turn.html"))

- An **initiative** is ``fn(combatant, rng) -> Initiative``: the score (higher acts first), the
  tie-breaker (higher first: a characteristic) and the rolls to journal (journal.roll_row dicts).
  A system without one plays in the GM's order only (the homebrew's first choice).
  ``register_initiative_each_round(system)``: in a rolled order, everyone in the order rolls
  again when a round begins (Eclipse Phase: each action turn), in the step that begins it.
- A system's **turns** is ``fn(character) -> int``: how many turns a round the combatant
  playing ``character`` has (Eclipse Phase: SPD, its action phases), applied when combatants
  are added and again at the start; a combatant without a character keeps the GM's number.
- ``register_sheet_prefetch(system, lookups)`` names what the initiative and turns read past
  the sheet (Eclipse Phase: the current sleeve), prefetched for every combatant at once.
- A **resolver** is ``fn(ctx: ReactionContext) -> ReactionOutcome``: called under the
  encounter's lock once the target's side answered or the prompt defaulted (``ctx.defaulted``);
  it rolls the reaction (none for "no reaction") and the rest of the action, changes the sheets,
  and returns the journal's kind, summary and rolls (and which combatant each roll is about:
  ``roll_about``, for a volley at several targets). The encounter writes ONE ActionRecord: the
  prompt (payload, options, the action's rolls so far), the answer, and this result.
- A **prompt** is ``fn(view, reactions) -> {reaction id: PromptDetails}``
  (``register_prompt(kind, fn)``, by resolver kind): what the pending prompts of that kind say
  of the incoming attack to the one they ask (selectors.EncounterView.prompts, shown in each
  prompt's card: the weapon, the firing mode, the damage dice, each answer's chance to
  succeed). It reads what ``view`` loaded and the prompts' payloads (redacted for the viewer),
  and names no combatant: the card names the attacker as the viewer may see it.
- ``register_journal_kinds(system, kinds)`` names every kind of journal entry the system's
  play writes in an encounter's log (``summary["encounter"]``); ``journal_kinds(system)`` adds
  the encounter's own (``ENCOUNTER_KINDS``). What a player reads of each, a hidden combatant in
  it, is tested kind by kind (tests/encounters/test_hidden_kinds.py): a kind written and not
  registered, or registered and never tested, fails there.

- ``register_map_move(system, fn)``: the map's move (encounters.ground), ``fn(view, me) ->
  MapMove | None`` for ``me``, the combatant whose turn the user plays: the system's move step
  to post a clicked point to, and its paces (how far each goes, what it costs), drawn as
  circles around the token. A system without one moves by its own form only.
- ``register_token_gauge(system, fn)``: ``fn(sheet) -> encounters.ground.Gauge | None``, the
  small bar on a token, shown where the roster shows that combatant's gauges (its GM, its
  player), computed from the sheet the page already read (no query).

- ``register_combatant_state(system, fn)``: the state at a glance (encounters.glance), ``fn(
  combatants, *, encounter) -> {combatant id: glance.State}`` for the combatants with a
  character (their sheets loaded), in a fixed number of queries whatever their number; what a
  viewer is shown of it is the encounter's to decide (glance.shown). ``register_view_related(
  system, lookups)``: what the encounter's view selects with each combatant's character past
  its sheet (``select_related`` paths from Character: Eclipse Phase's current sleeve), so that
  the state reads it with no query more.

These could become fields of campaigns.rule_systems.RuleSystemSpec (``initiative``,
``reaction_resolvers``); they live here while that file is another helper's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from gamerules.dice import RandomSource


@dataclass(frozen=True)
class Initiative:
    score: int
    tiebreak: int = 0
    rolls: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ReactionAnswer:
    """One more target's answer to the same action (``ReactionContext.others``)."""

    reaction: Any
    target: Any
    choice: str
    defaulted: bool
    answered_by_id: int | None


@dataclass(frozen=True)
class ReactionContext:
    """``encounter`` is locked; ``actor``/``target`` are Combatants (``.character`` loaded,
    None for a GM's extra); ``choice`` the answer or the default; ``answered_by`` the user who
    answered (None when defaulted). ``others``: the answers of the action's other targets
    (prompts that joined this one: ``request_reaction(joins=)``), in the order they were
    asked; the resolver resolves them all, in its one outcome."""

    encounter: Any
    reaction: Any
    actor: Any
    target: Any
    choice: str
    defaulted: bool
    answered_by: Any
    now: datetime
    rng: RandomSource
    others: tuple[ReactionAnswer, ...] = ()


@dataclass(frozen=True)
class ReactionOutcome:
    kind: str  # the ActionRecord's kind, e.g. "hb_attack"
    summary: dict[str, Any] = field(default_factory=dict)
    rolls: tuple[dict[str, Any], ...] = ()  # journal.roll_row dicts
    # The combatant id each roll is about (one per roll); empty: all about the prompted target.
    roll_about: tuple[int | None, ...] = ()
    # What the action did to characters, for their players' notifications (encounters.notices):
    # (character id, "attacked" | "healed" | "killed"); empty: nothing to tell.
    hits: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class EncounterTemplates:
    """Templates a system adds to the encounter pages. ``actions``: the player's actions in
    turn (with their odds), included with ``view`` (selectors.EncounterView) and ``me`` (the
    Combatant whose turn it is, played by the user); it posts to the system's own views, which
    call encounters.services.encounter_act. ``reaction``: included in each pending reaction's
    card, with ``view`` and ``r`` (the PendingReaction): the GM's corrections of a prompt.
    ``panel``: a card of the system's own on both pages, with ``view`` and ``page`` (Eclipse
    Phase's TACNet); it shows what the user may see only."""

    actions: str = ""
    reaction: str = ""
    panel: str = ""


@dataclass(frozen=True)
class DefenceOdds:
    """One answer a prompt offers: ``key`` (one of the PendingReaction's options) and
    ``chance`` that its roll succeeds (a Fraction in [0, 1]; None: nothing is rolled, "no
    reaction"); ``target`` the number it rolls under, when the system says one."""

    key: str
    chance: Fraction | None = None
    target: int | None = None


@dataclass(frozen=True)
class PromptDetails:
    """What a pending prompt says of the incoming attack (a system's prompt function):
    ``weapon`` its name; ``mode`` the firing mode in the reader's words ("": none, or
    the system has none); ``dice`` the damage dice ("2d10+2");
    ``damage`` the damage already rolled (the homebrew rolls it before the reaction; None:
    rolled after); ``grade`` the attack test's grade when already rolled ("": not yet);
    ``defences`` one per answer offered, in the prompt's order."""

    weapon: str
    dice: str = ""
    mode: str = ""
    damage: int | None = None
    grade: str = ""
    defences: tuple[DefenceOdds, ...] = ()


PromptFn = Callable[[Any, list[Any]], dict[int, PromptDetails]]


@dataclass(frozen=True)
class MapPace:
    """One way to move: ``value`` what the move step's ``pace`` field reads ("walk"),
    ``metres`` how far at most in a straight line, ``label`` what it costs in words ("walk
    4 m, a quick action")."""

    value: str
    metres: float
    label: str


@dataclass(frozen=True)
class MapMove:
    """The move a click on the map posts: ``url`` the system's move step, which reads
    ``combatant``, ``turn``, ``page``, ``x``, ``y`` (metres) and ``pace`` (one of ``paces``;
    none: no limit the rules set, the GM judges) besides ``fields`` (fixed hidden values);
    ``note`` what the move costs in words when no pace says it. The step checks the distance
    again: the map only shows it."""

    url: str
    paces: tuple[MapPace, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()
    note: str = ""


InitiativeFn = Callable[[Any, RandomSource], Initiative]
TurnsFn = Callable[[Any], int]
Resolver = Callable[[ReactionContext], ReactionOutcome]

_INITIATIVE: dict[str, InitiativeFn] = {}
_RESOLVERS: dict[str, Resolver] = {}
_TEMPLATES: dict[str, EncounterTemplates] = {}
_TURNS: dict[str, TurnsFn] = {}
_PREFETCH: dict[str, tuple[str, ...]] = {}
_EACH_ROUND: set[str] = set()
_MAP_MOVE: dict[str, Callable[[Any, Any], MapMove | None]] = {}
_TOKEN_GAUGE: dict[str, Callable[[Any], Any]] = {}
_STATE: dict[str, Callable[..., dict[int, Any]]] = {}
_VIEW_RELATED: dict[str, tuple[str, ...]] = {}
_LOG_STATE_KEYS: dict[str, tuple[str, ...]] = {}
_JOURNAL: dict[str, frozenset[str]] = {}
_PROMPTS: dict[str, PromptFn] = {}
# The kinds the shared encounter journals itself, in every system's encounters.
ENCOUNTER_KINDS = frozenset({"encounter_initiative", "encounter_action_spent"})


def register_journal_kinds(system: str, kinds: Iterable[str]) -> None:
    """The kinds of journal entries ``system``'s play writes in an encounter's log (registering
    again replaces them)."""
    _JOURNAL[system] = frozenset(kinds)


def journal_kinds(system: str) -> frozenset[str]:
    """Every kind an encounter of ``system`` may journal: the encounter's own and the
    system's."""
    return ENCOUNTER_KINDS | _JOURNAL.get(system, frozenset())


def register_turns(system: str, fn: TurnsFn) -> None:
    _TURNS[system] = fn


def unregister_turns(system: str) -> None:
    _TURNS.pop(system, None)


def turns_for(system: str) -> TurnsFn | None:
    return _TURNS.get(system)


def register_sheet_prefetch(system: str, lookups: tuple[str, ...]) -> None:
    """Lookups from Character the system's initiative and turns read (default: its sheet)."""
    _PREFETCH[system] = tuple(lookups)


def sheet_prefetch(system: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
    return _PREFETCH.get(system, default)


def sheet_joins(system: str | None = None) -> tuple[str, ...]:
    """``system``'s ``register_sheet_prefetch`` lookups (single-valued relations) from a
    combatant, or every system's when it is not known (None): joined to the combatants read
    with the encounter's lock by the steps that may roll the initiative or count the turns
    (encounters.access.lock_with_combatants, which passes the encounter's system when this
    process locked it before); the prefetch then finds them loaded."""
    chosen = _PREFETCH.values() if system is None else [_PREFETCH.get(system, ())]
    return tuple(dict.fromkeys(f"character__{lookup}" for lookups in chosen
                               for lookup in lookups if lookup != "campaign"))


def register_templates(system: str, templates: EncounterTemplates) -> None:
    _TEMPLATES[system] = templates


def templates_for(system: str) -> EncounterTemplates:
    return _TEMPLATES.get(system, EncounterTemplates())


def register_initiative(system: str, fn: InitiativeFn) -> None:
    _INITIATIVE[system] = fn


def unregister_initiative(system: str) -> None:
    _INITIATIVE.pop(system, None)


def initiative_for(system: str) -> InitiativeFn | None:
    return _INITIATIVE.get(system)


def register_initiative_each_round(system: str) -> None:
    """``system``'s rolled order is rolled again at the start of every round."""
    _EACH_ROUND.add(system)


def unregister_initiative_each_round(system: str) -> None:
    _EACH_ROUND.discard(system)


def initiative_each_round(system: str) -> bool:
    return system in _EACH_ROUND


def register_resolver(kind: str, fn: Resolver) -> None:
    """Registering a kind twice keeps the last (app reloads in tests)."""
    _RESOLVERS[kind] = fn


def unregister_resolver(kind: str) -> None:
    _RESOLVERS.pop(kind, None)


def resolver_for(kind: str) -> Resolver | None:
    return _RESOLVERS.get(kind)


def register_prompt(kind: str, fn: PromptFn) -> None:
    """What the prompts of resolver ``kind`` say of their attack (registering again replaces
    it)."""
    _PROMPTS[kind] = fn


def unregister_prompt(kind: str) -> None:
    _PROMPTS.pop(kind, None)


def prompt_for(kind: str) -> PromptFn | None:
    return _PROMPTS.get(kind)


def register_map_move(system: str, fn: Callable[[Any, Any], MapMove | None]) -> None:
    _MAP_MOVE[system] = fn


def map_move_for(system: str) -> Callable[[Any, Any], MapMove | None] | None:
    return _MAP_MOVE.get(system)


def register_token_gauge(system: str, fn: Callable[[Any], Any]) -> None:
    _TOKEN_GAUGE[system] = fn


def token_gauge_for(system: str) -> Callable[[Any], Any] | None:
    return _TOKEN_GAUGE.get(system)


def register_combatant_state(system: str, fn: Callable[..., dict[int, Any]]) -> None:
    _STATE[system] = fn


def unregister_combatant_state(system: str) -> None:
    _STATE.pop(system, None)


def combatant_state_for(system: str) -> Callable[..., dict[int, Any]] | None:
    return _STATE.get(system)


def register_log_state_keys(system: str, keys: tuple[str, ...]) -> None:
    """The keys of the system's journal summaries that give a target's exact state (the
    homebrew's ``hp``, Eclipse Phase's ``before`` and ``after`` damage and wounds): left out
    of the encounter's log for a player reading an enemy unless the campaign's
    ``enemy_state`` is exact (encounters.glance.log_for)."""
    _LOG_STATE_KEYS[system] = tuple(keys)


def log_state_keys(system: str) -> tuple[str, ...]:
    return _LOG_STATE_KEYS.get(system, ())


def register_view_related(system: str, lookups: tuple[str, ...]) -> None:
    _VIEW_RELATED[system] = tuple(lookups)


def view_related(system: str) -> tuple[str, ...]:
    return _VIEW_RELATED.get(system, ())
