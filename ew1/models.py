"""Eternal War One II's models: the sheet of a character, the item catalogue and the items
characters own, and the creation drafts (seed 000_afeb9d2c9ccd2b72.txt).

They were made in the ``characters`` app and keep its tables (``Meta.db_table``) and their rows:
migrations ew1 0001 and characters 0008 moved them in Django's state only.
"""

from __future__ import annotations

import time
from datetime import datetime
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.validation import (campaign_problem, character_problem, require,
                                  same_campaign_problem)
from campaigns.validation import validate_dice as shared_validate_dice
from characters.models import Character
from ew1.cooldowns import reincarnation_available_at
from ew1.protection import is_protected


SYSTEM = "ew1"  # campaigns.models.RuleSystem.ETERNAL_WAR: the rows here are this system's


def unix_now() -> int:
    """Now in Unix seconds: the default regeneration anchor of a sheet made in the admin."""
    return int(time.time())



class EternalWarSheet(models.Model):
    """Eternal War One II numbers of a character (seed 000_afeb9d2c9ccd2b72.txt).

    PA and PV are stored with a regeneration anchor in Unix seconds: what the player has now is
    derived by ``ew1.regeneration``; ``pa_max`` and ``pv_max`` follow the level.
    """

    character = models.OneToOneField(Character, on_delete=models.CASCADE, primary_key=True,
                                     related_name="ew1")
    FOR = models.PositiveSmallIntegerField("FOR")
    DEF = models.PositiveSmallIntegerField("DEF")
    TAI = models.PositiveSmallIntegerField("TAI")
    INT = models.PositiveSmallIntegerField("INT")
    DEX = models.PositiveSmallIntegerField("DEX")
    LUK = models.PositiveSmallIntegerField("LUK", null=True, blank=True,
                                           help_text=_("Empty for doors, objects and creatures."))
    level = models.PositiveSmallIntegerField(_("level"), default=0)
    xp = models.PositiveIntegerField("XP", default=0)
    skills = models.JSONField(_("skills"), default=dict)
    pa = models.DecimalField("PA", max_digits=6, decimal_places=1, default=Decimal("12"))
    pa_max = models.DecimalField(_("PA cap"), max_digits=6, decimal_places=1,
                                 default=Decimal("12"))
    pa_anchor = models.BigIntegerField(default=unix_now,
                                       help_text=_("PA regeneration anchor, Unix seconds."))
    pa_spent_today = models.DecimalField(
        _("PA spent on the game day"), max_digits=7, decimal_places=1, default=Decimal("0"),
        help_text=_("Counted against the daily PA cap; belongs to the day below."))
    pa_spent_day = models.DateField(
        _("game day of the PA count"), null=True, blank=True,
        help_text=_("Local date (campaign time zone) the count belongs to; another day's count "
                    "is 0."))
    pv = models.IntegerField("PV", default=100)
    pv_max = models.PositiveIntegerField(_("max PV"), default=100)
    pv_anchor = models.BigIntegerField(default=unix_now,
                                       help_text=_("PV regeneration anchor, Unix seconds."))
    skill_points = models.PositiveIntegerField(_("skill points to spend"), default=0)
    characteristic_points = models.PositiveIntegerField(_("characteristic points to spend"),
                                                        default=0)
    skills_raised = models.JSONField(
        default=dict, blank=True,
        help_text=_("Skill points spent per skill since the last level gained (per-level cap)."))
    fixed_reduction = models.PositiveSmallIntegerField(
        _("fixed damage reduction"), null=True, blank=True,
        help_text=_("Doors, objects and creatures: damage reduction instead of DEF rolls."))

    class Meta:
        db_table = "characters_eternalwarsheet"
        verbose_name = _("Eternal War One II sheet")
        constraints = (models.CheckConstraint(
            condition=Q(pa__gte=0), name="pa_not_negative",
            violation_error_message=_("PA are never negative.")),)

    def __str__(self) -> str:
        return f"{self.character} (EW1)"

    @property
    def characteristics(self) -> dict[str, int]:
        return {code: getattr(self, code) for code in ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")}

    @property
    def is_protected(self) -> bool:
        """The sheet's character cannot be attacked yet (``ew1.protection.is_protected``)."""
        return is_protected(self.character)

    @property
    def reincarnation_blocked_until(self) -> datetime | None:
        """When the character's last suicide's block ends (possibly in the past), derived from the
        campaign's current ``suicide_cooldown_hours``; None without a suicide to wait for
        (``ew1.cooldowns.reincarnation_available_at``). Reads ``character.campaign``."""
        return reincarnation_available_at(self.character, self.character.campaign.parameters)


def validate_dice(value: str) -> None:
    """The dice fields' validator (its path is in migrations): campaigns.validation's."""
    shared_validate_dice(value)


class ItemTemplate(models.Model):
    """An item as the GM writes it in the catalogue (seed 000, "Objets")."""

    class Kind(models.TextChoices):
        MELEE = "melee", _("Melee weapon")
        RANGED = "ranged", _("Ranged weapon")
        ARMOUR = "armour", _("Armour")
        MISC = "misc", _("Miscellaneous")

    class Category(models.TextChoices):
        STANDARD = "standard", _("Standard")
        LEGENDARY = "legendary", _("Legendary")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="item_templates",
                                 help_text=_("Empty: available in every campaign."))
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    category = models.CharField(_("category"), max_length=16, choices=Category.choices,
                                default=Category.STANDARD)
    description = models.TextField(_("description"), blank=True)
    damage_dice = models.CharField(_("damage dice"), max_length=32, blank=True,
                                   validators=[validate_dice], help_text="e.g. 2d6+1")
    weapon_skill = models.SmallIntegerField(_("weapon skill (ca)"), default=0)
    range_cells = models.PositiveSmallIntegerField(_("range (cells)"), default=1)
    armour = models.PositiveSmallIntegerField(_("armour points"), default=0)
    heal_dice = models.CharField(_("healing dice"), max_length=32, blank=True,
                                 validators=[validate_dice],
                                 help_text=_("Consumables: PV restored when used, e.g. 1d6+1."))

    class Meta:
        db_table = "characters_itemtemplate"
        ordering: ClassVar[list[str]] = ["name"]
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="unique_item_name_per_campaign",
            violation_error_message=_("An item with this name already exists in this "
                                      "campaign.")),)

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        require(campaign=campaign_problem(self.campaign if self.campaign_id else None, SYSTEM))
        weapon = self.kind in (self.Kind.MELEE, self.Kind.RANGED)
        if weapon and not self.damage_dice:
            raise ValidationError({"damage_dice": _("A weapon needs damage dice.")})
        if not weapon and self.damage_dice:
            raise ValidationError({"damage_dice": _("Only weapons have damage dice.")})
        if self.heal_dice and self.kind != self.Kind.MISC:
            raise ValidationError({"heal_dice": _("Only miscellaneous items heal.")})

    @property
    def is_weapon(self) -> bool:
        return self.kind in (self.Kind.MELEE, self.Kind.RANGED)

    @property
    def is_consumable(self) -> bool:
        return bool(self.heal_dice)


class ItemModifier(models.Model):
    """A characteristic modifier of an item, e.g. ``-1d3 DEF`` or ``+1d3 FOR``."""

    class Stat(models.TextChoices):
        FOR = "FOR", "FOR"
        DEF = "DEF", "DEF"
        TAI = "TAI", "TAI"
        INT = "INT", "INT"
        POU = "POU", "POU"
        DEX = "DEX", "DEX"
        LUK = "LUK", "LUK"

    item = models.ForeignKey(ItemTemplate, on_delete=models.CASCADE, related_name="modifiers")
    stat = models.CharField(max_length=3, choices=Stat.choices)
    dice = models.CharField(max_length=32, validators=[validate_dice], help_text="e.g. -1d3")

    class Meta:
        db_table = "characters_itemmodifier"

    def __str__(self) -> str:
        return f"{self.dice} {self.stat}"


class ItemInstance(models.Model):
    """An item a character owns. Its modifier dice were rolled once, when it was created, and
    the values are kept in ``modifier_values`` (code -> signed points): an item is a given item,
    the same at every use (docs/rules/eternal-war-one-ii.md, "Equipment")."""

    template = models.ForeignKey(ItemTemplate, on_delete=models.PROTECT, related_name="instances")
    owner = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="items",
                              limit_choices_to={"campaign__rule_system": SYSTEM})
    equipped = models.BooleanField(_("equipped"), default=False)
    modifier_values = models.JSONField(_("modifiers"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "characters_iteminstance"
        ordering: ClassVar[list[str]] = ["id"]
        indexes = (models.Index(fields=["owner", "equipped"]),)

    def __str__(self) -> str:
        return f"{self.template} ({self.owner})"

    def clean(self) -> None:
        """An EW1 character's item, of its campaign's catalogue or the shared one."""
        owner = self.owner if self.owner_id else None
        template = self.template if self.template_id else None
        require(owner=character_problem(owner, SYSTEM))
        require(template=same_campaign_problem(template, owner.campaign_id if owner else None))


class CharacterDraft(models.Model):
    """A character being created: its rolled characteristics, before the player confirms."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="character_drafts")
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="+")
    name = models.CharField(_("name"), max_length=60)
    rolled = models.JSONField(default=dict)  # code -> value, as rolled
    rolls = models.JSONField(default=dict)  # code -> {expression, faces, total}, for the journal
    deltas = models.JSONField(default=dict, blank=True)  # code -> points moved
    rerolls = models.PositiveSmallIntegerField(default=0)
    band = models.JSONField(default=dict, blank=True)  # k, low, high of the last roll
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "characters_characterdraft"
        constraints = (models.UniqueConstraint(
            fields=["user", "campaign"], name="one_draft_per_user_and_campaign",
            violation_error_message=_("This player already has a character being created in "
                                      "this campaign.")),)

    def __str__(self) -> str:
        return f"{self.name} (draft)"
