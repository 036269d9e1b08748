"""What a step loaded, handed to its answer (encounters.pages) so the answer does not read it
again: inside :func:`keeping`, ``access.lock_encounter`` and ``access.combatants_of`` note
the encounter they locked (the last one: the object the step saved) and the combatants' stored
columns as the step first read them, under the lock (what the answer compares with what it
shows, to send only the rows that changed).

Nothing here is trusted blindly: the answer's one read of the combatants carries the
encounter's stored columns too, and reads the encounter again when they differ from the handed
object (selectors.encounter_view). Context-local (this thread or task), nothing kept after the
block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from encounters.models import Combatant, Encounter


@dataclass
class Kept:
    """``encounter``: the last object locked for ``encounter_id``; ``current`` and
    ``version``: its turn holder and version when first locked (before the step);
    ``rows``: every combatant's stored columns by id, as first read (None: never read)."""

    encounter_id: int
    encounter: Encounter | None = None
    current: int | None = None
    version: int | None = None
    rows: dict[int, tuple] | None = field(default=None)
    # ``rows`` holds only the combatants the step read (an answer to a prompt reads its
    # actor and targets): the others' are the answer's own (the step changed none of them)
    partial: bool = False

    @property
    def before(self) -> tuple[int | None, int | None, dict[int, tuple]] | None:
        """(current, version, rows) before the step, by Combatant's concrete fields;
        None when the step read no combatant of the encounter."""
        if self.rows is None:
            return None
        return self.current, self.version, self.rows


_kept: ContextVar[Kept | None] = ContextVar("encounter_kept", default=None)


@contextlib.contextmanager
def keeping(encounter_id: int) -> Iterator[Kept]:
    kept = Kept(encounter_id=encounter_id)
    token = _kept.set(kept)
    try:
        yield kept
    finally:
        _kept.reset(token)


def locked(encounter: Encounter) -> None:
    kept = _kept.get()
    if kept is None or kept.encounter_id != encounter.pk:
        return
    if kept.encounter is None:
        kept.current, kept.version = encounter.current_id, encounter.version
    kept.encounter = encounter


def read(encounter: Encounter, combatants: Iterable[Combatant], *, partial: bool = False
         ) -> None:
    """Note the combatants' stored columns as the step first read them; ``partial``: only
    those it needs (a later read of every combatant adds the rest, as first read)."""
    kept = _kept.get()
    if kept is None or kept.encounter_id != encounter.pk:
        return
    if kept.rows is None:
        kept.rows, kept.partial = {c.pk: row(c) for c in combatants}, partial
    elif kept.partial:
        for c in combatants:
            kept.rows.setdefault(c.pk, row(c))
        kept.partial = partial


def row(combatant: Combatant) -> tuple:
    """A combatant's stored columns, in the order of its concrete fields."""
    return tuple(getattr(combatant, f.attname) for f in type(combatant)._meta.concrete_fields)
