"""The opening every encounter step shares (issue 20, item 3): the encounter loaded locked, who
may act checked, its state and turn checked, then, once the step changed something, its version
bumped. The bottom of the encounter's modules: it imports none of them (``.importlinter``,
contract "encounter-layers").

Locking precondition (each step): the Encounter row is locked first (``select_for_update``) and
everything is checked under that lock before anything is written; a refused step raises a keyed
error (encounters.errors, gamerules.encounter.errors) inside the transaction and changes
nothing. Each step that changes something bumps ``Encounter.version`` by one (:func:`save`)
and, once its transaction commits, pushes the new version to the open pages (encounters.push).

Who may (the ``who`` of :func:`opened`), read from the campaign's and the characters' rules
(campaigns.permissions.oversees: the game master; characters.rules.plays: a character's player;
the ``characters.act`` permission: who sees the encounter at all):

- ``GM``: the game master; a player of the encounter gets 403 ("not_game_master"), a stranger
  404 (the encounter does not exist for them).
- ``TURN_HOLDER``: the GM, or the player of whose turn it is; a player of the encounter pressing
  as the turn moved on gets "turn_already_advanced" (409) before the 403.
- ``PLAYER``: the player of ``combatant_id`` (its character's player; the GM plays the rest): a
  stranger 404 before the combatant is looked at, a hidden combatant not theirs
  "no_such_combatant" (400, as a wrong id), someone else's "not_your_combatant" (403).
- ``PLAYER_OR_GM``: as ``PLAYER``, the GM allowed for anyone's.
- ``ANYONE``: no check (a periodic task; a step that checks on its own).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from campaigns.permissions import allowed, oversees
from characters.rules import plays
from encounters import handoff, push
from encounters.errors import (EncounterConflict, EncounterForbidden, EncounterInvalid,
                               EncounterNotFound)
from encounters.models import Combatant, Encounter
from gamerules.dice import RandomSource

# who may open a step (see the module's docstring)
GM, TURN_HOLDER, PLAYER, PLAYER_OR_GM, ANYONE = (
    "gm", "turn_holder", "player", "player_or_gm", "anyone")
# the state a step needs: not ended (the set-up too), running, or any
NOT_ENDED, RUNNING = "not_ended", "running"


# --- loading --------------------------------------------------------------------------------

def lock_encounter(encounter_id: int) -> Encounter:
    """The encounter, locked until the transaction ends, with its campaign: one query. Raises
    EncounterNotFound."""
    try:
        encounter = (Encounter.objects.select_for_update(of=("self",)).select_related("campaign")
                     .get(pk=encounter_id))
    except Encounter.DoesNotExist:
        raise EncounterNotFound() from None
    handoff.locked(encounter)  # a step's answer shows it (encounters.handoff)
    return encounter


def combatants_of(encounter: Encounter, related: tuple[str, ...] = ()) -> dict[int, Combatant]:
    """Every combatant of the encounter (removed ones too) with its character (and
    ``related``): one query."""
    combatants = {c.pk: c for c in encounter.combatants.select_related("character", *related)}
    handoff.read(encounter, combatants.values())
    return combatants


def lock_with_combatants(encounter_id: Any, related: tuple[str, ...] = ()
                         ) -> tuple[Encounter, dict[int, Combatant]]:
    """The encounter locked with its campaign and every combatant (removed ones too) with its
    character, as :func:`lock_encounter` then :func:`combatants_of`, in ONE query (issue 20,
    item 2). ``encounter_id``: an id, or an expression giving it (a prompt's encounter);
    ``related``: more single-valued relations of a combatant joined in that query (a
    system's sheet: encounters.hooks.sheet_joins). Raises EncounterNotFound.

    The combatants are read in the statement that locks (``FOR UPDATE OF`` the encounter), so
    on PostgreSQL they are as the statement's snapshot saw them: when the lock had to wait for
    a step that changed them, they would be the ones from before it. Every step that changes
    an encounter's combatants or prompts bumps its version under its lock (:func:`save`,
    :func:`encounter_changed`, encounters.changes), so each row also carries the version the
    snapshot saw: when it differs from the locked row's, the combatants are read again, after
    the lock (one more query, only then). No combatant at all: the encounter alone is locked
    (one query, with the same check: one more when one came meanwhile)."""
    rows: list[Combatant] = list(
        Combatant.objects.filter(encounter_id=encounter_id).select_for_update(of=("encounter",))
        .select_related("encounter__campaign", "character", *related)
        .annotate(**{SEEN: seen_version("encounter_id")}))
    if not rows:
        anyone = Exists(Combatant.objects.filter(encounter_id=OuterRef("pk")))
        alone = (Encounter.objects.select_for_update(of=("self",)).select_related("campaign")
                 .annotate(**{SEEN: seen_version("pk"), ANYONE_IN: anyone})
                 .filter(pk=encounter_id).first())
        if alone is None:
            raise EncounterNotFound() from None
        handoff.locked(alone)
        if getattr(alone, ANYONE_IN) or getattr(alone, SEEN) != alone.version:
            return alone, combatants_of(alone, related)
        handoff.read(alone, ())
        return alone, {}
    encounter: Encounter = rows[0].encounter
    handoff.locked(encounter)
    if any(getattr(c, SEEN) != c.encounter.version  # changed while it waited
           for c in rows):
        return encounter, combatants_of(encounter, related)
    for c in rows:
        c.encounter = encounter  # one object for the step, as encounter.combatants gives
    combatants = {c.pk: c for c in rows}
    handoff.read(encounter, combatants.values())
    return encounter, combatants


SEEN = "seen_version"  # the annotation of seen_version (a row's, below)
ANYONE_IN = "has_combatants"  # whether the encounter has a combatant, as the snapshot saw it


def seen_version(encounter_id: str) -> Subquery:
    """The version of the encounter whose id is the outer column ``encounter_id``, as the
    statement's snapshot saw it (:func:`lock_with_combatants`)."""
    return Subquery(Encounter.objects.filter(pk=OuterRef(encounter_id)).values("version")[:1])


# --- who may --------------------------------------------------------------------------------

def is_gm(user, encounter: Encounter) -> bool:
    return oversees(user, encounter.campaign)


def controls(user, encounter: Encounter, combatant: Combatant) -> bool:
    """Whether ``user`` plays ``combatant``: its character's player; the game master plays the
    rest (a GM's extra, creatures, characters nobody owns)."""
    character = combatant.character
    if character is not None:
        return plays(user, character, encounter.campaign)  # characters.play
    return is_gm(user, encounter)  # a GM's extra, with no character


def can_see(user, encounter: Encounter, combatants: Iterable[Combatant]) -> bool:
    return is_gm(user, encounter) or any(
        c.character is not None and not c.removed and allowed(user, "characters.act", c.character)
        for c in combatants)


def require_gm(user, encounter: Encounter, combatants: Iterable[Combatant] = ()) -> None:
    if is_gm(user, encounter):
        return
    if can_see(user, encounter, combatants):
        raise EncounterForbidden(code="not_game_master")
    raise EncounterNotFound()


# --- the state and the turn -----------------------------------------------------------------

def require_not_ended(encounter: Encounter) -> None:
    if encounter.state == Encounter.State.ENDED:
        raise EncounterConflict(code="encounter_ended")


def require_running(encounter: Encounter) -> None:
    require_not_ended(encounter)
    if encounter.state != Encounter.State.RUNNING:
        raise EncounterConflict(code="encounter_not_running")


def require_turn(encounter: Encounter, turn: int | None) -> None:
    """``turn``: the ``turn_serial`` the caller saw (None: whatever turn it is, for scripts)."""
    if turn is not None and turn != encounter.turn_serial:
        raise EncounterConflict(code="turn_already_advanced")


def combatant_in(combatants: dict[int, Combatant], combatant_id: int) -> Combatant:
    """The combatant ``combatant_id`` of the encounter. Raises EncounterInvalid
    ("no_such_combatant")."""
    try:
        return combatants[combatant_id]
    except KeyError:
        raise EncounterInvalid(code="no_such_combatant") from None


def visible_combatant(user, encounter: Encounter, combatants: dict[int, Combatant],
                      combatant_id: int) -> Combatant:
    """``combatant_in`` for a step where a player names one: a hidden combatant they do not
    play does not exist for them (encounters.visibility), the same refusal as a wrong id."""
    me = combatant_in(combatants, combatant_id)
    if me.hidden and not is_gm(user, encounter) and not controls(user, encounter, me):
        raise EncounterInvalid(code="no_such_combatant")
    return me


# --- the version ----------------------------------------------------------------------------

def save(encounter: Encounter) -> None:
    """Save the step's encounter (its turn, state and deadline columns) with its version bumped
    by one: one UPDATE, the version pushed once the transaction commits."""
    encounter.version += 1
    encounter.save(update_fields=["state", "order_mode", "round", "turn_serial", "current",
                                  "current_phase", "turn_actions", "reaction_deadline",
                                  "version"])
    push.announce(encounter.pk, encounter.version)


def encounter_changed(encounter: Encounter) -> None:
    """A rule system's step changed what the pages of ``encounter`` (locked by the caller)
    show: its version bumped (one UPDATE) and pushed once the transaction commits."""
    encounter.version += 1
    encounter.save(update_fields=["version"])
    push.announce(encounter.pk, encounter.version)


# --- the opening ----------------------------------------------------------------------------

@dataclass
class Step:
    """An opened step: the locked ``encounter``, who acts (``user``) and when (``now``), the
    random source (``rng``), the combatant the step names when ``who`` checked one (``me``).
    ``combatants``: every combatant by id (removed ones too), read once, when first asked for
    (at the opening unless ``related=None``)."""

    encounter: Encounter
    user: Any
    now: datetime
    rng: RandomSource
    me: Combatant | None = None
    loaded: dict[int, Combatant] | None = field(default=None, repr=False)

    @property
    def combatants(self) -> dict[int, Combatant]:
        if self.loaded is None:
            self.loaded = combatants_of(self.encounter)
        return self.loaded

    def combatant(self, combatant_id: int) -> Combatant:
        """Raises EncounterInvalid("no_such_combatant")."""
        return combatant_in(self.combatants, combatant_id)

    def save(self) -> None:
        """The encounter saved, its version bumped and pushed on commit (:func:`save`)."""
        save(self.encounter)


@dataclass(frozen=True)
class Acting:
    """What the caller of a step saw when it asked: the turn (``turn``: the encounter's
    ``turn_serial`` then; None: any) and the combatant it acts for (``combatant_id``, for
    ``PLAYER`` and ``PLAYER_OR_GM``)."""

    turn: int | None = None
    combatant_id: int | None = None


@contextlib.contextmanager
def opened(encounter_id: int, user, *, who: str = GM, state: str | None = NOT_ENDED,
           acting: Acting = Acting(), related: tuple[str, ...] | None = (),
           now: datetime | None = None, rng: RandomSource | None = None) -> Iterator[Step]:
    """Open a step on ``encounter_id`` in its own transaction: the encounter locked with its
    combatants read, in one query (:func:`lock_with_combatants`, ``related`` joined; with
    ``related=None`` the encounter alone, the combatants read when first asked for),
    then, in this order, who may (``who``, see the module's docstring; ``acting.combatant_id``
    for ``PLAYER`` and ``PLAYER_OR_GM``, then ``Step.me``), the state (``state``:
    ``NOT_ENDED``, ``RUNNING`` or None), the turn (``acting.turn``, :class:`Acting`).
    ``now`` defaults to the current time, ``rng`` to the system's random source. Whatever the
    block raises rolls the whole step back. Raises EncounterNotFound, EncounterForbidden
    ("not_game_master", "not_your_combatant"), EncounterInvalid("no_such_combatant"),
    EncounterConflict ("encounter_ended", "encounter_not_running", "turn_already_advanced")."""
    now, rng = now or timezone.now(), rng or random.SystemRandom()
    with transaction.atomic():
        if related is not None:
            encounter, loaded = lock_with_combatants(encounter_id, related)
        else:
            encounter, loaded = lock_encounter(encounter_id), None
        step = Step(encounter=encounter, user=user, now=now, rng=rng, loaded=loaded)
        _check_who(step, who, acting.turn, acting.combatant_id)
        if state == NOT_ENDED:
            require_not_ended(encounter)
        elif state == RUNNING:
            require_running(encounter)
        require_turn(encounter, acting.turn)
        yield step


def _check_who(step: Step, who: str, turn: int | None, combatant_id: int | None) -> None:
    user, encounter = step.user, step.encounter
    if who == GM:
        if not is_gm(user, encounter):  # a player of it gets 403, a stranger 404
            require_gm(user, encounter, step.combatants.values())
    elif who == TURN_HOLDER:
        combatants = step.combatants
        current = combatants.get(encounter.current_id) if encounter.current_id else None
        if not is_gm(user, encounter) and not (current and controls(user, encounter, current)):
            if can_see(user, encounter, combatants.values()):
                require_turn(encounter, turn)  # its player pressed as the GM moved it on: 409
            require_gm(user, encounter, combatants.values())
    elif who in (PLAYER, PLAYER_OR_GM):
        combatants = step.combatants
        if combatant_id is None or not can_see(user, encounter, combatants.values()):
            raise EncounterNotFound()  # before the combatant: no 400 telling a stranger its ids
        step.me = visible_combatant(user, encounter, combatants, combatant_id)
        if not controls(user, encounter, step.me) and (who == PLAYER
                                                       or not is_gm(user, encounter)):
            # a player of it, another's combatant: not theirs (the GM could not be asked)
            raise EncounterForbidden(code="not_your_combatant")
    elif who != ANYONE:
        raise ValueError(f"unknown who: {who!r}")


def storable(row: dict[str, Any]) -> dict[str, Any]:
    """A journal.roll_row dict as JSON: the actor's id instead of the Character."""
    row = dict(row)
    if "actor" in row:
        actor = row.pop("actor")
        row["actor_id"] = getattr(actor, "pk", actor)
    return row
