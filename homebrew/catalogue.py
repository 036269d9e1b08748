"""The homebrew's weapons and spells in the campaign's catalogue (campaigns.catalogue), with
the admin's form (homebrew.admin.WeaponTemplateForm)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.catalogue import CatalogueKind, register_kind
from homebrew.models import SYSTEM, WeaponTemplate


def _weapon_form():
    from homebrew.admin import WeaponTemplateForm

    return WeaponTemplateForm


def weapon_in_use(weapon: WeaponTemplate) -> list[str]:
    """The sheets that carry it (one query)."""
    wielders = weapon.wielders.count()
    if not wielders:
        return []
    return [ngettext("carried by %(n)s character", "carried by %(n)s characters", wielders)
            % {"n": wielders}]


WEAPONS = CatalogueKind(
    slug="weapons", system=SYSTEM, label=_("Weapons and spells"), model=WeaponTemplate,
    form=_weapon_form, columns=("die", "kind", "mp_cost", "offered_at_creation"),
    in_use=weapon_in_use,
    deletes=_("Attacks already declared with it keep its name and die."))


def register() -> None:
    register_kind(WEAPONS)
