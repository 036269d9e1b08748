"""Points gained at each level and how they may be spent.

Source: 000_afeb9d2c9ccd2b72.txt, "Évolution des points de compétences" and "Évolution des
caracs". The seed lists 15, 14, 13, 12, 12, 11, 10, ..., 7 at level 10, 6, 5, then 4 from level 13
to 100, and says the total is 500; those values add up to 474 (levels 8 and 9 filled in as 9 and
8). We keep the listed values, so the total is 474 (docs/rules/eternal-war-one-ii.md, "Skill
points"). The per-skill limit per level-up is level // 3, which is 0 at levels 1 and 2: we take
max(``skill_cap_floor``, level // 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from gamerules.errors import RuleError
from gamerules.ew1.errors import MESSAGES
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.skills import SKILLS_BY_CODE
from gamerules.tables import RangeTable

SKILL_POINTS = RangeTable([
    (0, 0, 0), (1, 1, 15), (2, 2, 14), (3, 3, 13), (4, 4, 12), (5, 5, 12), (6, 6, 11),
    (7, 7, 10), (8, 8, 9), (9, 9, 8), (10, 10, 7), (11, 11, 6), (12, 12, 5), (13, 100, 4),
])


class LevelUpError(RuleError):
    code = "invalid_level_up"
    messages = MESSAGES


def skill_points_for_level(level: int) -> int:
    """Skill points granted on reaching ``level``."""
    return SKILL_POINTS.lookup(level)


def points_between(old_level: int, new_level: int, *, characteristic_points_per_level: int
                   ) -> tuple[int, int]:
    """(skill points, characteristic points) granted by going from ``old_level`` to
    ``new_level``."""
    levels = range(old_level + 1, new_level + 1)
    return (sum(skill_points_for_level(lvl) for lvl in levels),
            characteristic_points_per_level * len(levels))


def per_skill_cap(level: int, *, floor: int) -> int:
    return max(floor, level // 3)


@dataclass(frozen=True)
class Room:
    """One skill or characteristic on the level-up page: its value now, the value it can never
    pass, and the most points this level-up may still add to it."""

    code: str
    current: int
    maximum: int
    most: int


def skill_rooms(*, level: int, skills: Mapping[str, int], skill_points: int,
                skill_cap_floor: int, already_raised: Mapping[str, int] | None = None
                ) -> list[Room]:
    """Each skill (seed order) with the most points it may take now: the smallest of the
    per-skill cap left this level (``per_skill_cap`` minus ``already_raised``), the room below
    its maximum, and the banked ``skill_points``; never below 0. ``validate_allocation``
    accepts exactly these amounts, one skill at a time."""
    cap = per_skill_cap(level, floor=skill_cap_floor)
    already_raised = already_raised or {}
    rooms = []
    for rule in SKILLS_BY_CODE.values():
        current = skills.get(rule.code, 0)
        most = min(cap - already_raised.get(rule.code, 0), rule.maximum - current, skill_points)
        rooms.append(Room(rule.code, current, rule.maximum, max(0, most)))
    return rooms


def characteristic_rooms(*, characteristics: Mapping[str, int], characteristic_points: int,
                         characteristic_max: int) -> list[Room]:
    """Each characteristic with the most points it may take now: the room below
    ``characteristic_max`` and the banked points; never below 0."""
    return [Room(code, characteristics[code], characteristic_max,
                 max(0, min(characteristic_max - characteristics[code], characteristic_points)))
            for code in CODES]


@dataclass(frozen=True)
class Allocation:
    skills: dict[str, int]
    characteristics: dict[str, int]


def validate_allocation(*, level: int, skills: Mapping[str, int],  # noqa: PLR0913  sheet and request, named
                        characteristics: Mapping[str, int], skill_points: int,
                        characteristic_points: int, add_skills: Mapping[str, int],
                        add_characteristics: Mapping[str, int], skill_cap_floor: int,
                        characteristic_max: int,
                        already_raised: Mapping[str, int] | None = None) -> Allocation:
    """The new skills and characteristics after spending points. Every addition is a positive
    whole number; the totals fit the banked points; no skill gets more than the per-skill cap
    in one level-up (``already_raised`` counts what was spent since the last level gained) nor
    passes its maximum (Bagarre 100, Esquive 90, others 95); no
    characteristic passes ``characteristic_max``. Raises LevelUpError."""
    for name, table, known in (("skill", add_skills, SKILLS_BY_CODE),
                               ("characteristic", add_characteristics, CODES)):
        unknown = set(table) - set(known)
        if unknown:
            raise LevelUpError(f"unknown_{name}", unknown=", ".join(sorted(unknown)))
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in table.values()):
            raise LevelUpError("points_are_positive")
    spent_skills, spent_chars = sum(add_skills.values()), sum(add_characteristics.values())
    if spent_skills > skill_points:
        raise LevelUpError("skill_points_spent", spent_skills=spent_skills,
                           skill_points=skill_points)
    if spent_chars > characteristic_points:
        raise LevelUpError("characteristic_points_spent", spent_chars=spent_chars,
                           characteristic_points=characteristic_points)
    cap = per_skill_cap(level, floor=skill_cap_floor)
    new_skills = dict(skills)
    already_raised = already_raised or {}
    for code, points in add_skills.items():
        if points + already_raised.get(code, 0) > cap:
            raise LevelUpError("most_points_skill", cap=cap, level=level, name=code)
        maximum = SKILLS_BY_CODE[code].maximum
        if new_skills.get(code, 0) + points > maximum:
            raise LevelUpError("cannot_go_above", name=code, maximum=maximum)
        new_skills[code] = new_skills.get(code, 0) + points
    new_chars = dict(characteristics)
    for code, points in add_characteristics.items():
        if new_chars[code] + points > characteristic_max:
            raise LevelUpError("cannot_go_above", name=code, maximum=characteristic_max)
        new_chars[code] += points
    return Allocation(new_skills, new_chars)
