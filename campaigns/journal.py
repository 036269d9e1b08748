"""Writing the game's journal: one ActionRecord per action, one RollRecord per die roll.

Every kind of entry is declared by the app that writes it (``register_kinds`` in its
``AppConfig.ready()``): a rule system's own kinds, or the shared ones (factions: any system;
the encounter: every system playing encounters). The pages render each declared kind in words
(templates/campaigns/_log_entry.html and the systems' ``log_entry``); a test renders every
declared kind of every system (tests/i18n/test_journal_words.py). Journaling a kind nobody
declared logs a warning, and raises UnknownJournalKind under ``JOURNAL_STRICT`` (the test
settings), so a new kind cannot be written without being declared, nor declared without being
rendered.
"""

from __future__ import annotations

import contextlib
import logging
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any
from collections.abc import Iterable, Iterator

from campaigns.models import ActionRecord, RollRecord
from campaigns.versions import version_bump_pieces
from gamerules.d100 import Grade
from gamerules.dice import DiceRoll

logger = logging.getLogger(__name__)


class UnknownJournalKind(LookupError):
    """A journal kind no app declared (``register_kinds``): a programming error."""


@dataclass(frozen=True)
class KindScope:
    """Where a declared kind is written: ``system`` (a rule system's code) or ``play_mode``
    (campaigns.rule_systems.BOARD or ENCOUNTER: every system playing so), or neither (any
    system)."""

    system: str | None = None
    play_mode: str | None = None


_KINDS: dict[str, KindScope] = {}


def register_kinds(*kinds: str, system: str | None = None, play_mode: str | None = None) -> None:
    """Declare the journal kinds an app writes, for the rule system ``system``, for every
    system of ``play_mode``, or (neither) for every system. Declaring again replaces (app
    reloads in tests)."""
    scope = KindScope(system=system, play_mode=play_mode)
    for kind in kinds:
        _KINDS[kind] = scope


def unregister_kinds(*kinds: str) -> None:
    """Forget kinds (tests that declare their own)."""
    for kind in kinds:
        _KINDS.pop(kind, None)


def declared_kinds() -> dict[str, KindScope]:
    """Every declared kind with its scope."""
    return dict(_KINDS)


def kinds_for(system: str, play_mode: str | None) -> frozenset[str]:
    """The kinds a campaign of ``system`` (playing ``play_mode``) may hold in its journal."""
    return frozenset(k for k, s in _KINDS.items()
                     if (s.system is None or s.system == system)
                     and (s.play_mode is None or s.play_mode == play_mode))


def _check_kind(kind: str) -> None:
    if kind in _KINDS:
        return
    from django.conf import settings
    if getattr(settings, "JOURNAL_STRICT", False):
        raise UnknownJournalKind(f"journal kind {kind!r} is not declared "
                                 "(campaigns.journal.register_kinds)")
    logger.warning("journal kind %r is not declared (campaigns.journal.register_kinds)", kind)


@dataclass
class Recording:
    """What the code run inside :func:`recording` journaled: ``entries`` written (committed
    or not)."""

    entries: int = 0
    outer: Recording | None = None

    @property
    def wrote(self) -> bool:
        return self.entries > 0


_recording: ContextVar[Recording | None] = ContextVar("journal_recording", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Recording]:
    """Count the journal entries :func:`record_action` writes inside the block (this thread
    or task only; an enclosing block counts them too): a step's answer, which shows the
    entries its step journaled, reads none when the step journaled nothing
    (encounters.pages)."""
    written = Recording(outer=_recording.get())
    token = _recording.set(written)
    try:
        yield written
    finally:
        _recording.reset(token)


def roll_row(*, label: str, roll: DiceRoll, actor=None, target_score: int | None = None,
             grade: Grade | None = None, modifiers: Iterable = ()) -> dict[str, Any]:
    """The fields of one RollRecord, from a rule's roll. A test passes the ``target_score`` it
    was rolled against and the ``grade`` its rule gave (``gamerules.d100.Grade``); a roll that
    is not a test (damage, power) passes neither. ``success`` is not written: the database
    derives it from the grade (campaigns.models.RollRecord)."""
    return {
        "actor": actor,
        "label": label,
        "expression": roll.expression,
        "faces": [f.sign * f.face for f in roll.faces],
        "total": roll.total,
        "target_score": target_score,
        "grade": grade.value if grade is not None else "",
        "modifiers": [asdict(m) for m in modifiers],
    }


def record_action(*, campaign, kind: str, now: datetime, user=None, actor=None, target=None,  # noqa: PLR0913  ActionRecord's columns, named
                  cost: Decimal | int = 0, summary: dict | None = None,
                  rolls: Iterable[dict[str, Any]] = (), bump: bool = True) -> ActionRecord:
    """Store an action and its rolls: two INSERT statements whatever the number of rolls.
    ``cost`` is in the unit of the campaign's rule system (action points on the real-time
    board, actions or MP in an encounter; ActionRecord.cost); ``rolls`` are ``roll_row`` dicts.
    After commit, the versions of the board tiles where actor and target stand move (or the
    campaign's: campaigns.versions), so the boards that show them render again. ``kind`` is
    one of the declared kinds (``register_kinds``). ``bump=False``: the entry changes nothing a
    board or sheet shows (the chat's free roll), no version moves and nothing is announced."""
    _check_kind(kind)
    action = ActionRecord.objects.create(
        campaign=campaign, kind=kind, user=user, actor=actor, target=target, cost=cost,
        summary=summary or {}, created_at=now)
    RollRecord.objects.bulk_create(
        [RollRecord(action=action, created_at=now, **row) for row in rolls])
    written = _recording.get()
    while written is not None:
        written.entries += 1
        written = written.outer
    if bump:
        version_bump_pieces(campaign_id=campaign.pk, actor=actor, target=target, kind=kind)
    return action
