"""EW1's kinds of the campaign's catalogue (campaigns.catalogue): its items, with their
characteristic modifiers (the admin's inline). The form is the admin's (ew1.admin)."""

from __future__ import annotations

from typing import Any
from django.forms import inlineformset_factory
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.catalogue import CatalogueKind, register_kind
from ew1.models import SYSTEM, ItemInstance, ItemModifier, ItemTemplate


def _item_form():
    from ew1.admin import ItemTemplateForm

    return ItemTemplateForm


# The admin's inline (ew1.admin.ItemModifierInline): its model's fields and validators.
ModifierFormSet: Any = inlineformset_factory(ItemTemplate, ItemModifier, fields=("stat", "dice"),
                                        extra=1)


def item_in_use(item: ItemTemplate) -> list[str]:
    """Items of this template that characters own (they are protected: one query)."""
    owned = ItemInstance.objects.filter(template=item).count()
    if not owned:
        return []
    return [ngettext("%(n)s owned by a character", "%(n)s owned by characters", owned)
            % {"n": owned}]


ITEMS = CatalogueKind(
    slug="items", system=SYSTEM, label=_("Items"), model=ItemTemplate, form=_item_form,
    columns=("kind", "category", "damage_dice", "weapon_skill", "range_cells", "armour",
             "heal_dice"),
    in_use=item_in_use, deletes=_("Its characteristic modifiers are deleted with it."),
    formset=ModifierFormSet)


def register() -> None:
    register_kind(ITEMS)
