"""Character services: creation and placement on the board."""

from __future__ import annotations

import random
import unicodedata
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import rule_systems
from campaigns.errors import BoardFull, CampaignClosed, InvalidInput, NotFound
from campaigns.journal import record_action
from campaigns.models import Board, Campaign
from characters.models import Character, EternalWarSheet
from characters.regeneration import unix
from gamerules.dice import RandomSource
from gamerules.ew1.progression import pa_cap, pv_max
from gamerules.ew1.skills import base_skills

NAME_MAX = 60
PLACEMENT_TRIES = 50


def _visible(name: str) -> bool:
    """At least one character that shows: not only spaces, zero-width or control characters
    (Unicode categories Z* and C*), which ``str.strip`` leaves in place."""
    return any(unicodedata.category(ch)[0] not in "ZC" for ch in name)


def new_character_name(*, campaign: Campaign, name: str) -> str:
    """The stripped ``name`` if a new character may take it in ``campaign``. Raises InvalidInput
    (empty, too long, taken), CampaignClosed, RuleSystemNotPlayable."""
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise InvalidInput("name_length", name_max=NAME_MAX)
    if not campaign.is_open:
        raise CampaignClosed()
    rule_systems.require(campaign.rule_system)
    if Character.objects.filter(campaign=campaign, name__iexact=name).exists():
        raise InvalidInput("name_taken", name=name)
    return name


@transaction.atomic
def character_create(*, user, campaign: Campaign, name: str, rng: RandomSource | None = None,
                     now: datetime | None = None) -> Character:
    """Create a new character for ``user`` in one step, by the campaign's rule system's
    ``create_character`` (no reroll nor redistribution: the step-by-step path is the page's,
    ``RuleSystemSpec.begin_creation``): for Eternal War One II, ``ew1.system.create_character``.
    Raises InvalidInput (name), CampaignClosed, RuleSystemNotPlayable, and what the system's
    creation raises (EW1: BoardFull).
    """
    rng = rng or random.SystemRandom()
    name = new_character_name(campaign=campaign, name=name)
    spec = rule_systems.require(campaign.rule_system)
    if spec.create_character is None:
        raise rule_systems.not_built(campaign.rule_system)
    return spec.create_character(user=user, campaign=campaign, name=name, rng=rng,
                                 now=now or timezone.now())


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


def character_place(*, character: Character, board: Board, rng: RandomSource) -> Character:
    """Put ``character`` on a random free cell of ``board``: random tries first, then the first
    free cell in reading order. Raises BoardFull. Call inside a transaction."""
    for _ in range(PLACEMENT_TRIES):
        x, y = rng.randint(0, board.width - 1), rng.randint(0, board.height - 1)
        if _try_cell(character, board, x, y):
            return character
    occupied = set(board.pieces.values_list("x", "y"))
    for y in range(board.height):
        for x in range(board.width):
            if (x, y) not in occupied and _try_cell(character, board, x, y):
                return character
    raise BoardFull()


def _try_cell(character: Character, board: Board, x: int, y: int) -> bool:
    if Character.objects.filter(board=board, x=x, y=y).exists():
        return False
    try:
        with transaction.atomic():  # a savepoint: losing a race for the cell is not fatal
            Character.objects.filter(pk=character.pk).update(board=board, x=x, y=y)
    except IntegrityError:
        return False
    character.board, character.x, character.y = board, x, y
    return True


@transaction.atomic
def piece_create(*, campaign: Campaign, kind: str, name: str, x: int, y: int, pv: int,
                 fixed_reduction: int, characteristics: dict[str, int] | None = None,
                 skills: dict[str, int] | None = None, level: int = 0,
                 now: datetime | None = None) -> Character:
    """Put a creature, a door or an object (no owner, no LUK) on the campaign's board at (x, y).
    Doors and objects have 0 in every characteristic and skill; creatures get what is given
    (default: the level-1 bases of 10 everywhere). Raises InvalidInput (kind, cell)."""
    if kind not in (Character.Kind.CREATURE, Character.Kind.DOOR, Character.Kind.OBJECT):
        raise InvalidInput("piece_creature_door")
    board = campaign.board
    if not board.contains(x, y) or Character.objects.filter(board=board, x=x, y=y).exists():
        raise InvalidInput("cell_off_board")
    values = characteristics or {code: 10 if kind == Character.Kind.CREATURE else 0
                                 for code in ("FOR", "DEF", "TAI", "INT", "DEX")}
    params = campaign.parameters
    ts = unix(now or timezone.now())
    character = Character.objects.create(campaign=campaign, kind=kind, name=name, board=board,
                                         x=x, y=y, first_action_at=now or timezone.now())
    EternalWarSheet.objects.create(
        character=character, **{k: v for k, v in values.items() if k != "LUK"}, LUK=None,
        level=level, skills=skills or base_skills({**values, "LUK": 0}),
        pa=params.pa_base, pa_max=params.pa_base, pa_anchor=ts, pv=pv, pv_max=pv, pv_anchor=ts,
        fixed_reduction=fixed_reduction)
    return character


def cooldown_notice_dismiss(*, user, character_id: int) -> None:
    """Hide the notice the cooldown beat left on the user's character (one UPDATE). Raises
    NotFound when the character is missing or not the user's."""
    if not Character.objects.filter(pk=character_id, owner_id=user.pk).update(
            cooldown_notice="", cooldown_notice_at=None):
        raise NotFound("no_such_character")
