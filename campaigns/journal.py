"""Writing the game's journal: one ActionRecord per action, one RollRecord per die roll."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable

from campaigns.models import ActionRecord, RollRecord
from campaigns.versions import version_bump_pieces
from gamerules.d100 import Grade
from gamerules.dice import DiceRoll


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


def record_action(*, campaign, kind: str, now: datetime, user=None, actor=None, target=None,
                  cost: Decimal | int = 0, summary: dict | None = None,
                  rolls: Iterable[dict[str, Any]] = ()) -> ActionRecord:
    """Store an action and its rolls: two INSERT statements whatever the number of rolls.
    ``cost`` is in the unit of the campaign's rule system (action points on the real-time
    board, actions or MP in an encounter; ActionRecord.cost); ``rolls`` are ``roll_row`` dicts.
    After commit, the versions of the board tiles where actor and target stand move (or the
    campaign's: campaigns.versions), so the boards that show them render again."""
    action = ActionRecord.objects.create(
        campaign=campaign, kind=kind, user=user, actor=actor, target=target, cost=cost,
        summary=summary or {}, created_at=now)
    RollRecord.objects.bulk_create(
        [RollRecord(action=action, created_at=now, **row) for row in rolls])
    version_bump_pieces(campaign_id=campaign.pk, actor=actor, target=target, kind=kind)
    return action
