"""One schema for a homebrew attack waiting for its reaction: typed values <-> JSON.

A declared attack is stored twice as data: on its DeclaredAttack row (the hit test as
``test_record``) and, in an encounter, in the pending reaction's payload (``PendingAttack``).
Both are written and read by the function pairs here, nowhere else:

- ``test_record`` / ``test_from_record``: a D100Result (face, base, target, grade, rule,
  modifiers);
- ``result_from_record``: the rules' AttackResult again from the stored columns;
- ``pending_to_json`` / ``pending_from_json``: a ``PendingAttack``, versioned
  (``PAYLOAD_VERSION``). Version 1 (before issue 20: the display keys and the DeclaredAttack's
  id, no ``v``) is still read: it comes back not ``complete`` and the caller reads the row.

The payload keeps the display keys at its top (weapon, die, kind, damage, grade, description,
refused: the prompt and the journal show them; encounters.visibility drops grade, damage and
``order`` when the target is hidden), and the typed order under ``order``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from gamerules.d100 import D100Result, Grade
from gamerules.dice import MIN_SIDES, DiceRoll, DieFace
from gamerules.homebrew.attack import AttackKind, AttackResult, Weapon
from gamerules.homebrew.turn import Posture
from gamerules.modifiers import Modifier

PAYLOAD_VERSION = 2


def test_record(test: D100Result) -> dict[str, Any]:
    return {"face": test.roll.total, "base": test.base, "target": test.target,
            "grade": str(test.grade), "rule": test.rule,
            "modifiers": [m.as_record() for m in test.modifiers]}


def test_from_record(record: Mapping[str, Any]) -> D100Result:
    face = int(record["face"])
    return D100Result(DiceRoll("1d100", (DieFace(100, face),), 0, face), face, record["base"],
                      tuple(Modifier(m["label"], m["value"], m["source"])
                            for m in record["modifiers"]),
                      record["target"], Grade(record["grade"]), record["rule"])


test_record.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
test_from_record.__test__ = False  # type: ignore[attr-defined]


def damage_roll_of(expression: str, face: int | None, max_damage: int) -> DiceRoll | None:
    if face is None:
        return None
    if max_damage >= MIN_SIDES:
        return DiceRoll(expression, (DieFace(max_damage, face),), 0, face)
    return DiceRoll(expression, (), 1, face)


def result_from_record(*, weapon_name: str, die: str, kind: str, posture: str,  # noqa: PLR0913  the stored columns, named (result_record's keys)
                       test: Mapping[str, Any], damage_expression: str,
                       damage_face: int | None, damage: int, max_damage: int,
                       multiplier: str) -> AttackResult:
    """The rules' AttackResult from what was stored of it."""
    weapon = Weapon(weapon_name, die, AttackKind(kind))
    return AttackResult(
        weapon.kind, weapon, Posture(posture),
        "physique" if weapon.kind is AttackKind.PHYSICAL else "mental", test_from_record(test),
        damage_expression, damage_roll_of(damage_expression, damage_face, max_damage), damage,
        max_damage, Decimal(multiplier) if multiplier else None)


def result_record(result: AttackResult) -> dict[str, Any]:
    """The stored fields of ``result`` (``result_from_record``'s keywords)."""
    return {"weapon_name": result.weapon.name, "die": result.weapon.die,
            "kind": result.kind.value, "posture": result.posture.value,
            "test": test_record(result.test), "damage_expression": result.damage_expression,
            "damage_face": result.damage_roll.total if result.damage_roll else None,
            "damage": result.damage, "max_damage": result.max_damage,
            "multiplier": str(result.multiplier) if result.multiplier else ""}


@dataclass(frozen=True)
class PendingAttack:
    """An attack waiting for its target's answer: the DeclaredAttack's id (``attack``), who
    attacks whom (character ids), the round marker, the rolled ``result`` and what may answer
    it. In a payload only ``attack``, the display keys, ``round_key`` and ``result`` are
    stored: who attacks whom and the answers offered are the prompt's own (its actor, target
    and options), so that the payload names no character. ``complete`` is False for a
    version-1 payload (only ``attack`` and the display keys)."""

    attack: int
    description: str = ""
    refused: tuple[tuple[str, str], ...] = ()
    actor: int = 0
    target: int = 0
    round_key: str = ""
    result: AttackResult | None = None
    reactions: tuple[str, ...] = ()
    protectors: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return self.result is not None


def pending_to_json(p: PendingAttack) -> dict[str, Any]:
    """The payload stored with the encounter's prompt. Requires ``p.result``."""
    r = p.result
    if r is None:
        raise ValueError("a pending attack is stored with its result")
    return {"v": PAYLOAD_VERSION, "attack": p.attack, "weapon": r.weapon.name,
            "die": r.weapon.die, "kind": r.kind.value, "damage": r.damage,
            "grade": str(r.test.grade), "description": p.description,
            "refused": dict(p.refused),
            "order": {"round_key": p.round_key, **result_record(r)}}


def pending_from_json(data: Mapping[str, Any], *, actor: int = 0, target: int = 0,
                      options: Sequence[str] = ()) -> PendingAttack:
    """A payload of any version back, with the prompt's ``actor``, ``target`` (character ids)
    and ``options`` (the reactions, and "parry:<id>" for each ally). Raises KeyError or
    ValueError for a payload that is not one."""
    version = int(data.get("v", 1))
    refused = tuple((str(k), str(v)) for k, v in (data.get("refused") or {}).items())
    base = PendingAttack(attack=int(data["attack"]), description=str(data.get("description", "")),
                         refused=refused, actor=actor, target=target)
    if version == 1:
        return base
    if version != PAYLOAD_VERSION:
        raise ValueError(f"unknown homebrew attack payload version {version}")
    o = data["order"]
    result = result_from_record(
        weapon_name=o["weapon_name"], die=o["die"], kind=o["kind"], posture=o["posture"],
        test=o["test"], damage_expression=o["damage_expression"], damage_face=o["damage_face"],
        damage=int(o["damage"]), max_damage=int(o["max_damage"]), multiplier=o["multiplier"])
    reactions = tuple(k for k in options if ":" not in k)
    protectors = tuple(int(k.partition(":")[2]) for k in options if k.startswith("parry:"))
    return replace(base, round_key=str(o["round_key"]), result=result, reactions=reactions,
                   protectors=protectors)
