"""Character services shared by every rule system: the name check of a new character, placement
on the board, the cooldown notice. A system's creation (its sheet, its rolls) is its own, in the
system's app."""

from __future__ import annotations

import random
import unicodedata
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import rule_systems
from campaigns.errors import BoardFull, CampaignClosed, InvalidInput, NotFound
from campaigns.models import Board, Campaign
from campaigns.permissions import admits
from characters.models import Character
from gamerules.dice import RandomSource

NAME_MAX = 60
PLACEMENT_TRIES = 50


def _visible(name: str) -> bool:
    """At least one character that shows: not only spaces, zero-width or control characters
    (Unicode categories Z* and C*), which ``str.strip`` leaves in place."""
    return any(unicodedata.category(ch)[0] not in "ZC" for ch in name)


def new_character_name(*, user, campaign: Campaign, name: str) -> str:
    """The stripped ``name`` if ``user`` may make a new character of that name in ``campaign``
    (campaigns.permissions.admits). Raises InvalidInput (empty, too long, taken),
    CampaignClosed, RuleSystemNotPlayable."""
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise InvalidInput("name_length", name_max=NAME_MAX)
    if not admits(user, campaign):
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
    ``RuleSystemSpec.begin_creation``). Raises InvalidInput (name), CampaignClosed,
    RuleSystemNotPlayable, and what the system's creation raises (BoardFull on a full board).
    """
    rng = rng or random.SystemRandom()
    name = new_character_name(user=user, campaign=campaign, name=name)
    spec = rule_systems.require(campaign.rule_system)
    if spec.create_character is None:
        raise rule_systems.not_built(campaign.rule_system)
    return spec.create_character(user=user, campaign=campaign, name=name, rng=rng,
                                 now=now or timezone.now())


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


def cooldown_notice_dismiss(*, user, character_id: int) -> None:
    """Hide the notice the cooldown beat left on the user's character (one UPDATE). Raises
    NotFound when the character is missing or not the user's."""
    if not Character.objects.filter(pk=character_id, owner_id=user.pk).update(
            cooldown_notice="", cooldown_notice_at=None):
        raise NotFound("no_such_character")
