"""Each combatant's state at a glance (issue 21, item 2): its gauges and conditions as its rule
system gives them, and what one viewer is shown of them (the roster's rows, the map's tokens,
the API's ``state``).

A rule system gives the state through ``hooks.register_combatant_state(system, fn)``:
``fn(combatants, encounter=) -> {combatant id: State}`` for the combatants with a character
(their sheets loaded with them, ``hooks.register_view_related`` adds what it reads past the
sheet), in a fixed number of queries whatever their number (no per-row query). The encounter
names no system: a system without one shows no state.

What a viewer is shown (:func:`shown`, one decision for every surface):

- the GM (and the overseers): every combatant's state, exact;
- a player: exact for their own combatants and those of their side (the other player
  characters: the map's ``party`` side; a player plays player characters only), less what the
  system marks ``own_only`` (Eclipse Phase's ammunition: an ally reads it on TACNet), and for an
  enemy what the campaign's ``enemy_state`` says (campaigns.models.EnemyState): ``exact``,
  ``described`` (the word of ``State.level`` only: unhurt, wounded, badly wounded, down, from
  gamerules.encounter.glance with the system's ``badly_wounded_percent``), ``hidden``
  (nothing). A hidden combatant is not in a player's view at all (encounters.visibility).

Shapes: ``Meter`` a gauge (``value`` of ``maximum``, ints; ``worse_up`` when more is worse:
damage, stress); ``Mark`` a condition (``key`` a stable code, ``label`` the words, ``icon`` a
key of ``ICONS``); ``State`` (meters, marks, ``level``, ``bar`` the key of the meter drawn
under the token); ``Glance`` what one viewer reads, with ``as_json`` for the API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from gamerules.encounter.glance import Level

EXACT, DESCRIBED, HIDDEN = "exact", "described", "hidden"  # campaigns.models.EnemyState

# The glyph of each icon key (shown aria-hidden; the words go beside it, visually hidden, and
# in its tooltip). Characters every system font has (DejaVu, Noto): no emoji.
ICONS: dict[str, str] = {
    "health": "♥", "damage": "♥", "wounds": "✚", "stress": "ψ", "mp": "✦", "moxie": "✧",
    "stunned": "✷", "prone": "↓", "unconscious": "☾", "bleeding": "♦", "dead": "☠",
    "ammo": "▮", "jammed": "⊗", "posture": "⚔", "defensive": "▣", "no_dodge": "⊘",
    "mental": "ψ", "level": "●",
}

LEVEL_LABELS = {Level.UNHURT.value: _("unhurt"), Level.WOUNDED.value: _("wounded"),
                Level.BADLY_WOUNDED.value: _("badly wounded"), Level.DOWN.value: _("down")}


@dataclass(frozen=True)
class Meter:
    key: str
    label: Any
    value: int
    maximum: int | None = None  # None: a count (wounds), no bar
    icon: str = ""
    worse_up: bool = False
    note: Any = ""  # more words for the tooltip ("death at 45", "2 spare magazines")
    own_only: bool = False  # read by the combatant's player and the GM only (not allies)

    @property
    def share(self) -> float:
        if not self.maximum or self.maximum <= 0:
            return 0.0
        return min(1.0, max(0.0, self.value / self.maximum))

    @property
    def warn(self) -> tuple[int, int]:
        """The HTML meter's ``low`` and ``high`` (the drawing's colours: well, hurt, badly
        hurt): for a gauge where more is worse, 1 and half the maximum (rounded up); else a
        quarter and half of it."""
        top = self.maximum or 0
        if self.worse_up:
            return 1, max(1, -(-top // 2))
        return top // 4, -(-top // 2)

    @property
    def left(self) -> int:
        """What is left of the gauge (the token's bar: full is well): ``maximum - value``
        when more is worse, else ``value``."""
        if self.worse_up and self.maximum is not None:
            return max(0, self.maximum - self.value)
        return max(0, self.value)

    @property
    def glyph(self) -> str:
        return ICONS.get(self.icon or self.key, "•")

    @property
    def words(self) -> str:
        text = (f"{self.label} {self.value}" if self.maximum is None
                else f"{self.label} {self.value}/{self.maximum}")
        return f"{text} ({self.note})" if self.note else text

    def as_json(self) -> dict[str, Any]:
        """``maximum`` null for a count."""
        return {"key": self.key, "label": str(self.label), "value": self.value,
                "maximum": self.maximum, "worse_up": self.worse_up, "note": str(self.note)}


@dataclass(frozen=True)
class Mark:
    key: str
    label: Any
    icon: str = ""
    own_only: bool = False  # read by the combatant's player and the GM only (not allies)

    @property
    def glyph(self) -> str:
        return ICONS.get(self.icon or self.key, "•")

    @property
    def words(self) -> str:
        return str(self.label)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": str(self.label)}


@dataclass(frozen=True)
class State:
    """A combatant's whole state, as its system gives it (see the module's docstring)."""

    meters: tuple[Meter, ...] = ()
    marks: tuple[Mark, ...] = ()
    level: str = Level.UNHURT.value
    bar: str = ""  # the key of the meter drawn under the map's token ("" none)


@dataclass(frozen=True)
class Glance:
    """What one viewer reads of one combatant: ``detail`` EXACT (the meters and marks) or
    DESCRIBED (the level's word alone)."""

    detail: str
    level: str
    meters: tuple[Meter, ...] = ()
    marks: tuple[Mark, ...] = ()
    bar: Meter | None = None

    @property
    def exact(self) -> bool:
        return self.detail == EXACT

    @property
    def level_label(self) -> Any:
        return LEVEL_LABELS.get(self.level, self.level)

    @property
    def key(self) -> str:  # as a Mark's, for the token's icons
        return "level-" + self.level

    @property
    def glyph(self) -> str:
        return ICONS["level"]

    @property
    def words(self) -> str:
        """Everything in one line (the token's tooltip)."""
        if not self.exact:
            return str(self.level_label)
        return " · ".join([m.words for m in self.meters] + [m.words for m in self.marks])

    def as_json(self) -> dict[str, Any]:
        """The API's ``state``: ``detail``, ``level`` and its ``label``; exact: ``meters``
        and ``marks`` too (empty lists when described)."""
        return {"detail": self.detail, "level": self.level, "label": str(self.level_label),
                "meters": [m.as_json() for m in self.meters] if self.exact else [],
                "marks": [m.as_json() for m in self.marks] if self.exact else []}


@dataclass(frozen=True)
class Sides:
    """The sides of a viewer: ``gm`` sees everything; otherwise ``own`` the sides of the
    combatants the viewer plays, ``mine`` their ids."""

    gm: bool
    own: frozenset[str] = field(default_factory=frozenset)
    mine: frozenset[int] = field(default_factory=frozenset)


def side_of(combatant) -> str:
    """The map's side (encounters.ground): "party" for a player character, else "enemy"."""
    character = combatant.character
    return "party" if character is not None and character.is_player else "enemy"


def shown(state: State | None, *, combatant, sides: Sides, setting: str) -> Glance | None:
    """What the viewer of ``sides`` reads of ``combatant``'s ``state`` (None: nothing), the
    campaign's ``setting`` (EnemyState) for an enemy."""
    if state is None:
        return None
    if sides.gm or combatant.pk in sides.mine:
        meters, marks = state.meters, state.marks
    elif side_of(combatant) in sides.own or setting == EXACT:
        meters = tuple(m for m in state.meters if not m.own_only)
        marks = tuple(m for m in state.marks if not m.own_only)
    elif setting == DESCRIBED:
        return Glance(DESCRIBED, state.level)
    else:
        return None
    bar = next((m for m in meters if m.key == state.bar), None)
    return Glance(EXACT, state.level, meters, marks, bar)


def _without_state(value: Any, enemies: frozenset[str], keys: tuple[str, ...],
                   strip: bool = False) -> Any:
    """``value`` (a journal summary's JSON) without ``keys`` in a dict about an enemy: the
    dict ``strip`` says (the entry's own result) or one whose ``target`` names an enemy (a
    volley's other target, a zone's line). A new value."""
    if isinstance(value, dict):
        strip = strip or value.get("target") in enemies
        return {k: _without_state(v, enemies, keys) for k, v in value.items()
                if not (strip and k in keys)}
    if isinstance(value, list):
        return [_without_state(v, enemies, keys) for v in value]
    return value


def log_for(log: list, *, combatants, sides: Sides, setting: str, keys: tuple[str, ...]
            ) -> list:
    """The encounter's log (ActionRecords) as a viewer of ``sides`` may read it of the enemies'
    state (the campaign's ``enemy_state`` ``setting``): for a player and a setting other than
    exact, an entry whose target is an enemy (one of ``combatants``, the ones the viewer sees,
    not of the viewer's sides) loses the system's state ``keys``
    (hooks.register_log_state_keys: the HP left, the damage and wounds before and after) in
    its summary and its ``result``, as does a line of it naming an enemy as its ``target``.
    The objects are changed in memory only; the damage dealt and the conditions stay."""
    if sides.gm or setting == EXACT or not keys:
        return log
    enemy = [c for c in combatants if c.pk not in sides.mine and side_of(c) not in sides.own]
    names = frozenset(c.name for c in enemy)
    characters = frozenset(c.character_id for c in enemy if c.character_id is not None)
    for a in log:
        if not isinstance(a.summary, dict):
            continue
        own = a.target_id is not None and a.target_id in characters
        summary = {k: v for k, v in a.summary.items() if not (own and k in keys)}
        if own and isinstance(summary.get("result"), dict):
            summary["result"] = _without_state(summary["result"], names, keys, strip=True)
        a.summary = _without_state(summary, names, keys)
    return log


def sheet_log_for(entries: list, *, character) -> list:
    """characters.selectors.register_entry_redactor: the entries of ``character``'s sheet as
    a player reads them (the overseers read them whole), what they say of an enemy's state as
    the campaign's ``enemy_state`` says (``log_for``'s rule): unless it is exact, an
    encounter's entry whose target is not a player character loses the system's state keys
    in its summary and its ``result``, as does each line of it naming a target other than
    ``character`` (on a sheet the encounter's sides are not read: an ally's line loses them
    too). No query: the campaign is the character's."""
    from encounters import hooks

    campaign = character.campaign
    keys = hooks.log_state_keys(campaign.rule_system)
    if getattr(campaign, "enemy_state", DESCRIBED) == EXACT or not keys:
        return entries
    for a in entries:
        if not isinstance(a.summary, dict) or "encounter" not in a.summary:
            continue
        enemy = a.target is not None and not a.target.is_player
        summary = {k: v for k, v in a.summary.items() if not (enemy and k in keys)}
        if enemy and isinstance(summary.get("result"), dict):
            summary["result"] = _without_state(summary["result"], frozenset(), keys,
                                               strip=True)
        a.summary = _others_without_state(summary, character.name, keys)
    return entries


def _others_without_state(value: Any, own: str, keys: tuple[str, ...]) -> Any:
    """``value`` without ``keys`` in any dict naming a ``target`` other than ``own``."""
    if isinstance(value, dict):
        strip = isinstance(value.get("target"), str) and value["target"] != own
        return {k: _others_without_state(v, own, keys) for k, v in value.items()
                if not (strip and k in keys)}
    if isinstance(value, list):
        return [_others_without_state(v, own, keys) for v in value]
    return value
