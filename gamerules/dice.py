"""Dice notation: parse with d20, roll with an injected random source.

d20 parses the notation (``1d100``, ``3d6``, ``2d6+6``, ``-1d4``, ``1d3``); it rolls with the
module-level ``random``, so we evaluate its parse tree ourselves with the caller's source.
Only sums of dice and whole numbers are accepted: keep/drop/explode operators are refused because
no rule of ours uses them and their results could not be replayed from the stored faces.
"""

from __future__ import annotations

import warnings
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from gamerules.errors import RuleError, gettext_noop

with warnings.catch_warnings():
    # lark-parser, d20's parser, imports the deprecated sre_parse module.
    warnings.simplefilter("ignore", DeprecationWarning)
    import d20
    from d20 import diceast

MAX_DICE = 100
MAX_SIDES = 1000
MIN_SIDES = 2  # a one-sided die is no roll


class RandomSource(Protocol):
    """What the rules need from a random source (``random.Random`` fits)."""

    def randint(self, a: int, b: int) -> int: ...


MESSAGES: dict[str, str] = {
    "invalid_dice": gettext_noop("This is not dice notation: write dice as 2d6+1, for example."),
    "dice_empty": gettext_noop("No dice written: write them as 2d6+1, for example."),
    "dice_space_in_term": gettext_noop(
        "“%(expression)s”: the space between “%(before)s” and “%(after)s” splits a term; spaces "
        "may only separate terms (e.g. 2d6 + 1). Write the term without spaces or join the "
        "terms with + or -."),
    "dice_ends_early": gettext_noop(
        "“%(expression)s” stops too early: a number or dice must follow “%(last)s” "
        "(e.g. 2d6+1)."),
    "dice_no_sides": gettext_noop(
        "“%(expression)s”: a die needs its number of sides after the d (e.g. 2d6)."),
    "dice_unclosed": gettext_noop("“%(expression)s”: a parenthesis is opened and never closed."),
    "dice_stray_text": gettext_noop(
        "“%(expression)s”: “%(text)s” (character %(position)s) has no place in dice notation. "
        "Write dice as NdS (2d6) and whole numbers, joined by + or - (e.g. 2d6+1)."),
    "dice_count_sides": gettext_noop(
        "“%(expression)s”: between 1 and %(max_dice)s dice, of 2 to %(max_sides)s sides each."),
    "dice_sums_only": gettext_noop(
        "“%(expression)s”: only dice and whole numbers added or subtracted are allowed (e.g. "
        "2d6+1, -1d4): no keeping, dropping, exploding, multiplying, dividing or decimals."),
}


class DiceNotationError(RuleError, ValueError):
    """The text is not dice notation that Percentile accepts: the key says what is wrong in
    the writer's terms (a space inside a term, an unfinished expression, a stray character,
    too many dice, an operator we refuse), never the parser's own words. A ValueError too, for
    the callers that catch that."""

    code = "invalid_dice"
    messages = MESSAGES


# Whitespace between two characters of one term ("1d20 5", "1 d6", "1d 6"): a typo, never a
# separator. Spaces may only stand next to a sign or a parenthesis ("2d6 + 1", "- 1d4").
_SPACE_INSIDE_TERM = re.compile(r"([0-9a-z])\s+([0-9a-z])", re.IGNORECASE)


@dataclass(frozen=True)
class DieFace:
    """One die thrown: its number of sides, the face shown, and its sign in the expression."""

    sides: int
    face: int
    sign: int = 1


@dataclass(frozen=True)
class DiceRoll:
    """The outcome of rolling an expression.

    ``faces`` lists every die thrown, in order; ``constant`` is the sum of the plain numbers;
    ``total`` = signed faces + constant.
    """

    expression: str
    faces: tuple[DieFace, ...]
    constant: int
    total: int

    @property
    def face_values(self) -> list[int]:
        return [f.face for f in self.faces]


@dataclass(frozen=True)
class _Term:
    sign: int
    count: int  # 0 for a plain number
    sides: int  # the number itself when count == 0


@lru_cache(maxsize=512)
def parse(expression: str) -> tuple[_Term, ...]:
    """Parse ``expression`` into signed terms. Raises DiceNotationError on anything else,
    including a space inside a term (``1d20 5`` is refused, not read as ``1d205``)."""
    inner = _SPACE_INSIDE_TERM.search(expression or "")
    if inner:
        raise DiceNotationError("dice_space_in_term", expression=expression,
                                before=inner.group(1), after=inner.group(2))
    text = (expression or "").replace(" ", "").lower()
    if not text:
        raise DiceNotationError("dice_empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise _syntax_error(expression, text, exc) from None
    terms: list[_Term] = []
    _collect(tree.roll, 1, terms, expression)
    return tuple(terms)


def _collect(node: Any, sign: int, terms: list[_Term], expression: str) -> None:
    if isinstance(node, diceast.Parenthetical):
        _collect(node.value, sign, terms, expression)
    elif isinstance(node, diceast.UnOp) and node.op in "+-":
        _collect(node.value, -sign if node.op == "-" else sign, terms, expression)
    elif isinstance(node, diceast.BinOp) and node.op in ("+", "-"):
        _collect(node.left, sign, terms, expression)
        _collect(node.right, -sign if node.op == "-" else sign, terms, expression)
    elif isinstance(node, diceast.Literal) and isinstance(node.value, int):
        terms.append(_Term(sign=sign, count=0, sides=node.value))
    elif isinstance(node, diceast.OperatedDice) and not node.operations:
        _collect(node.value, sign, terms, expression)
    elif isinstance(node, diceast.Dice) and isinstance(node.size, int):
        if not 1 <= node.num <= MAX_DICE or not MIN_SIDES <= node.size <= MAX_SIDES:
            raise DiceNotationError("dice_count_sides", expression=expression, max_dice=MAX_DICE,
                                    max_sides=MAX_SIDES)
        terms.append(_Term(sign=sign, count=node.num, sides=node.size))
    else:
        raise DiceNotationError("dice_sums_only", expression=expression)


def _syntax_error(expression: str, text: str, exc: Any) -> DiceNotationError:
    """What d20's syntax error means for the writer of ``text`` (``expression`` without its
    spaces): it ends where more was needed, a die lacks its sides, a parenthesis is left open,
    or a character has no place in the notation (its position counted in ``text``)."""
    got = getattr(exc, "got", None)
    expected = set(getattr(exc, "expected", ()) or ())
    if "DICE_VALUE" in expected:
        return DiceNotationError("dice_no_sides", expression=expression)
    if got is None or getattr(got, "type", "") == "$END":
        if "RPAR" in expected:
            return DiceNotationError("dice_unclosed", expression=expression)
        return DiceNotationError("dice_ends_early", expression=expression, last=text)
    column = int(getattr(exc, "col", 1) or 1)
    return DiceNotationError("dice_stray_text", expression=expression,
                             text=str(got) or text[column - 1:], position=column)


def validate(expression: str) -> str:
    """Return the normalised expression, or raise DiceNotationError."""
    parse(expression)
    return normalise(expression)


def normalise(expression: str) -> str:
    return (expression or "").replace(" ", "").lower()


def roll(expression: str, rng: RandomSource) -> DiceRoll:
    """Roll ``expression`` with ``rng``. Raises DiceNotationError for bad notation."""
    faces: list[DieFace] = []
    constant = 0
    for term in parse(expression):
        if term.count == 0:
            constant += term.sign * term.sides
            continue
        for _ in range(term.count):
            faces.append(DieFace(sides=term.sides, face=rng.randint(1, term.sides), sign=term.sign))
    total = sum(f.sign * f.face for f in faces) + constant
    return DiceRoll(normalise(expression), tuple(faces), constant, total)


def bounds(expression: str) -> tuple[int, int]:
    """Smallest and largest total ``expression`` can give."""
    low = high = 0
    for term in parse(expression):
        if term.count == 0:
            low += term.sign * term.sides
            high += term.sign * term.sides
        elif term.sign > 0:
            low += term.count
            high += term.count * term.sides
        else:
            low -= term.count * term.sides
            high -= term.count
    return low, high


def d100(rng: RandomSource) -> DiceRoll:
    """One percentile die, 1 to 100."""
    return roll("1d100", rng)
