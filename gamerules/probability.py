"""Exact dice distributions with icepool, from the same notation as ``gamerules.dice``."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from gamerules.dice import parse


@lru_cache(maxsize=256)
def distribution(expression: str) -> icepool.Die:
    """The exact distribution of ``expression`` (DiceNotationError when it is not notation)."""
    die = icepool.Die([0])
    for term in parse(expression):
        part = icepool.Die([term.sides]) if term.count == 0 else term.count @ icepool.d(term.sides)
        die = die + part if term.sign > 0 else die - part
    return die


def mean(expression: str) -> Fraction:
    return Fraction(distribution(expression).mean())


def variance(expression: str) -> Fraction:
    return Fraction(distribution(expression).variance())


def probability_at_most(expression: str, value: int) -> Fraction:
    """P(total <= value)."""
    return Fraction(distribution(expression).probability("<=", value))
