"""The reaction prompt: pending, then answered by the target's side, or defaulted when the
time to answer is over.

Source: issue 11, item 5 ("the encounter waits for the target's choice [...] a campaign
parameter sets how long to wait before the default ("no reaction")"); ENCOUNTER-NOTES.md,
"Reactions" (midi-qol waits 10-30 s; "no reaction" must roll no dice).

States: PENDING -> ANSWERED (``answer`` before the deadline) or PENDING -> DEFAULTED
(``default_if_due`` at or after the deadline). Both ends are final: a later answer is stale and
refused (ReactionNotPending), which is what makes two answers at once resolve one reaction.
The deadline itself is already too late (``now >= deadline``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from gamerules.encounter.errors import ReactionExpired, ReactionNotPending, UnknownReactionOption

NO_REACTION = "none"


class Status(StrEnum):
    PENDING = "pending"
    ANSWERED = "answered"
    DEFAULTED = "defaulted"


@dataclass(frozen=True)
class Prompt:
    """``options``: the choices' keys (the system's), ``default`` among them; ``choice`` is set
    once the prompt is answered or defaulted."""

    options: tuple[str, ...]
    deadline: datetime
    default: str = NO_REACTION
    status: Status = Status.PENDING
    choice: str = ""


def prompt(*, options: tuple[str, ...], now: datetime, timeout_seconds: int,
           default: str = NO_REACTION) -> Prompt:
    """A pending prompt that defaults ``timeout_seconds`` after ``now``. The default is added
    to the options when missing (one may always not react)."""
    if default not in options:
        options = (default, *options)
    return Prompt(options=tuple(options), deadline=now + timedelta(seconds=timeout_seconds),
                  default=default)


def answer(p: Prompt, choice: str, now: datetime) -> Prompt:
    """The answered prompt. Raises ReactionNotPending (already answered or defaulted),
    ReactionExpired (``now`` at or after the deadline: the default stands), UnknownReactionOption."""
    if p.status is not Status.PENDING:
        raise ReactionNotPending()
    if now >= p.deadline:
        raise ReactionExpired()
    if choice not in p.options:
        raise UnknownReactionOption(choice=choice)
    return replace(p, status=Status.ANSWERED, choice=choice)


def default_if_due(p: Prompt, now: datetime) -> Prompt | None:
    """The defaulted prompt when it is pending and ``now`` is at or after its deadline, else
    None (nothing to do)."""
    if p.status is not Status.PENDING or now < p.deadline:
        return None
    return replace(p, status=Status.DEFAULTED, choice=p.default)
