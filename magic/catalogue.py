"""EW1's spells in the campaign's catalogue (campaigns.catalogue), with the admin's form
(magic.admin.SpellForm)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.catalogue import CatalogueKind, register_kind
from ew1.models import SYSTEM
from magic.models import ActiveEffect, KnownSpell, Scroll, Spell


def _spell_form():
    from magic.admin import SpellForm

    return SpellForm


def spell_in_use(spell: Spell) -> list[str]:
    """What deleting the spell would take away from characters (its rows go with it): the
    spellbooks that hold it, the effects it keeps up, the scrolls that teach it (three
    queries)."""
    uses = []
    known = KnownSpell.objects.filter(spell=spell).count()
    if known:
        uses.append(ngettext("known by %(n)s character", "known by %(n)s characters", known)
                    % {"n": known})
    effects = ActiveEffect.objects.filter(spell=spell).count()
    if effects:
        uses.append(ngettext("%(n)s effect lasting", "%(n)s effects lasting", effects)
                    % {"n": effects})
    scrolls = Scroll.objects.filter(spell=spell).count()
    if scrolls:
        uses.append(ngettext("%(n)s scroll on a board", "%(n)s scrolls on boards", scrolls)
                    % {"n": scrolls})
    return uses


SPELLS = CatalogueKind(
    slug="spells", system=SYSTEM, label=_("Spells"), model=Spell, form=_spell_form,
    columns=("tier", "effect", "dice", "range_cells", "zone_radius", "reach", "duration_hours",
             "learnable"),
    in_use=spell_in_use,
    deletes=_("Level-up offers that drew it lose it; the journal keeps what was cast."))


def register() -> None:
    register_kind(SPELLS)
