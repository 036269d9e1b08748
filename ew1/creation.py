"""Character creation step by step: roll, reroll (steered, rate limited), redistribute, confirm.

Source: 000_afeb9d2c9ccd2b72.txt, "Distribution des caracs"; the rules are in
gamerules.ew1.creation. The draft lives in the database (CharacterDraft) so that any web process
can serve the next step.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from characters.services import new_character_name
from ew1.actors import require_eternal_war
from ew1.errors import MESSAGES
from ew1.limits import Allowance, reroll_allowance
from ew1.models import CharacterDraft
from ew1.services import character_create_from_values
from gamerules.dice import RandomSource
from gamerules.errors import RuleError
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.creation import steered_roll, validate_redistribution


class RerollLimited(RuleError):
    code = "reroll_limited"
    status = 429
    messages = MESSAGES
    retry_after: int | None = None  # seconds, set by the API for its Retry-After header


def _roll_into(draft: CharacterDraft, rng: RandomSource) -> None:
    params = draft.campaign.parameters
    steered = steered_roll(rng, reroll=draft.rerolls, band_sd=params.creation_band_sd,
                           band_step=params.creation_band_step)
    draft.rolled = steered.values
    draft.rolls = {code: {"expression": r.expression, "faces": [f.sign * f.face for f in r.faces],
                          "total": r.total} for code, r in steered.rolls.items()}
    draft.deltas = {}
    draft.band = {"k": steered.k, "low": round(steered.low, 2), "high": round(steered.high, 2),
                  "attempts": steered.attempts}


def _consume_reroll(draft: CharacterDraft) -> None:
    """Count one reroll for the draft's user; RerollLimited past ``rerolls_per_minute``."""
    allowance = reroll_allowance(user=draft.user,
                                 per_minute=draft.campaign.parameters.rerolls_per_minute,
                                 consume=True)
    if allowance.used > allowance.limit:
        raise RerollLimited(seconds=allowance.seconds_left)


@transaction.atomic
def draft_roll(*, user, campaign: Campaign, name: str, rng: RandomSource | None = None
               ) -> CharacterDraft:
    """Start the user's draft in ``campaign`` with a first steered roll. Restarting an existing
    draft counts as a reroll (rate limited, band widened as for a reroll), so that starting over
    cannot fish for a narrow-band roll. Raises InvalidInput, CampaignClosed,
    RuleSystemNotPlayable (ew1.actors.NotEternalWar, "not_ew1": drafts are Eternal War One
    II's), RerollLimited."""
    name = new_character_name(user=user, campaign=campaign, name=name)
    require_eternal_war(campaign)
    draft, created = CharacterDraft.objects.select_for_update().get_or_create(
        user=user, campaign=campaign, defaults={"name": name})
    if not created:
        _consume_reroll(draft)
        draft.rerolls += 1
    draft.name = name
    _roll_into(draft, rng or random.SystemRandom())
    draft.save()
    return draft


def draft_get(*, user, draft_id: int, lock: bool = False) -> CharacterDraft:
    """The user's draft; NotFound for another user's or a missing one."""
    qs = CharacterDraft.objects.select_related("campaign", "user")
    if lock:
        qs = qs.select_for_update(of=("self",))
    draft = qs.filter(pk=draft_id, user=user).first()
    if draft is None:
        raise NotFound("no_such_draft")
    return draft


def draft_allowance(*, draft: CharacterDraft) -> Allowance:
    return reroll_allowance(user=draft.user,
                            per_minute=draft.campaign.parameters.rerolls_per_minute, consume=False)


@transaction.atomic
def draft_reroll(*, user, draft_id: int, rng: RandomSource | None = None) -> CharacterDraft:
    """Reroll the draft's characteristics with a band widened by one step. Raises RerollLimited
    when the user has used this minute's rerolls (campaign parameter ``rerolls_per_minute``),
    NotFound."""
    draft = draft_get(user=user, draft_id=draft_id, lock=True)
    _consume_reroll(draft)
    draft.rerolls += 1
    _roll_into(draft, rng or random.SystemRandom())
    draft.save()
    return draft


@transaction.atomic
def draft_redistribute(*, user, draft_id: int, deltas: dict[str, int]) -> CharacterDraft:
    """Set the points moved between characteristics (replacing earlier ones). Raises
    RedistributionError (5 points at most, 2 per characteristic, sum 0), NotFound."""
    draft = draft_get(user=user, draft_id=draft_id, lock=True)
    params = draft.campaign.parameters
    validate_redistribution(draft.rolled, deltas, total_max=params.redistribute_total,
                            per_characteristic_max=params.redistribute_per_characteristic)
    draft.deltas = {code: d for code, d in deltas.items() if d}
    draft.save(update_fields=["deltas", "updated_at"])
    return draft


def draft_values(draft: CharacterDraft) -> dict[str, int]:
    params = draft.campaign.parameters
    return validate_redistribution(draft.rolled, draft.deltas, total_max=params.redistribute_total,
                                   per_characteristic_max=params.redistribute_per_characteristic)


def character_from_draft(*, user, draft_id: int) -> int | None:
    """The id of the character ``user`` made by confirming draft ``draft_id`` (the draft itself
    is gone), from the creation's journal entry; None if there is none. One query."""
    return (ActionRecord.objects.filter(kind="create", summary__draft=draft_id,
                                        actor__owner=user)
            .values_list("actor_id", flat=True).first())


@transaction.atomic
def draft_confirm(*, user, draft_id: int, rng: RandomSource | None = None,
                  now: datetime | None = None) -> Character:
    """Create the character from the draft (rolled values plus redistribution), place it on a
    free cell, journal the creation, delete the draft. Raises InvalidInput (name taken since),
    BoardFull, NotFound."""
    draft = draft_get(user=user, draft_id=draft_id, lock=True)
    name = new_character_name(user=user, campaign=draft.campaign, name=draft.name)
    character = character_create_from_values(
        user=user, campaign=draft.campaign, name=name, values=draft_values(draft),
        rng=rng or random.SystemRandom(), now=now or timezone.now(),
        summary={"rolled": draft.rolled, "moved": draft.deltas, "rerolls": draft.rerolls,
                 "band": draft.band, "draft": draft.pk},
        # In CODES order: PostgreSQL's jsonb does not keep the keys' order.
        rolls=[{"label": code, **draft.rolls[code]} for code in CODES])
    draft.delete()
    return character
