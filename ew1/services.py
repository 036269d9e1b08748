"""Eternal War One II character services: creation from given values (the end of one-step
creation, ew1.system.create_character, and of the step-by-step flow, ew1.creation) and the
game master's creatures, doors and objects."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import InvalidInput
from campaigns.journal import record_action
from campaigns.models import Board, Campaign
from characters.models import Character
from characters.services import character_place
from ew1.models import EternalWarSheet
from ew1.regeneration import unix
from gamerules.dice import RandomSource
from gamerules.ew1.progression import pa_cap, pv_max
from gamerules.ew1.skills import base_skills


def character_create_from_values(*, user, campaign: Campaign, name: str, values: dict[str, int],
                                 rng: RandomSource, now: datetime, summary: dict,
                                 rolls: list[dict]) -> Character:
    """Store a new character with ``values`` as its characteristics, incarnate it on a free cell
    and journal its creation with ``rolls`` (RollRecord fields). Call inside a transaction,
    after ``new_character_name``."""
    params = campaign.parameters
    try:
        with transaction.atomic():
            character = Character.objects.create(campaign=campaign, owner=user, name=name)
    except IntegrityError:
        raise InvalidInput("name_taken", name=name) from None
    ts = unix(now)
    pa = pa_cap(0, base=params.pa_base, levels_per_bonus=params.pa_cap_levels_per_bonus)
    pv = pv_max(0, base=params.pv_base, per_level=params.pv_per_level)
    EternalWarSheet.objects.create(
        character=character, **values, level=0, xp=0, skills=base_skills(values),
        pa=pa, pa_max=pa, pa_anchor=ts, pv=pv, pv_max=pv, pv_anchor=ts)
    board = Board.objects.filter(campaign=campaign).first()
    if board is not None:
        character_place(character=character, board=board, rng=rng)
    record_action(campaign=campaign, kind="create", now=now, user=user, actor=character,
                  summary={"characteristics": values, **summary},
                  rolls=[{**row, "actor": character} for row in rolls])
    return character


@transaction.atomic
def piece_create(*, campaign: Campaign, kind: str, name: str, x: int, y: int, pv: int,  # noqa: PLR0913  the piece's columns
                 fixed_reduction: int, characteristics: dict[str, int] | None = None,
                 skills: dict[str, int] | None = None, level: int = 0,
                 now: datetime | None = None) -> Character:
    """Put a creature, a door or an object (no owner, no LUK) on the campaign's board at (x, y).
    Doors and objects have 0 in every characteristic and skill; creatures get what is given
    (default: the level-1 bases of 10 everywhere). Raises InvalidInput (kind, cell,
    "name_taken": names are unique per campaign whatever their case)."""
    if kind not in (Character.Kind.CREATURE, Character.Kind.DOOR, Character.Kind.OBJECT):
        raise InvalidInput("piece_creature_door")
    board = campaign.board
    if not board.contains(x, y) or Character.objects.filter(board=board, x=x, y=y).exists():
        raise InvalidInput("cell_off_board")
    if Character.objects.filter(campaign=campaign, name__iexact=name).exists():
        raise InvalidInput("name_taken", name=name)
    values = characteristics or {code: 10 if kind == Character.Kind.CREATURE else 0
                                 for code in ("FOR", "DEF", "TAI", "INT", "DEX")}
    params = campaign.parameters
    ts = unix(now or timezone.now())
    try:
        with transaction.atomic():  # lost a race for the name or the cell since the checks
            character = Character.objects.create(
                campaign=campaign, kind=kind, name=name, board=board, x=x, y=y,
                first_action_at=now or timezone.now())
    except IntegrityError:
        if Character.objects.filter(campaign=campaign, name__iexact=name).exists():
            raise InvalidInput("name_taken", name=name) from None
        raise InvalidInput("cell_off_board") from None
    EternalWarSheet.objects.create(
        character=character, **{k: v for k, v in values.items() if k != "LUK"}, LUK=None,
        level=level, skills=skills or base_skills({**values, "LUK": 0}),
        pa=params.pa_base, pa_max=params.pa_base, pa_anchor=ts, pv=pv, pv_max=pv, pv_anchor=ts,
        fixed_reduction=fixed_reduction)
    return character
