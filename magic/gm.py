"""The spell the game master grants from the screen (characters.gm; a quick action EW1's
spec names by its dotted path, magic sitting above EW1)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import InvalidInput
from campaigns.journal import record_action
from campaigns.numbers import whole_number


def spell_choices(campaign) -> list:
    """The catalogue the campaign sees (magic.spellbook.spells_for_campaign), by name."""
    from magic.spellbook import spells_for_campaign
    return list(spells_for_campaign(campaign.pk).order_by("name", "pk"))


@transaction.atomic
def grant_spell(*, user, character, data) -> str:
    """magic.spellbook.spell_grant of the chosen spell (source "granted", the board's versions
    bumped), journaled as a ``learn``. Raises InvalidInput, SpellUnknown, SpellAlreadyKnown,
    SpellbookFull."""
    from magic.errors import SpellUnknown
    from magic.models import KnownSpell, Spell
    from magic.spellbook import spell_grant

    spell_id = whole_number(data.get("spell", ""), negative=False, digits=9)
    if spell_id is None:
        raise InvalidInput()
    spell = Spell.objects.filter(pk=spell_id).first()
    if spell is None:
        raise SpellUnknown("spell_belongs_another")
    now = timezone.now()
    spell_grant(character=character, spell=spell, source=KnownSpell.Source.GRANTED, now=now)
    record_action(campaign=character.campaign, kind="learn", now=now, user=user,
                  actor=character, summary={"spell": spell.name, "granted": True})
    return _("%(name)s learns %(spell)s.") % {"name": character.name, "spell": spell.name}
