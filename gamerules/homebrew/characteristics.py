"""Characteristics: three mains from a shared budget, two subs under each.

Source: 002_80873c4f1892db54.txt, "Caractéristiques": "chaque personnage dispose d'un total de
170 points de statistiques à répartir"; "des points peuvent être investis à hauteur du chiffre
des dizaines de la caractéristique principale (par exemple, avec 60 en Physique, on dispose de 6
points à répartir entre Force et Dextérité), avec un maximum de 6 points par sous-catégorie".

Choices (docs/rules/homebrew-d100.md, "Characteristics"): the budget must be spent exactly
(``spend_all_points``); a main's sub points are ``main // 10`` (100 gives 10, not the "0" of its
tens digit), and may be left unspent; each sub is 0 to ``sub_max``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from gamerules.errors import gettext_noop
from gamerules.homebrew.errors import HomebrewError
from gamerules.homebrew.params import HomebrewParameters

PHYSIQUE, PERCEPTION, MENTAL = "physique", "perception", "mental"
FORCE, DEXTERITE, SENS, ETHER, ESPRIT, INTELLIGENCE = (
    "force", "dexterite", "sens", "ether", "esprit", "intelligence")
MAINS = (PHYSIQUE, PERCEPTION, MENTAL)
SUBS: dict[str, tuple[str, str]] = {
    PHYSIQUE: (FORCE, DEXTERITE), PERCEPTION: (SENS, ETHER), MENTAL: (ESPRIT, INTELLIGENCE)}
MAIN_OF = {sub: main for main, pair in SUBS.items() for sub in pair}
CODES = MAINS + tuple(MAIN_OF)
LABELS = {PHYSIQUE: "Physique", PERCEPTION: "Perception", MENTAL: "Mental", FORCE: "Force",
          DEXTERITE: "Dextérité", SENS: "Sens", ETHER: "Éther", ESPRIT: "Esprit",
          INTELLIGENCE: "Intelligence"}


# The English template of each problem's key (its code, or a finer key for points_total).
PROBLEMS: dict[str, str] = {
    "unknown": gettext_noop("%(field)s is not a characteristic."),
    "missing": gettext_noop("%(label)s is missing."),
    "not_whole": gettext_noop("%(label)s must be a whole number."),
    "main_out_of_range": gettext_noop("%(label)s must be between %(low)s and %(high)s "
                                      "(here %(value)s)."),
    "points_left": gettext_noop("Physique, Perception and Mental must add up to %(budget)s "
                                "(here %(spent)s: %(left)s left to spend)."),
    "points_over": gettext_noop("Physique, Perception and Mental must add up to %(budget)s "
                                "(here %(spent)s: %(over)s too many)."),
    "points_above": gettext_noop("Physique, Perception and Mental add up to at most %(budget)s "
                                 "(here %(spent)s: %(over)s too many)."),
    "sub_out_of_range": gettext_noop("%(label)s must be between 0 and %(high)s "
                                     "(here %(value)s)."),
    "sub_points": gettext_noop("%(first)s and %(second)s share %(budget)s points with %(main)s "
                               "in %(label)s (here %(spent)s)."),
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a sheet: ``field`` (a code, or "*" for the whole sheet), a stable
    ``code``, the numbers of the message in ``params``, the names it shows in ``words``
    (labels, codes) and the key of its template in PROBLEMS (``key``, by default the code)."""

    field: str
    code: str
    params: dict[str, Any]
    words: dict[str, Any]
    key: str = ""

    def render(self, translate: Callable[[str], str] = str) -> str:
        return translate(PROBLEMS[self.key or self.code]) % {**self.params, **self.words}

    @property
    def message(self) -> str:
        """The English message."""
        return self.render()


class CharacteristicsError(HomebrewError):
    """``problems`` lists every problem; ``errors`` maps each field to its messages joined."""

    code = "invalid_characteristics"
    messages: ClassVar[dict[str, str]] = {**HomebrewError.messages, **PROBLEMS}

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__(problems=[p.code for p in problems])
        self.errors: dict[str, str] = {}
        for p in problems:
            self.errors[p.field] = "; ".join(filter(None, [self.errors.get(p.field), p.message]))

    def render(self, translate: Callable[[str], str] = str) -> str:
        """Every problem's message, joined."""
        return "; ".join(p.render(translate) for p in self.problems)


@dataclass(frozen=True)
class Characteristics:
    physique: int
    perception: int
    mental: int
    force: int
    dexterite: int
    sens: int
    ether: int
    esprit: int
    intelligence: int

    def value(self, code: str) -> int:
        if code not in CODES:
            raise KeyError(code)
        return int(getattr(self, code))

    def as_dict(self) -> dict[str, int]:
        return {code: self.value(code) for code in CODES}


def suggested_mains(params: HomebrewParameters) -> dict[str, int]:
    """The creation page's first values of the mains: the budget shared as evenly as the caps
    allow (170 -> 57, 57, 56), each within [characteristic_min, characteristic_max]."""
    share, extra = divmod(params.characteristic_points, len(MAINS))
    return {main: max(params.characteristic_min,
                      min(params.characteristic_max, share + (1 if i < extra else 0)))
            for i, main in enumerate(MAINS)}


def suggested_sheet(params: HomebrewParameters) -> dict[str, int]:
    """Every characteristic of a sheet the campaign's rules take, for a character the game
    master adds without choosing its numbers: the mains of ``suggested_mains`` and each pair
    of subs sharing its main's tens as evenly as ``sub_max`` allows (57 -> 3 and 2)."""
    values = suggested_mains(params)
    for main, (first, second) in SUBS.items():
        points = min(sub_points(values[main]), 2 * params.sub_max)
        values[first] = min(params.sub_max, points - points // 2)
        values[second] = min(params.sub_max, points // 2)
    return values


def sub_points(main: int) -> int:
    """Points the subs of a main share: its tens (60 -> 6; 100 -> 10)."""
    return max(0, main) // 10


def validate_characteristics(values: Mapping[str, Any], params: HomebrewParameters, *,
                             budgets: bool = True) -> Characteristics:
    """The sheet from ``values`` (code -> points; every code of CODES). Raises
    CharacteristicsError listing every problem: unknown or missing codes, non-integers, a main
    outside [characteristic_min, characteristic_max], a sub outside [0, sub_max] (the limits),
    and with ``budgets`` (a player character's creation) the mains not adding up to
    ``characteristic_points`` (or above it) and a pair of subs above its main's tens. The game
    master's creatures keep the limits but not the budgets (``budgets=False``)."""
    problems, clean = _whole_values(values)
    problems += _main_problems(clean, params, budgets=budgets)
    problems += _sub_problems(clean, params, budgets=budgets)
    if problems:
        raise CharacteristicsError(problems)
    return Characteristics(**clean)


def _whole_values(values: Mapping[str, Any]) -> tuple[list[Problem], dict[str, int]]:
    """The unknown codes, then each code of CODES missing or not a whole number, and the
    whole values by code."""
    problems = [Problem(code, "unknown", {}, {"field": code})
                for code in sorted(set(values) - set(CODES))]
    clean: dict[str, int] = {}
    for code in CODES:
        raw = values.get(code)
        if raw is None:
            problems.append(Problem(code, "missing", {}, {"label": LABELS[code]}))
        elif not isinstance(raw, int) or isinstance(raw, bool):
            problems.append(Problem(code, "not_whole", {}, {"label": LABELS[code]}))
        else:
            clean[code] = raw
    return problems, clean


def _main_problems(clean: Mapping[str, int], params: HomebrewParameters, *, budgets: bool
                   ) -> list[Problem]:
    """Each main outside [characteristic_min, characteristic_max], then (``budgets``) the
    mains' total against ``characteristic_points``."""
    problems: list[Problem] = []
    low, high = params.characteristic_min, params.characteristic_max
    for main in MAINS:
        if main in clean and not low <= clean[main] <= high:
            problems.append(Problem(main, "main_out_of_range", {"low": low, "high": high,
                                                                "value": clean[main]},
                                    {"label": LABELS[main]}))
    if budgets and all(m in clean for m in MAINS):
        spent, budget = sum(clean[m] for m in MAINS), params.characteristic_points
        if spent > budget or (params.spend_all_points and spent != budget):
            left = budget - spent
            problems.append(Problem("*", "points_total", {"budget": budget, "spent": spent},
                                    {"left": left, "over": -left},
                                    "points_left" if left > 0 else
                                    "points_over" if params.spend_all_points else "points_above"))
    return problems


def _sub_problems(clean: Mapping[str, int], params: HomebrewParameters, *, budgets: bool
                  ) -> list[Problem]:
    """For each main: its subs outside [0, sub_max], then (``budgets``) the pair above the
    main's tens (``sub_points``)."""
    problems: list[Problem] = []
    for main, pair in SUBS.items():
        for sub in pair:
            if sub in clean and not 0 <= clean[sub] <= params.sub_max:
                problems.append(Problem(sub, "sub_out_of_range",
                                        {"high": params.sub_max, "value": clean[sub]},
                                        {"label": LABELS[sub]}))
        if budgets and main in clean and all(s in clean for s in pair):
            budget, spent = sub_points(clean[main]), clean[pair[0]] + clean[pair[1]]
            if spent > budget:
                problems.append(Problem(
                    main, "sub_points", {"budget": budget, "spent": spent, "main": clean[main]},
                    {"first": LABELS[pair[0]], "second": LABELS[pair[1]], "label": LABELS[main]}))
    return problems
