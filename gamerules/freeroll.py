"""Free rolls typed in the chat: ``/roll 2d6+3`` (a sum of dice) and ``/roll d100 <= 55`` (a
test against a target, graded by the campaign's rule system).

Pure: the caller passes the random source, the system's critical rule (``gamerules.d100``) and
the limit on the number of dice; the result says everything that happened (each die, the
total, and for a test its reading, target and grade). A test is one d100 alone against the final
target (``/roll d100 <= 55``): a free test has no modifiers of its own, whoever rolls it writes
the target they were given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamerules import dice
from gamerules.d100 import CriticalRule, D100Result, Grade
from gamerules.errors import RuleError, gettext_noop

COMMAND = "/roll"
MAX_TARGET = 1000  # a target beyond any die of ours: refused as a typo rather than graded

MESSAGES: dict[str, str] = {
    "invalid_roll": gettext_noop("This roll cannot be thrown: write /roll 2d6+3 or /roll d100 <= 55."),
    "roll_empty": gettext_noop("Write what to roll after /roll: /roll 2d6+3 or /roll d100 <= 55."),
    "roll_too_many_dice": gettext_noop(
        "“%(expression)s” throws %(count)s dice: a free roll throws at most %(max_dice)s."),
    "roll_test_d100_only": gettext_noop(
        "A test against a target is one d100 alone: /roll d100 <= 55 (not “%(expression)s”)."),
    "roll_bad_target": gettext_noop(
        "The target of a test is a whole number from 0 to %(max_target)s (e.g. /roll d100 <= 55)."),
}


class FreeRollError(RuleError):
    """A ``/roll`` the chat cannot throw: the key says why, in the writer's terms."""

    code = "invalid_roll"
    messages = MESSAGES


@dataclass(frozen=True)
class FreeRoll:
    """One free roll: ``roll`` every die thrown (faces 1-N as journaled); ``test`` the graded
    test when a target was given (its ``reading`` is what the system reads on the die: 0-99 in
    Eclipse Phase), else None."""

    expression: str
    roll: dice.DiceRoll
    test: D100Result | None = None

    @property
    def total(self) -> int:
        return self.roll.total

    @property
    def grade(self) -> Grade | None:
        return self.test.grade if self.test is not None else None


_TEST = re.compile(r"^(?P<expression>.*?)\s*<=\s*(?P<target>\S*)\s*$", re.DOTALL)
_D100 = {"d100", "1d100"}


def is_command(text: str) -> bool:
    """Whether a chat message is a ``/roll`` (the word alone, then a space or the end)."""
    head = text.lstrip()
    return head[:len(COMMAND)].lower() == COMMAND and head[len(COMMAND):][:1] in ("", " ", "\t")


def parse(text: str, *, max_dice: int) -> tuple[str, int | None]:
    """(expression, target or None) of a ``/roll`` message. Raises FreeRollError or
    dice.DiceNotationError for anything it cannot throw (nothing rolled)."""
    body = text.lstrip()[len(COMMAND):].strip()
    if not body:
        raise FreeRollError("roll_empty")
    target = None
    match = _TEST.match(body)
    if match:
        body, written = match.group("expression"), match.group("target")
        if not (written.isascii() and written.isdigit()) or int(written) > MAX_TARGET:
            raise FreeRollError("roll_bad_target", max_target=MAX_TARGET)
        target = int(written)
        if dice.normalise(body) not in _D100:
            raise FreeRollError("roll_test_d100_only", expression=body[:40])
    terms = dice.parse(body)
    count = sum(t.count for t in terms)
    if count > max_dice:
        raise FreeRollError("roll_too_many_dice", expression=dice.normalise(body)[:40],
                            count=count, max_dice=max_dice)
    return dice.normalise(body), target


def free_roll(text: str, rng: dice.RandomSource, *, rule: CriticalRule, max_dice: int
              ) -> FreeRoll:
    """Throw the ``/roll`` of ``text`` with ``rng``; a test is graded by ``rule``."""
    expression, target = parse(text, max_dice=max_dice)
    thrown = dice.roll(expression, rng)
    if target is None:
        return FreeRoll(expression, thrown)
    reading = rule.read(thrown.total)
    test = D100Result(thrown, reading, target, (), target, rule.grade(reading, target), rule.name)
    return FreeRoll(expression, thrown, test)
