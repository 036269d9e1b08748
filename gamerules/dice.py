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

with warnings.catch_warnings():
    # lark-parser, d20's parser, imports the deprecated sre_parse module.
    warnings.simplefilter("ignore", DeprecationWarning)
    import d20
    from d20 import diceast

MAX_DICE = 100
MAX_SIDES = 1000


class RandomSource(Protocol):
    """What the rules need from a random source (``random.Random`` fits)."""

    def randint(self, a: int, b: int) -> int: ...


class DiceNotationError(ValueError):
    """The text is not dice notation that Percentile accepts."""

    code = "invalid_dice"


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
        raise DiceNotationError(
            f"{expression!r}: a space between {inner.group(1)!r} and {inner.group(2)!r} splits a "
            "term; spaces may only separate terms (e.g. 2d6 + 1). Write the term without spaces "
            "or join the terms with + or -.")
    text = (expression or "").replace(" ", "").lower()
    if not text:
        raise DiceNotationError("Empty dice expression.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise DiceNotationError(f"{expression!r} is not dice notation ({exc}).") from None
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
        if not 1 <= node.num <= MAX_DICE or not 2 <= node.size <= MAX_SIDES:
            raise DiceNotationError(
                f"{expression!r}: between 1 and {MAX_DICE} dice of 2 to {MAX_SIDES} sides."
            )
        terms.append(_Term(sign=sign, count=node.num, sides=node.size))
    else:
        raise DiceNotationError(
            f"{expression!r}: only sums of dice and whole numbers are allowed (e.g. 2d6+1, -1d4)."
        )


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
