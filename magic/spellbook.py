"""The spellbook: learning at level-up (stored offers), discovery by scrolls and by the game
master. Source: 000_afeb9d2c9ccd2b72.txt, "Obtention des sorts"; docs/rules, "Magic"."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.journal import record_action
from campaigns.permissions import allowed
from campaigns.versions import version_bump_pieces
from characters.models import Character
from magic.errors import OfferInvalid, SpellAlreadyKnown, SpellbookFull, SpellUnknown
from magic.models import KnownSpell, Scroll, Spell, SpellOffer


def spells_for_campaign(campaign_id: int):
    """The catalogue a campaign sees: its own spells and the shared ones."""
    return Spell.objects.filter(Q(campaign_id=campaign_id) | Q(campaign__isnull=True))


def spell_grant_check(*, character: Character, spell: Spell, replace: Spell | None = None
                      ) -> None:
    """Raise why ``character`` cannot learn ``spell`` (replacing ``replace``), or return:
    SpellUnknown (another campaign's spell, ``replace`` not known), SpellAlreadyKnown,
    SpellbookFull (``spellbook_size``, 10)."""
    if spell.campaign_id not in (None, character.campaign_id):
        raise SpellUnknown("spell_belongs_another")
    known = KnownSpell.objects.filter(character=character)
    if known.filter(spell=spell).exists():
        raise SpellAlreadyKnown(character=character.name, spell=spell.name)
    count = known.count()
    if replace is not None:
        if not known.filter(spell=replace).exists():
            raise SpellUnknown("replaced_spell_unknown")
        count -= 1
    size = character.campaign.parameters.spellbook_size
    if count >= size:
        raise SpellbookFull(size=size)


def spell_grant(*, character: Character, spell: Spell, source: str,
                now: datetime | None = None, replace: Spell | None = None) -> KnownSpell:
    """Add ``spell`` to the spellbook after ``spell_grant_check``; ``replace`` is forgotten.
    Call inside a transaction."""
    spell_grant_check(character=character, spell=spell, replace=replace)
    if replace is not None:
        KnownSpell.objects.filter(character=character, spell=replace).delete()
    try:
        with transaction.atomic():
            known = KnownSpell.objects.create(character=character, spell=spell, source=source,
                                              learned_at=now or timezone.now())
        # The board's spell panel shows it.
        version_bump_pieces(campaign_id=character.campaign_id, actor=character)
        return known
    except IntegrityError:
        raise SpellAlreadyKnown(character=character.name, spell=spell.name) from None


@transaction.atomic
def spell_offer_pending(*, character: Character, rng: random.Random | None = None,
                        now: datetime | None = None) -> SpellOffer | None:
    """The open offer of the lowest level gained and not yet answered, drawn once and stored:
    ``spell_offer_size`` (5) learnable spells the character does not know. None when every
    level gained has been answered."""
    level = character.ew1.level
    answered = set(SpellOffer.objects.filter(character=character, resolved_at__isnull=False)
                   .values_list("level", flat=True))
    pending = next((lvl for lvl in range(1, level + 1) if lvl not in answered), None)
    if pending is None:
        return None
    offer = SpellOffer.objects.filter(character=character, level=pending).first()
    if offer is not None:
        return offer
    known = KnownSpell.objects.filter(character=character).values("spell_id")
    pool = list(spells_for_campaign(character.campaign_id).filter(learnable=True)
                .exclude(pk__in=known).order_by("pk").values_list("pk", flat=True))
    size = character.campaign.parameters.spell_offer_size
    drawn = (rng or random.SystemRandom()).sample(pool, min(size, len(pool)))
    try:
        with transaction.atomic():
            offer = SpellOffer.objects.create(character=character, level=pending,
                                              created_at=now or timezone.now())
    except IntegrityError:  # drawn by a concurrent request: keep the stored one
        return SpellOffer.objects.get(character=character, level=pending)
    offer.spells.set(drawn)
    return offer


def _owned_character(*, user, character_id: int) -> Character:
    character = (Character.objects.select_for_update(of=("self",))
                 .select_related("campaign", "ew1").filter(pk=character_id).first())
    if character is None or not allowed(user, "characters.act", character):
        raise NotFound("no_such_character")
    return character


@transaction.atomic
def spell_offer_answer(*, user, character_id: int, offer_id: int, spell_id: int | None,
                       replace_spell_id: int | None = None, now: datetime | None = None
                       ) -> SpellOffer:
    """Learn one of the offered spells (``spell_id``), or decline the offer (None). With a full
    spellbook, ``replace_spell_id`` names the spell to forget. Raises OfferInvalid (answered,
    spell not offered), SpellbookFull, SpellUnknown, NotFound."""
    now = now or timezone.now()
    character = _owned_character(user=user, character_id=character_id)
    offer = (SpellOffer.objects.select_for_update().filter(pk=offer_id, character=character)
             .first())
    if offer is None:
        raise NotFound("no_such_offer")
    if offer.resolved_at is not None:
        raise OfferInvalid("offer_been_answered")
    if spell_id is not None:
        spell = offer.spells.filter(pk=spell_id).first()
        if spell is None:
            raise OfferInvalid("spell_not_offered")
        replace = None
        if replace_spell_id is not None:
            replace = Spell.objects.filter(pk=replace_spell_id).first()
            if replace is None:
                raise SpellUnknown("replaced_spell_unknown")
        spell_grant(character=character, spell=spell, source=KnownSpell.Source.LEVEL_UP, now=now,
                    replace=replace)
        offer.chosen = spell
    offer.resolved_at = now
    offer.save(update_fields=["chosen", "resolved_at"])
    record_action(campaign=character.campaign, kind="learn" if spell_id else "decline",
                  now=now, user=user, actor=character,
                  summary={"level": offer.level, "spell": offer.chosen.name if offer.chosen
                           else None})
    return offer


def scroll_pick_up(*, character: Character, now: datetime,
                   path: Sequence[tuple[int, int]] | None = None) -> list[KnownSpell]:
    """Called after a move: each scroll on the cells the character walked over (``path``, in
    order; its own cell when None) is learned and leaves the board, in the order walked. With
    a full spellbook, or a spell already known, the scroll stays. One query to find them,
    whatever the path's length."""
    if character.board_id is None:
        return []
    cells = list(path) if path is not None else [character.cell]
    on = Q()
    for x, y in cells:
        on |= Q(x=x, y=y)
    found = {(s.x, s.y): s for s in Scroll.objects.select_for_update().select_related("spell")
             .filter(on, board_id=character.board_id)}
    learned = []
    for cell in cells:
        scroll = found.get(cell)
        if scroll is None:
            continue
        try:
            with transaction.atomic():
                known = spell_grant(character=character, spell=scroll.spell,
                                    source=KnownSpell.Source.SCROLL, now=now)
        except (SpellbookFull, SpellAlreadyKnown, SpellUnknown):
            continue
        scroll.delete()
        learned.append(known)
    return learned


