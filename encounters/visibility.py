"""What a viewer may read of an encounter (issue 17, item 3): the one filter every road (the
page, its htmx fragment, the API, a system's panel) goes through, in
encounters.selectors.encounter_view.

``visibility(encounter, combatants, gm)`` says who is hidden from this viewer: nobody for
the GM and the overseers, the combatants the GM hid for a player. The result depends only on
(encounter, viewer kind): a per-version cache of what a viewer sees may key on
``Visibility.key``. Once the GM reveals a combatant, its past entries show again (nothing is
changed in the journal: the filter reads it).

What a player reads of the journal (``log_queryset`` and ``apply_to_log``), a hidden
combatant being in an entry:

- **its actor**: the entry is left out (by query). A combatant without a character is known
  by the ``combatant`` name (or ``combatant_id``) of the summary.
- **its target** (``ActionRecord.target``, the prompt's ``target``): the target is unnamed
  ("someone"), its answer left out, its ``result`` replaced by ``{"hidden": True}`` (keeping
  the results of a volley's ``others`` the player may see), where the actor stood from it and
  what the prompt says of it left out (``PLACE_KEYS``, ``PROMPT_TARGET_KEYS``), and its
  rolls: every roll of the entry, or, when the summary says which combatant each roll is
  about (``roll_about``, one id or None per roll: volleys, zones, explosions, initiative),
  the rolls about it.
- **one of several** (a line of a volley, a zone, an explosion, an end of turn, an ambush,
  an initiative order): its line is left out (a dict in a list naming it by ``PART_KEYS``),
  its id out of the id lists (``ID_LIST_KEYS``), its rolls out (made by it, or about it).
- **anywhere else**: its name reads "someone", its id (under ``ID_KEYS``) None, a character's
  id in an option ("parry:<id>", a parry for an ally) "someone", and a dict naming it as the
  other side of what it records (``SIDE_KEYS``: the holder of an escape, the combatant a blast
  is centred on) loses the places and the tests of that side (``PLACE_KEYS``,
  ``SIDE_TEST_KEYS``).

The pending reactions a player answers go through ``redact`` and ``options`` (and, their
attacker hidden, ``unseen_actor``: not how far it stands); effects,
positions and the order are left to the selector (only the combatants the viewer sees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

# Keys whose int value is a combatant's id: None when it is hidden.
ID_KEYS = ("id", "target_id", "combatant_id", "actor_id", "bearer", "anchor", "combatant",
           "target", "centre_combatant")
# Keys whose value is a list of combatants' ids (an order, a volley's other targets, whom
# each roll is about): the hidden ones left out.
ID_LIST_KEYS = ("order", "others", "roll_about")
# Keys whose int value is a character's id (the one who parried for an ally).
CHARACTER_KEYS = ("by",)
# A dict in a list naming a combatant under one of these (a name, or an id) is its part.
PART_KEYS = ("target", "name", "combatant", "target_id", "combatant_id")
# A dict naming a hidden combatant under one of these is about it as the other side.
SIDE_KEYS = ("target", "holder", "target_id", "centre_combatant")
# What such a dict says of that side: where it stands, how far, its own tests.
PLACE_KEYS = ("distance_m", "thrown_m", "centre", "from", "to", "reach_m", "range_from")
SIDE_TEST_KEYS = ("against",)
# What a prompt's payload says of its target (its state) or of the rolls made at it (the
# attacker's grade and damage, the homebrew's typed order of the attack): left out with a
# hidden target.
PROMPT_TARGET_KEYS = ("grade", "damage", "defender_moxie", "defender_helpless", "surprised",
                      "order")
ROLL_ABOUT = "roll_about"


@dataclass(frozen=True)
class Visibility:
    """``hidden``: ids of the combatants the viewer may not see; ``names`` and ``characters``
    theirs (names and character ids as the journal stores them)."""

    gm: bool
    hidden: frozenset[int] = field(default_factory=frozenset)
    names: frozenset[str] = field(default_factory=frozenset)
    characters: frozenset[int] = field(default_factory=frozenset)

    @property
    def key(self) -> str:
        """What a render cache keys on besides the encounter's version."""
        return "gm" if self.gm else "player:" + ",".join(str(i) for i in sorted(self.hidden))

    @property
    def everything(self) -> bool:
        """Nothing is hidden from this viewer."""
        return self.gm or not self.hidden


def visibility(encounter, combatants, gm: bool) -> Visibility:
    """Who is hidden from a viewer of ``encounter`` (``gm``: its GM or an overseer)."""
    if gm:
        return Visibility(gm=True)
    hidden = [c for c in combatants if c.hidden]
    return Visibility(gm=False, hidden=frozenset(c.pk for c in hidden),
                      names=frozenset(c.name for c in hidden),
                      characters=frozenset(c.character_id for c in hidden if c.character_id))


def log_queryset(qs, seen: Visibility):
    """The journal entries a player may read at all: none whose actor is hidden."""
    if seen.everything:
        return qs
    if seen.characters:
        qs = qs.exclude(actor_id__in=seen.characters)
    # an entry of a name-only combatant (no character) names it in the summary
    # (has_key first: a key missing is NULL, and NOT (NULL IN ...) would drop the entry)
    return qs.exclude(Q(summary__has_key="combatant")
                      & Q(summary__combatant__in=list(seen.names))).exclude(
        Q(summary__has_key="combatant_id") & Q(summary__combatant_id__in=list(seen.hidden)))


def renumber(in_order, seen: Visibility) -> None:
    """Places in the order as the player sees it: 0, 1, 2... without the hidden ones (set on
    the objects read for this viewer, never saved)."""
    if seen.gm:
        return
    for place, c in enumerate(in_order):
        c.rank = place


def current_id(encounter, seen: Visibility) -> int | None:
    """The combatant whose turn it is, None for a player while a hidden one acts."""
    return None if encounter.current_id in seen.hidden else encounter.current_id


def _someone() -> str:
    return _("someone")


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value: Any, seen: Visibility) -> bool:
    """Whether ``value`` (a name or an id) is a hidden combatant."""
    if isinstance(value, str):
        return value in seen.names
    return _is_id(value) and value in seen.hidden


def _option_ref(value: str, seen: Visibility) -> bool:
    """Whether ``value`` is an option naming a hidden character ("parry:<id>")."""
    _base, sep, ref = value.partition(":")
    return bool(sep) and ref.isdigit() and int(ref) in seen.characters


def _part_of_hidden(item: Any, seen: Visibility) -> bool:
    return isinstance(item, dict) and any(_names(item.get(k), seen) for k in PART_KEYS)


def redact(value: Any, seen: Visibility, _side: bool = False) -> Any:
    """``value`` (a summary's or a prompt's JSON) without the hidden combatants (the rules in
    the module's docstring); a new value, ``value`` is not changed."""
    if isinstance(value, dict):
        side = _side or any(_names(value.get(k), seen) for k in SIDE_KEYS)
        out: dict[str, Any] = {}
        for k, v in value.items():
            if side and (k in PLACE_KEYS or k in SIDE_TEST_KEYS):
                continue
            if _is_id(v) and ((k in ID_KEYS and v in seen.hidden)
                              or (k in CHARACTER_KEYS and v in seen.characters)):
                out[k] = None
            elif k in ID_LIST_KEYS and isinstance(v, list):  # ids, or (others) lines
                out[k] = redact([i for i in v if not (_is_id(i) and i in seen.hidden)], seen,
                                side)
            else:
                out[k] = redact(v, seen, side)
        return out
    if isinstance(value, list):
        return [redact(item, seen, _side) for item in value if not _part_of_hidden(item, seen)]
    if isinstance(value, str):
        if value in seen.names:
            return _someone()
        if _option_ref(value, seen):
            return value.partition(":")[0] + ":" + _someone()
    return value


def unseen_actor(payload: Any) -> Any:
    """A prompt's payload whose actor the viewer may not see: without where the actor stood
    from its target (``PLACE_KEYS``: ``distance_m``, ``range_from``, ``thrown_m``...), which
    would place the hidden attacker on a circle around the player's combatant, nor the range
    band measured from the positions (a ring); a new value."""
    if not isinstance(payload, dict):
        return payload
    measured = payload.get("range_from") == "positions"  # the band then says the distance
    return {k: v for k, v in payload.items()
            if k not in PLACE_KEYS and not (measured and k == "range_band")}


def options(keys: list[str], seen: Visibility) -> list[str]:
    """A prompt's options as a player sees them: none naming a hidden character (a parry
    for a hidden ally)."""
    if seen.everything:
        return keys
    return [k for k in keys if not _option_ref(k, seen)]


def _rolls_seen(entry, seen: Visibility, target_hidden: bool) -> list:
    """The entry's rolls a player may read: none made by a hidden combatant, none about one
    (``roll_about``; without it, every roll of an entry whose target is hidden)."""
    rolls = list(entry.rolls.all())
    about = (entry.summary or {}).get(ROLL_ABOUT)
    if isinstance(about, list) and len(about) == len(rolls):
        rolls = [r for r, who in zip(rolls, about)
                 if not (_is_id(who) and who in seen.hidden)]
    elif target_hidden:
        rolls = []
    return [r for r in rolls if r.actor_id not in seen.characters]


def apply_to_log(log: list, seen: Visibility) -> list:
    """The entries of ``log`` (ActionRecords, rolls prefetched) as a player may read them
    (the rules in the module's docstring). The objects are changed in memory only."""
    if seen.everything:
        return log
    for a in log:
        summary = a.summary if isinstance(a.summary, dict) else {}
        prompt = summary.get("prompt")
        target_hidden = a.target_id in seen.characters or (
            isinstance(prompt, dict) and _names(prompt.get("target"), seen))
        rolls = _rolls_seen(a, seen, target_hidden)
        a._prefetched_objects_cache["rolls"]._result_cache = rolls
        summary = redact(summary, seen)
        summary.pop(ROLL_ABOUT, None)  # it says whom the rolls left out were about
        if target_hidden:
            summary.pop("answer", None)
            result = summary.get("result")
            if isinstance(result, dict):
                summary["result"] = {"hidden": True, "target": _someone(),
                                     **({"others": result["others"]}
                                        if isinstance(result.get("others"), list) else {})}
            prompt = summary.get("prompt")
            if isinstance(prompt, dict):  # where the actor shot it from, what it rolled at it
                prompt = redact(prompt, seen, True)
                if isinstance(prompt.get("payload"), dict):
                    prompt["payload"] = {k: v for k, v in prompt["payload"].items()
                                         if k not in PROMPT_TARGET_KEYS}
                summary["prompt"] = prompt
        a.summary = summary
        if target_hidden:
            a.target = None
            a.target_id = None
    return log


def hidden_sheet_entries(qs):
    """characters.selectors.register_hidden_entries: ``qs`` (ActionRecords) without the
    entries a player may not read on a sheet: those of an encounter (``summary.encounter``) in
    which their actor or target is a hidden combatant, by its character or, for a name-only
    combatant, by the summary's ``combatant_id``. After the reveal they read again. A
    subquery: no query more."""
    from django.db.models import Exists, IntegerField, OuterRef
    from django.db.models.fields.json import KT
    from django.db.models.functions import Cast

    from encounters.models import Combatant

    return qs.annotate(
        _hidden_enc=Cast(KT("summary__encounter"), IntegerField()),
        _hidden_cid=Cast(KT("summary__combatant_id"), IntegerField()),
    ).exclude(Exists(Combatant.objects.filter(
        Q(character_id=OuterRef("actor_id")) | Q(character_id=OuterRef("target_id"))
        | Q(pk=OuterRef("_hidden_cid")),
        hidden=True, encounter_id=OuterRef("_hidden_enc"))))
