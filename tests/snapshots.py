"""The state a refused request must leave untouched: one snapshot of every row a player can
change, and the journal's size."""

from __future__ import annotations

from contextlib import contextmanager

from campaigns.models import ActionRecord, Campaign, RollRecord
from characters.models import Character
from ew1.models import CharacterDraft, EternalWarSheet, ItemInstance
from factions.models import Faction, JoinRequest, Membership
from magic.models import ActiveEffect, KnownSpell, Scroll, SpellOffer


def snapshot() -> dict:
    """Every row a player request may change, and the journal's size."""
    return {
        "characters": list(Character.objects.order_by("pk").values()),
        "sheets": list(EternalWarSheet.objects.order_by("pk").values()),
        "items": list(ItemInstance.objects.order_by("pk").values()),
        "drafts": list(CharacterDraft.objects.order_by("pk").values()),
        "known": list(KnownSpell.objects.order_by("pk").values()),
        "offers": list(SpellOffer.objects.order_by("pk").values()),
        "offered": sorted(SpellOffer.spells.through.objects.values_list("spelloffer_id",
                                                                         "spell_id")),
        "effects": list(ActiveEffect.objects.order_by("pk").values()),
        "scrolls": list(Scroll.objects.order_by("pk").values()),
        "campaigns": list(Campaign.objects.order_by("pk").values()),
        "factions": list(Faction.objects.order_by("pk").values()),
        "memberships": list(Membership.objects.order_by("pk").values()),
        "requests": list(JoinRequest.objects.order_by("pk").values()),
        "actions": ActionRecord.objects.count(),
        "rolls": RollRecord.objects.count(),
    }


@contextmanager
def unchanged_state():
    """``with unchanged_state(): <refused request>`` fails unless nothing at all changed."""
    before = snapshot()
    yield
    assert snapshot() == before
