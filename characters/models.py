from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gamerules import dice


class Character(models.Model):
    """A character in a campaign, whatever its rule system. Rule-system numbers live in a sheet
    (``ew1`` for Eternal War One II). ``board``/``x``/``y`` are null while off the board."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="characters")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                              blank=True, related_name="characters")
    name = models.CharField(_("name"), max_length=60)
    board = models.ForeignKey("campaigns.Board", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="pieces")
    x = models.IntegerField(null=True, blank=True)
    y = models.IntegerField(null=True, blank=True)
    first_action_at = models.DateTimeField(
        null=True, blank=True, help_text=_("A level 0 character cannot be attacked before this."))
    last_action_at = models.DateTimeField(null=True, blank=True)
    deaths = models.PositiveIntegerField(default=0)
    kills = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["board", "x", "y"], condition=Q(board__isnull=False),
                                    name="one_piece_per_cell"),
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_name_per_campaign"),
            models.CheckConstraint(
                condition=Q(board__isnull=True) | (Q(x__gte=0) & Q(y__gte=0)),
                name="on_board_has_position"),
        ]
        indexes = [models.Index(fields=["board", "x", "y"])]

    def __str__(self) -> str:
        return self.name

    @property
    def on_board(self) -> bool:
        return self.board_id is not None


class EternalWarSheet(models.Model):
    """Eternal War One II numbers of a character (seed 000_afeb9d2c9ccd2b72.txt).

    PA and PV are stored with a regeneration anchor in Unix seconds: what the player has now is
    derived by ``characters.regeneration``; ``pa_max`` and ``pv_max`` follow the level.
    """

    character = models.OneToOneField(Character, on_delete=models.CASCADE, primary_key=True,
                                     related_name="ew1")
    FOR = models.PositiveSmallIntegerField("FOR")
    DEF = models.PositiveSmallIntegerField("DEF")
    TAI = models.PositiveSmallIntegerField("TAI")
    INT = models.PositiveSmallIntegerField("INT")
    DEX = models.PositiveSmallIntegerField("DEX")
    LUK = models.PositiveSmallIntegerField("LUK")
    level = models.PositiveSmallIntegerField(_("level"), default=0)
    xp = models.PositiveIntegerField("XP", default=0)
    skills = models.JSONField(_("skills"), default=dict)
    pa = models.DecimalField("PA", max_digits=6, decimal_places=1, default=Decimal("12"))
    pa_max = models.DecimalField(_("PA cap"), max_digits=6, decimal_places=1,
                                 default=Decimal("12"))
    pa_anchor = models.BigIntegerField(help_text=_("PA regeneration anchor, Unix seconds."))
    pv = models.IntegerField("PV", default=100)
    pv_max = models.PositiveIntegerField(_("max PV"), default=100)
    pv_anchor = models.BigIntegerField(help_text=_("PV regeneration anchor, Unix seconds."))

    class Meta:
        verbose_name = _("Eternal War One II sheet")
        constraints = [models.CheckConstraint(condition=Q(pa__gte=0), name="pa_not_negative")]

    def __str__(self) -> str:
        return f"{self.character} (EW1)"

    @property
    def characteristics(self) -> dict[str, int]:
        return {code: getattr(self, code) for code in ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")}


def validate_dice(value: str) -> None:
    try:
        dice.validate(value)
    except dice.DiceNotationError as exc:
        raise ValidationError(str(exc)) from None


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

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="unique_item_name_per_campaign")]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        weapon = self.kind in (self.Kind.MELEE, self.Kind.RANGED)
        if weapon and not self.damage_dice:
            raise ValidationError({"damage_dice": _("A weapon needs damage dice.")})
        if not weapon and self.damage_dice:
            raise ValidationError({"damage_dice": _("Only weapons have damage dice.")})


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

    def __str__(self) -> str:
        return f"{self.dice} {self.stat}"
