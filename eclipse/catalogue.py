"""Eclipse Phase's morph, weapon and armour templates in the campaign's catalogue
(campaigns.catalogue), with the admin's forms (eclipse.admin)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.catalogue import CatalogueKind, register_kind
from eclipse.models import SYSTEM, ArmourTemplate, MorphTemplate, WeaponTemplate


def _morph_form():
    from eclipse.admin import MorphTemplateForm

    return MorphTemplateForm


def _weapon_form():
    from eclipse.admin import WeaponTemplateForm

    return WeaponTemplateForm


def _armour_form():
    from eclipse.admin import ArmourTemplateForm

    return ArmourTemplateForm


def weapon_in_use(weapon: WeaponTemplate) -> list[str]:
    """The weapons characters carry of it (protected: one query)."""
    carried = weapon.carried.count()
    if not carried:
        return []
    return [ngettext("carried once", "carried %(n)s times", carried)
            % {"n": carried}]


def armour_in_use(armour: ArmourTemplate) -> list[str]:
    """The armour worn of it (protected: one query)."""
    worn = armour.worn.count()
    if not worn:
        return []
    return [ngettext("worn once", "worn %(n)s times", worn) % {"n": worn}]


MORPHS = CatalogueKind(
    slug="morphs", system=SYSTEM, label=_("Morph templates"), model=MorphTemplate,
    form=_morph_form, columns=("kind", "durability", "speed", "armour_energy", "armour_kinetic"),
    deletes=_("Sleeves made from it keep their numbers; they no longer name it."))
WEAPONS = CatalogueKind(
    slug="weapons", system=SYSTEM, label=_("Weapon templates"), model=WeaponTemplate,
    form=_weapon_form, columns=("skill", "dv", "ap", "damage_type", "magazine"),
    in_use=weapon_in_use)
ARMOURS = CatalogueKind(
    slug="armours", system=SYSTEM, label=_("Armour templates"), model=ArmourTemplate,
    form=_armour_form, columns=("energy", "kinetic"), in_use=armour_in_use)


def register() -> None:
    for kind in (MORPHS, WEAPONS, ARMOURS):
        register_kind(kind)
